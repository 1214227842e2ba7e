"""A fake Smile ID that speaks the documented Enhanced KYC API over real HTTP, for tests.

    with run_fake_smile_id() as fake:           # uvicorn on 127.0.0.1, free port, own thread
        provider = SmileIdProvider(fake.partner_id, fake.api_key, fake.base_url, timeout=1.0)
        fake.set_mode(FaultMode.HTTP_503)       # switch a fault on ...
        fake.reset()                            # ... and back to normal, clearing the request log

``POST /v1/id_verification`` checks what Smile ID checks: the required keys (2213), the
partner id and the request signature -- base64 HMAC-SHA256 of timestamp + partner_id +
"sid_request" keyed with the API key -- (2205), job_type 5 (2212), a job_id never used before
(2215), and that the id_type is activated on the account (ResultCode 1016). It answers the
records in `RECORDS` with 1012, the numbers in `AUTHORITY_DOWN` with 1015, those in
`BAD_FORMAT` with 1014 and anything else with 1013, each answer signed like Smile ID's.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

FAKE_PARTNER_ID = "2042"
FAKE_API_KEY = "fake-smile-api-key-0123456789"


class FaultMode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"  # answers normally, but only after `slow_seconds`
    HTTP_500 = "http_500"  # HTML 500 page
    HTTP_503 = "http_503"  # gateway 503
    GARBAGE = "garbage"  # HTTP 200 with a non-JSON body
    UNEXPECTED_JSON = "unexpected_json"  # HTTP 200 with JSON that is not a Smile ID answer
    FORGED = "forged"  # a 1012 answer whose signature is not made with the partner's key
    UNAUTHORIZED = "unauthorized"  # 2205 whatever the signature
    RATE_LIMITED = "rate_limited"  # 429
    AUTHORITY_DOWN = "authority_down"  # ResultCode 1015 for every number
    SYSTEM_ERROR = "system_error"  # HTTP 500 with Smile ID's code 2201


# --- Known records ---------------------------------------------------------------------------
# Made-up people, shaped like Smile ID's documented answers (FullData is the ID authority's own
# record: Kenya's IPRS gives First_Name, Other_Name, Surname).

KE_NATIONAL_ID = "28765432"
KE_ALIEN_CARD = "7654321"
KE_PASSPORT = "AK1234567"
KE_KRA_PIN = "A012345678Z"
UG_NIN = "CM90012345678A"
UG_NIN_SANCTIONED = "CM64012345678B"  # a real UN-listed person, for live screening tests
TZ_NIDA = "19850515123456780001"
KE_NOT_FOUND = "29999999"
KE_AUTHORITY_DOWN = "21111115"
KE_BAD_FORMAT = "21111114"
AUTHORITY_DOWN = frozenset({KE_AUTHORITY_DOWN})
BAD_FORMAT = frozenset({KE_BAD_FORMAT})

#: id_types activated on the fake's partner account; TZ NATIONAL_ID is an account extra that
#: Smile ID does not document (the operator maps it with HAKIKI_SMILE_ID_ID_TYPES).
ACTIVATED: dict[str, frozenset[str]] = {
    "KE": frozenset({"NATIONAL_ID", "ALIEN_CARD", "PASSPORT", "KRA_PIN"}),
    "UG": frozenset({"NATIONAL_ID_NO_PHOTO"}),
    "TZ": frozenset({"NATIONAL_ID"}),
}

RECORDS: dict[tuple[str, str, str], dict[str, Any]] = {
    ("KE", "NATIONAL_ID", KE_NATIONAL_ID): {
        "FullName": "JOHN KAMAU MWANGI",
        "DOB": "1987-03-14",
        "Gender": "Male",
        "PhoneNumber": "Not Available",
        "Address": "NAIROBI",
        "IssuanceDate": "2006-05-02",
        "ExpirationDate": "Not Available",
        "Photo": "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBD",
        "FullData": {
            "First_Name": "JOHN",
            "Other_Name": "KAMAU",
            "Surname": "MWANGI",
            "Gender": "M",
            "Citizenship": "Kenyan",
            "Date_of_Birth": "3/14/1987 12:00:00 AM",
            "Place_of_Birth": "KIAMBU",
            "ErrorOcurred": False,
        },
    },
    ("KE", "ALIEN_CARD", KE_ALIEN_CARD): {
        "FullName": "ABEBE TESFAYE GIRMA",
        "DOB": "1979-11-30",
        "Gender": "Male",
        "PhoneNumber": "Not Available",
        "FullData": {"Citizenship": "Ethiopian"},
    },
    ("KE", "PASSPORT", KE_PASSPORT): {
        "FullName": "AMINA WANJIKU ODHIAMBO",
        "DOB": "1992-07-01",
        "Gender": "Female",
        "PhoneNumber": "+254712345678",
        "ExpirationDate": "2031-06-30",
        "FullData": {},
    },
    ("KE", "KRA_PIN", KE_KRA_PIN): {
        "FullName": "PETER OTIENO",
        "DOB": "1984-02-29",
        "Gender": "Male",
        "PhoneNumber": "Not Available",
    },
    ("UG", "NATIONAL_ID_NO_PHOTO", UG_NIN): {
        "FullName": "AMINA NAMULI NAKATO",
        "DOB": "1990-01-01",
        "Gender": "Female",
        "PhoneNumber": "Not Available",
    },
    ("UG", "NATIONAL_ID_NO_PHOTO", UG_NIN_SANCTIONED): {
        "FullName": "JAMIL MUKULU",
        "DOB": "1964-01-01",
        "Gender": "Male",
        "PhoneNumber": "Not Available",
    },
    ("TZ", "NATIONAL_ID", TZ_NIDA): {
        "FullName": "NEEMA JOHN MASSAWE",
        "DOB": "1985-05-15",
        "Gender": "Female",
        "PhoneNumber": "Not Available",
    },
}

REQUIRED = ("partner_id", "timestamp", "signature", "country", "id_type", "id_number")


def signature(api_key: str, partner_id: str, timestamp: str) -> str:
    digest = hmac.new(
        api_key.encode(), (timestamp + partner_id + "sid_request").encode(), hashlib.sha256
    )
    return base64.b64encode(digest.digest()).decode()


# --- State and app -----------------------------------------------------------------------------


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    json: Any


@dataclass
class FakeSmileIdState:
    partner_id: str = FAKE_PARTNER_ID
    api_key: str = FAKE_API_KEY
    mode: FaultMode = FaultMode.NORMAL
    slow_seconds: float = 2.0
    requests: list[RecordedRequest] = field(default_factory=list)
    job_ids: set[str] = field(default_factory=set)
    jobs: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def next_job(self) -> str:
        with self._lock:
            self.jobs += 1
            return f"{self.jobs:010d}"


def _error(code: str, text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"code": code, "error": text}, status_code=status)


def _signed_answer(state: FakeSmileIdState, body: dict[str, Any], answer: dict[str, Any]) -> Any:
    timestamp = datetime.now(UTC).isoformat(timespec="milliseconds")
    key = "forged-key" if state.mode is FaultMode.FORGED else state.api_key
    return {
        "JSONVersion": "1.0.0",
        "SmileJobID": state.next_job(),
        "PartnerParams": body["partner_params"],
        "ResultType": "ID Verification",
        "Country": body["country"],
        "IDType": body["id_type"],
        "IDNumber": body["id_number"],
        "Source": "ID API",
        **answer,
        "timestamp": timestamp,
        "signature": signature(key, state.partner_id, timestamp),
    }


def _result(state: FakeSmileIdState, body: dict[str, Any]) -> dict[str, Any]:
    country, id_type, number = body["country"], body["id_type"], body["id_number"]
    answer: dict[str, Any]
    if id_type not in ACTIVATED.get(country, frozenset()):
        answer = {"ResultCode": "1016", "ResultText": "Error - Need to Activate Product"}
    elif state.mode is FaultMode.AUTHORITY_DOWN or number in AUTHORITY_DOWN:
        answer = {"ResultCode": "1015", "ResultText": "Error - Queried Database Unavailable"}
    elif number in BAD_FORMAT:
        answer = {"ResultCode": "1014", "ResultText": "Error - Unsupported ID number format"}
    elif (record := RECORDS.get((country, id_type, number))) is not None:
        answer = {
            "ResultCode": "1012",
            "ResultText": "ID Number Validated",
            "IsFinalResult": "true",
            "Actions": {"Verify_ID_Number": "Verified", "Return_Personal_Info": "Returned"},
            **record,
        }
    else:
        answer = {
            "ResultCode": "1013",
            "ResultText": f"Unable to Validate ID {number}",  # echoes the number: must be scrubbed
            "IsFinalResult": "true",
            "Actions": {"Verify_ID_Number": "Not Verified", "Return_Personal_Info": "Not Returned"},
        }
    return _signed_answer(state, body, answer)


def _check(state: FakeSmileIdState, body: Any) -> Response | None:
    """Smile ID's request validation: an error answer, or None when the request is good."""
    if not isinstance(body, dict):
        return _error("2203", "Error - Invalid JSON")
    params = body.get("partner_params")
    if any(not body.get(k) for k in REQUIRED) or not isinstance(params, dict):
        return _error("2213", "Error - A required parameter is missing")
    if not params.get("job_id") or not params.get("user_id"):
        return _error("2213", "Error - A required parameter is missing")
    try:
        datetime.fromisoformat(str(body["timestamp"]))
        stamp_ok = True
    except ValueError:
        stamp_ok = False
    expected = signature(state.api_key, state.partner_id, str(body["timestamp"]))
    if (
        state.mode is FaultMode.UNAUTHORIZED
        or not stamp_ok
        or str(body["partner_id"]) != state.partner_id
        or not hmac.compare_digest(expected, str(body["signature"]))
    ):
        return _error("2205", 'Error - "You are not authorized to do that"')
    if params.get("job_type") != 5:
        return _error("2212", "Error - Invalid job type")
    with state._lock:
        if params["job_id"] in state.job_ids:
            return _error("2215", "Error - Job already exists for job_id")
        state.job_ids.add(params["job_id"])
    return None


def create_app(state: FakeSmileIdState) -> FastAPI:
    app = FastAPI(title="fake smile id")

    @app.post("/v1/id_verification")
    async def id_verification(request: Request) -> Response:
        raw = await request.body()
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        headers = {k.lower(): v for k, v in request.headers.items()}
        state.record(RecordedRequest(path=request.url.path, headers=headers, json=parsed))
        mode = state.mode
        if mode is FaultMode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if mode is FaultMode.HTTP_500:
            return PlainTextResponse("<html><h1>500 Internal Server Error</h1></html>", 500)
        if mode is FaultMode.HTTP_503:
            return PlainTextResponse("<html>503 Service Temporarily Unavailable</html>", 503)
        if mode is FaultMode.RATE_LIMITED:
            return JSONResponse({"message": "Too Many Requests"}, status_code=429)
        if mode is FaultMode.SYSTEM_ERROR:
            return _error("2201", "System Error", status=500)
        refused = _check(state, parsed)
        if refused is not None:
            return refused
        if mode is FaultMode.GARBAGE:
            return PlainTextResponse("<!doctype html><title>oops</title>not json {", 200)
        if mode is FaultMode.UNEXPECTED_JSON:
            return JSONResponse({"success": True, "smile_job_id": "0000000001"})
        return JSONResponse(_result(state, parsed))

    return app


# --- Running it ----------------------------------------------------------------------------------


@dataclass
class FakeSmileId:
    """Handle on a running fake: where it listens, which credentials it accepts, what it saw."""

    base_url: str  # ends in /v1, as the documented base URLs do
    state: FakeSmileIdState

    @property
    def partner_id(self) -> str:
        return self.state.partner_id

    @property
    def api_key(self) -> str:
        return self.state.api_key

    @property
    def requests(self) -> list[RecordedRequest]:
        return list(self.state.requests)

    @property
    def last_request(self) -> RecordedRequest:
        return self.state.requests[-1]

    def set_mode(self, mode: FaultMode | str, *, slow_seconds: float | None = None) -> None:
        self.state.mode = FaultMode(mode)
        if slow_seconds is not None:
            self.state.slow_seconds = slow_seconds

    def reset(self) -> None:
        """Back to normal answers; forget recorded requests (job ids stay used, as at Smile ID)."""
        self.state.mode = FaultMode.NORMAL
        self.state.slow_seconds = 2.0
        self.state.requests.clear()


@contextmanager
def run_fake_smile_id() -> Iterator[FakeSmileId]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread; yield its handle."""
    state = FakeSmileIdState()
    with serve_in_thread(create_app(state), "fake-smile-id") as base_url:
        yield FakeSmileId(base_url=f"{base_url}/v1", state=state)
