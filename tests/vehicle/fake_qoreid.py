"""A fake QoreID over real HTTP, for tests: the token exchange and "License Plate (Basic)".

It speaks what hakiki/vehicle/qoreid.py follows: ``POST /token`` with ``{"clientId",
"secret"}`` answering ``{"accessToken", "expiresIn", "tokenType": "Bearer"}`` (401 for other
credentials), and ``POST /v1/ng/identities/license-plate-basic/{plateNumber}`` with
``Authorization: Bearer <accessToken>`` and ``{"firstname", "lastname"}`` (both required: 400
otherwise), answering the documented sample's shape, or 404 for a plate it does not hold.
Fault modes switch outages on.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

CLIENT_ID = "fake-qoreid-client-0001"
SECRET = "fake_qoreid_secret_0123456789"
PLATE_PATH = "/v1/ng/identities/license-plate-basic/"


class Mode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"  # both endpoints answer late
    HTTP_503 = "http_503"  # the plate look-up: "a third party service failed"
    GARBAGE = "garbage"  # the plate look-up: 200 with HTML
    UNAUTHORIZED = "unauthorized"  # the token exchange refuses the credentials


# Made-up vehicles and owners, in the documented sample's shape (plates without separators,
# as the hakiki adapter sends them).
PLATE_FOUND = "KJA123AB"
FIRST, MIDDLE, LAST = "Adaeze", "Ngozi", "Okafor"
_RECORDS: dict[str, dict[str, Any]] = {
    PLATE_FOUND: {
        "plateNumber": PLATE_FOUND,
        "chassisNumber": "JTDBR32E540012345",
        "vehicleMake": "Toyota ",
        "vehicleModel": "Camry",
        "vehicleCategory": "Private",
        "firstname": FIRST,
        "middlename": MIDDLE,
        "lastname": LAST,
    },
}


@dataclass
class FakeState:
    mode: Mode = Mode.NORMAL
    slow_seconds: float = 2.0
    tokens: set[str] = field(default_factory=set)
    token_requests: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


def create_app(state: FakeState) -> FastAPI:
    app = FastAPI(title="fake qoreid")

    @app.post("/token")
    async def token(request: Request) -> Response:
        body = _json(await request.body())
        state.token_requests.append({"json": body})
        if state.mode is Mode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if (
            state.mode is Mode.UNAUTHORIZED
            or not isinstance(body, dict)
            or (body.get("clientId"), body.get("secret")) != (CLIENT_ID, SECRET)
        ):
            return JSONResponse({"statusCode": 401, "message": "Unauthorized"}, status_code=401)
        issued = secrets.token_hex(16)
        state.tokens.add(issued)
        return JSONResponse({"accessToken": issued, "expiresIn": 7200, "tokenType": "Bearer"})

    @app.post(PLATE_PATH + "{plate}")
    async def plate(plate: str, request: Request) -> Response:
        body = _json(await request.body())
        state.requests.append(
            {"plate": plate, "json": body, "authorization": request.headers.get("authorization")}
        )
        if state.mode is Mode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if state.mode is Mode.HTTP_503:
            return PlainTextResponse("<html>503 Service Unavailable</html>", status_code=503)
        bearer = (request.headers.get("authorization") or "").removeprefix("Bearer ")
        if bearer not in state.tokens:
            return JSONResponse({"statusCode": 401, "message": "Unauthorized"}, status_code=401)
        if state.mode is Mode.GARBAGE:
            return PlainTextResponse("<!doctype html>oops {", status_code=200)
        if not isinstance(body, dict) or not body.get("firstname") or not body.get("lastname"):
            message = "firstname and lastname are required"
            return JSONResponse({"statusCode": 400, "message": message}, status_code=400)
        record = _RECORDS.get(plate)
        if record is None:
            return JSONResponse({"statusCode": 404, "message": "Plate number not found"}, 404)
        matches = {
            "firstname": body["firstname"].lower() == record["firstname"].lower(),
            "lastname": body["lastname"].lower() == record["lastname"].lower(),
        }
        return JSONResponse(
            {
                "id": 1691,
                "applicant": {"firstname": body["firstname"], "lastname": body["lastname"]},
                "summary": {
                    "license_plate_check": {
                        "status": "EXACT_MATCH" if all(matches.values()) else "NO_MATCH",
                        "fieldMatches": matches,
                    }
                },
                "status": {"state": "complete", "status": "verified"},
                "license_plate": record,
            }
        )

    return app


@dataclass
class FakeQoreId:
    base_url: str
    state: FakeState

    @property
    def requests(self) -> list[dict[str, Any]]:
        return list(self.state.requests)

    @property
    def token_requests(self) -> list[dict[str, Any]]:
        return list(self.state.token_requests)

    def set_mode(self, mode: Mode, *, slow_seconds: float | None = None) -> None:
        self.state.mode = mode
        if slow_seconds is not None:
            self.state.slow_seconds = slow_seconds

    def reset(self) -> None:
        self.state.mode = Mode.NORMAL
        self.state.slow_seconds = 2.0
        self.state.requests.clear()
        self.state.token_requests.clear()


@contextmanager
def run_fake_qoreid() -> Iterator[FakeQoreId]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread."""
    state = FakeState()
    with serve_in_thread(create_app(state), "fake-qoreid") as base_url:
        yield FakeQoreId(base_url, state)
