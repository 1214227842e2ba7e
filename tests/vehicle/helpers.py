"""Helpers for the vehicle tests."""

from __future__ import annotations

from typing import Any

import httpx

PATH = "/v3/vehicle/verify"


async def verify(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(PATH, json=body, headers=headers)
