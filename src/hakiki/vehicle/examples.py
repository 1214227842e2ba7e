"""Examples of the vehicle check, shown in the OpenAPI document: what the sandbox answers to
the request example (docs/sandbox.md); tests/test_openapi_examples.py replays them."""

from __future__ import annotations

from typing import Any

VEHICLE_REQUEST: dict[str, Any] = {"registration_number": "KCA 100A", "owner_name": "Wanjiru Kamau"}
