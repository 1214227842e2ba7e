"""Helpers of the statement tests: uploads over HTTP and waiting for the analysis job."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

URL = "/v3/statements"


async def post_statement(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    content: bytes,
    name: str = "statement.pdf",
    **form: Any,
) -> httpx.Response:
    return await client.post(
        f"{URL}/analyze",
        files={"file": (name, content, "application/octet-stream")},
        data={"statement_type": "auto", **form},
        headers=headers,
    )


async def analyze(
    client: httpx.AsyncClient, headers: dict[str, str], content: bytes, **form: Any
) -> dict[str, Any]:
    response = await post_statement(client, headers, content, **form)
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == "pending" and body["progress"] == 0
    return body


async def finished(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    analysis_id: str,
    within: float = 60,
    **params: Any,
) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        response = await client.get(f"{URL}/{analysis_id}", params=params, headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["status"] in ("completed", "failed"):
            return body
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.05)
