"""A fake Prembly Nigerian TIN verification over real HTTP, for tests.

It speaks what docs.prembly.com documents (hakiki/tax/providers/prembly_tin.py): ``POST
/verification/tin`` with ``app-id`` and ``x-api-key`` (401 otherwise), a body ``{"number",
"channel"}``, and Prembly's envelope (``status``, ``detail``, ``response_code``, ``data``,
``verification``). Fault modes switch outages on. The taxpayers are made up.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

APP_ID = "fake-tin-app-0001"
API_KEY = "fake_tin_sk_0123456789"
PATH = "/verification/tin"

TIN_COMPANY = "20304753-0001"  # the documented test TIN's shape: a company with an RC number
TIN_PERSON = "1234567890"  # a 10-digit JTB TIN of a person (no RC number)
COMPANY_NAME = "OKONKWO AND SONS NIGERIA LIMITED"
PERSON_NAME = "AMAKA CHIOMA NWOSU"
_RECORDS: dict[str, dict[str, Any]] = {
    TIN_COMPANY: {
        "taxpayer_name": COMPANY_NAME,
        "cac_reg_number": "RC323479",
        "firstin": "12392112349",
        "jittin": "10001",
        "tax_office": "YABA TAX OFFICE",
        "phone_number": "08000000000",
        "email": "accounts@example.com",
    },
    TIN_PERSON: {
        "taxpayer_name": PERSON_NAME,
        "cac_reg_number": "",
        "firstin": "",
        "jittin": "10002",
        "tax_office": "IKEJA TAX OFFICE",
        "phone_number": 8000000001,  # the API reference shows it as a number
        "email": "",
    },
}


class Mode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"
    HTTP_503 = "http_503"
    GARBAGE = "garbage"  # 200 with HTML
    UNEXPECTED_JSON = "unexpected_json"  # 200 with JSON that is no Prembly answer
    FOUND_WITHOUT_NAME = "found_without_name"  # "00" with an empty data object
    SERVICE_DOWN = "service_down"  # 200 with response_code "02"
    UNAUTHORIZED = "unauthorized"
    INSUFFICIENT_BALANCE = "insufficient_balance"  # 403 with response_code "03"


@dataclass
class FakeState:
    mode: Mode = Mode.NORMAL
    slow_seconds: float = 2.0
    requests: list[dict[str, Any]] = field(default_factory=list)


def _envelope(code: str, detail: str, data: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"status": code == "00", "detail": detail, "response_code": code}
    if data is not None:
        body["data"] = data
    status = "VERIFIED" if code == "00" else "NOT-VERIFIED"
    body["verification"] = {"status": status, "reference": str(uuid.uuid4())}
    return body


def create_app(state: FakeState) -> FastAPI:
    app = FastAPI(title="fake prembly tin")

    @app.post(PATH)
    async def verify(request: Request) -> Response:
        raw = await request.body()
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        state.requests.append({"headers": dict(request.headers), "json": parsed})
        mode = state.mode
        if mode is Mode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if mode is Mode.HTTP_503:
            return PlainTextResponse("<html>503 Service Unavailable</html>", status_code=503)
        if (
            mode is Mode.UNAUTHORIZED
            or request.headers.get("x-api-key") != API_KEY
            or request.headers.get("app-id") != APP_ID
        ):
            return JSONResponse({"status": False, "detail": "Invalid API key"}, status_code=401)
        if mode is Mode.INSUFFICIENT_BALANCE:
            return JSONResponse(_envelope("03", "Insufficient wallet balance"), status_code=403)
        if mode is Mode.SERVICE_DOWN:
            return JSONResponse(_envelope("02", "Service unavailable, retry later"))
        if mode is Mode.GARBAGE:
            return PlainTextResponse("<!doctype html>oops {", status_code=200)
        if mode is Mode.UNEXPECTED_JSON:
            return JSONResponse({"hello": "world", "response_code": 42})
        if mode is Mode.FOUND_WITHOUT_NAME:
            return JSONResponse(_envelope("00", "TIN Verification Successful", {}))
        if not isinstance(parsed, dict) or parsed.get("channel", "TIN") != "TIN":
            return JSONResponse({"status": False, "detail": "Invalid body"}, status_code=400)
        record = _RECORDS.get(str(parsed.get("number") or ""))
        if record is None:
            return JSONResponse(_envelope("01", "TIN not found"))
        return JSONResponse(_envelope("00", "TIN Verification Successful", record))

    return app


@dataclass
class FakePremblyTin:
    base_url: str
    state: FakeState

    @property
    def requests(self) -> list[dict[str, Any]]:
        return list(self.state.requests)

    def set_mode(self, mode: Mode, *, slow_seconds: float | None = None) -> None:
        self.state.mode = mode
        if slow_seconds is not None:
            self.state.slow_seconds = slow_seconds

    def reset(self) -> None:
        self.state.mode = Mode.NORMAL
        self.state.slow_seconds = 2.0
        self.state.requests.clear()


@contextmanager
def run_fake_prembly_tin() -> Iterator[FakePremblyTin]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread."""
    state = FakeState()
    with serve_in_thread(create_app(state), "fake-prembly-tin") as base_url:
        yield FakePremblyTin(base_url, state)
