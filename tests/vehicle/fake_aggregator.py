"""A fake Prembly vehicle verification (NTSA copy of records) over real HTTP, for tests.

It speaks the shapes the adapter follows (hakiki/vehicle/prembly.py): POST
``/verification/vehicle`` with ``app-id`` and ``x-api-key`` (401 otherwise), a body with
``vehicle_number`` or ``chassis_number``, and Prembly's envelope (``status``, ``detail``,
``response_code``, ``data``, ``verification``). Fault modes switch outages on.
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

APP_ID = "fake-vehicle-app-0001"
API_KEY = "fake_vehicle_sk_0123456789"
PATH = "/verification/vehicle"


class Mode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"
    HTTP_503 = "http_503"
    GARBAGE = "garbage"  # 200 with HTML
    UNEXPECTED_JSON = "unexpected_json"  # 200 with JSON that is no Prembly answer
    FOUND_WITHOUT_VEHICLE = "found_without_vehicle"  # "00" with an empty data object
    SERVICE_DOWN = "service_down"  # 200 with response_code "02"
    UNAUTHORIZED = "unauthorized"
    INSUFFICIENT_BALANCE = "insufficient_balance"  # 403 with response_code "03"


# Made-up vehicles and owners, as NTSA's copy of records lists them.
PLATE_FOUND = "KCB 234C"
PLATE_FINANCED = "KDA 001B"
CHASSIS_FOUND = "NZE121-1234567"
# A Nigerian plate as the hakiki adapter sends it (no separators) and as Prembly's documented
# "Plate Number Verification" answers it: vehicle_number, vehicle_name (the make), vehicle_color.
NG_PLATE_FOUND = "KJA123AB"
OWNER = "JOHN MWANGI KAMAU"
OWNER_ID = "23456789"
_RECORDS: dict[str, dict[str, Any]] = {
    PLATE_FOUND: {
        "vehicle_number": PLATE_FOUND,
        "chassis_number": "NZE141-9012345",
        "engine_number": "1NZ-A123456",
        "vehicle_make": "TOYOTA",
        "vehicle_model": "COROLLA FIELDER",
        "body_type": "STATION WAGON",
        "vehicle_color": "SILVER",
        "year_of_manufacture": "2012",
        "registration_date": "14-06-2018",
        "logbook_number": "A1234567",
        "owner_name": OWNER,
        "owner_id_number": OWNER_ID,
        "caveats": "NONE",
    },
    PLATE_FINANCED: {
        "vehicle_number": PLATE_FINANCED,
        "chassis_number": "KDH201-0123456",
        "engine_number": "1KD-7654321",
        "vehicle_make": "TOYOTA",
        "vehicle_model": "HIACE",
        "body_type": "VAN",
        "vehicle_color": "WHITE",
        "year_of_manufacture": "2014",
        "registration_date": "2021-03-12",
        "logbook_number": "A7654321",
        "owners": [
            {"name": "MUCHIRI BANK LIMITED", "id_number": "P051234567X"},
            {"name": "GRACE WANJIKU NJOROGE", "id_number": "30123456"},
        ],
        "caveats": [{"type": "FINANCIER", "holder": "MUCHIRI BANK LIMITED", "date": "12/03/2021"}],
    },
    NG_PLATE_FOUND: {
        "vehicle_number": NG_PLATE_FOUND,
        "vehicle_name": "TOYOTA CAMRY",
        "vehicle_color": "BLACK",
    },
    CHASSIS_FOUND: {
        "vehicle_number": "KBZ 123A",
        "chassis_number": CHASSIS_FOUND,
        "engine_number": "1NZ-B765432",
        "vehicle_make": "NISSAN",
        "vehicle_model": "NOTE",
        "body_type": "HATCHBACK",
        "vehicle_color": "BLUE",
        "year_of_manufacture": "2005",
        "registration_date": "2009-01-20",
        "logbook_number": "A0000001",
        "owner_name": OWNER,
        "owner_id_number": OWNER_ID,
    },
}


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
    app = FastAPI(title="fake prembly vehicle")

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
        if mode is Mode.FOUND_WITHOUT_VEHICLE:
            return JSONResponse(_envelope("00", "Vehicle Verification Successful", {}))
        if not isinstance(parsed, dict):
            return JSONResponse({"status": False, "detail": "Invalid body"}, status_code=400)
        key = str(parsed.get("vehicle_number") or parsed.get("chassis_number") or "")
        record = _RECORDS.get(key)
        if record is None:
            return JSONResponse(_envelope("01", "Vehicle record not found"))
        return JSONResponse(_envelope("00", "Vehicle Verification Successful", record))

    return app


@dataclass
class FakeAggregator:
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
def run_fake_aggregator() -> Iterator[FakeAggregator]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread."""
    state = FakeState()
    with serve_in_thread(create_app(state), "fake-vehicle") as base_url:
        yield FakeAggregator(base_url, state)
