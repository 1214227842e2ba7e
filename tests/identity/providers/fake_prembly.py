"""A fake Prembly (IdentityPass) that speaks the documented API over real HTTP, for tests.

    from tests.identity.providers.fake_prembly import run_fake_prembly, FaultMode

    with run_fake_prembly() as fake:            # uvicorn on 127.0.0.1, free port, own thread
        provider = PremblyProvider(fake.app_id, fake.api_key, fake.base_url, timeout=1.0)
        ...
        fake.set_mode(FaultMode.HTTP_503)       # switch a fault on ...
        fake.reset()                            # ... and back to normal, clearing the request log
        fake.last_request.path / .headers / .json

It checks ``x-api-key`` and ``app-id`` (401 otherwise), serves the numbers in `KNOWN_NUMBERS`
and answers response_code "01" (record not found) for anything else. Endpoints are served under
both ``/verification/...`` and the older ``/identitypass/verification/...``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

FAKE_APP_ID = "fake-app-id-0001"
FAKE_API_KEY = "fake_sk_live_0123456789"


class FaultMode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"  # answers normally, but only after `slow_seconds`
    HTTP_500 = "http_500"  # HTML 500 page
    HTTP_503 = "http_503"  # gateway 503
    GARBAGE = "garbage"  # HTTP 200 with a non-JSON body
    UNEXPECTED_JSON = "unexpected_json"  # HTTP 200 with JSON that is not a Prembly answer
    UNAUTHORIZED = "unauthorized"  # 401 whatever the credentials
    RATE_LIMITED = "rate_limited"  # 429
    INSUFFICIENT_BALANCE = "insufficient_balance"  # 403 with response_code "03"
    SERVICE_DOWN = "service_down"  # HTTP 200 with response_code "02"


# --- Known records ---------------------------------------------------------------------------
# Made-up people and companies, shaped like docs.prembly.com's sample responses.

BVN_FOUND = "22212345678"
BVN_FOUND_ISO_DOB = "22298765432"
BVN_BLOCKED = "22200000007"
NIN_FOUND = "70123456789"
VNIN_FOUND = "AB123456789012CD"
CAC_FOUND = "RC1234567"  # rc_number "1234567", company_type "RC"
CAC_BN_FOUND = "BN7654321"  # rc_number "7654321", company_type "BN"
PASSPORT_FOUND = "A12345678"
PASSPORT_LAST_NAME = "Bello"
DL_FOUND = "ABC12345YZ00"
DL_NAMES = ("John", "Doe")
NOT_FOUND_BVN = "22299999999"
BVN_SANCTIONED = "22233300001"  # a real UN/OFAC-listed person, for live screening tests

_BVN_RECORDS: dict[str, dict[str, Any]] = {
    BVN_FOUND: {
        "bvn": BVN_FOUND,
        "firstName": "CHIAMAKA",
        "middleName": "NGOZI",
        "lastName": "OKAFOR-NWOSU",
        "dateOfBirth": "15-May-1985",
        "phoneNumber1": "08031234567",
        "phoneNumber2": "",
        "registrationDate": "25-Jun-2014",
        "enrollmentBank": "058",
        "enrollmentBranch": "IKEJA",
        "email": "",
        "gender": "Female",
        "levelOfAccount": "Level 3 - High Level Accounts",
        "lgaOfOrigin": "Onitsha North",
        "lgaOfResidence": "Ikeja",
        "maritalStatus": "Married",
        "nin": "",
        "nameOnCard": "",
        "nationality": "Nigeria",
        "residentialAddress": "12 Allen Avenue, Ikeja",
        "stateOfOrigin": "Anambra State",
        "stateOfResidence": "Lagos State",
        "title": "Mrs",
        "watchListed": "NO",
        "base64Image": "",
    },
    BVN_FOUND_ISO_DOB: {
        "bvn": BVN_FOUND_ISO_DOB,
        "firstName": "MUSA",
        "middleName": "",
        "lastName": "ABUBAKAR",
        "dateOfBirth": "1990-01-31",
        "phoneNumber": "07061234567",
        "gender": "Male",
    },
    BVN_SANCTIONED: {
        "bvn": BVN_SANCTIONED,
        "firstName": "ABUBAKAR",
        "middleName": "MOHAMMED",
        "lastName": "SHEKAU",
        "dateOfBirth": "01-Jan-1969",
        "phoneNumber1": "08030000001",
        "gender": "Male",
        "nationality": "Nigeria",
    },
}

_NIN_RECORD: dict[str, Any] = {
    "birthcountry": "nigeria",
    "birthdate": "15-05-1985",
    "birthlga": "Enugu North",
    "birthstate": "Enugu",
    "educationallevel": "tertiary",
    "email": "",
    "employmentstatus": "employed",
    "firstname": "EMEKA",
    "gender": "m",
    "maritalstatus": "single",
    "middlename": "CHUKWUDI",
    "nin": NIN_FOUND,
    "nspokenlang": "IGBO",
    "photo": "",
    "profession": "ENGINEER",
    "religion": "christianity",
    "residence_AdressLine1": "4 Ogui Road",
    "residence_Town": "Enugu",
    "residence_lga": "Enugu North",
    "residence_state": "Enugu",
    "residencestatus": "birth",
    "self_origin_lga": "Nsukka",
    "self_origin_place": "",
    "self_origin_state": "Enugu",
    "signature": "",
    "surname": "OKONKWO",
    "telephoneno": "08051234567",
    "title": "mr",
    "trackingId": "S7Y0OOOO000000",
}

_CAC_RECORDS: dict[tuple[str, str], dict[str, Any]] = {
    ("RC", "1234567"): {
        "rc_number": "1234567",
        "company_name": "HAKIKI TEST VENTURES LIMITED",
        "state": "LAGOS",
        "company_address": "5 Adeola Odeku Street, Victoria Island",
        "company_status": "ACTIVE",
        "city": "Lagos",
        "branchAddress": "5 Adeola Odeku Street, Victoria Island",
        "lga": "Eti-Osa",
        "registrationDate": "2015-03-12T00:00:00Z",
        "directors": {},
        "searchScore": "0",
        "email_address": "info@example.com",
        "company_type": "RC",
    },
    ("BN", "7654321"): {
        "rc_number": "7654321",
        "company_name": "MAMA T KITCHEN ENTERPRISES",
        "company_status": "ACTIVE",
        "registrationDate": "2019-11-02T00:00:00Z",
        "company_type": "BN",
    },
}

_PASSPORT_RECORDS: dict[str, dict[str, Any]] = {
    PASSPORT_FOUND: {
        "first_name": "AISHA",
        "last_name": "BELLO",
        "middle_name": "",
        "dob": "1992-11-03",
        "mobile": "08091234567",
        "photo": "",
        "signature": "",
        "gender": "F",
        "issued_at": "ABUJA",
        "issued_date": "2021-02-10",
        "expiry_date": "2031-02-09",
        "reference_id": "NIS-REF-0001",
        "number": PASSPORT_FOUND,
    }
}


# --- State and app -----------------------------------------------------------------------------


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any


@dataclass
class FakePremblyState:
    app_id: str = FAKE_APP_ID
    api_key: str = FAKE_API_KEY
    mode: FaultMode = FaultMode.NORMAL
    slow_seconds: float = 2.0
    requests: list[RecordedRequest] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)


def _reference() -> str:
    return str(uuid.uuid4())


def _found(data: dict[str, Any], *, data_key: str = "data") -> dict[str, Any]:
    return {
        "status": True,
        "detail": "Verification Successful",
        "response_code": "00",
        data_key: data,
        "verification": {"status": "VERIFIED", "reference": _reference()},
        "widget_info": {},
        "session": {},
    }


def _not_found() -> dict[str, Any]:
    return {
        "status": False,
        "response_code": "01",
        "message": "Record not found.\nThe ID data you entered does not exist or may be "
        "incorrect. Please ensure all details are correct and resubmit",
        "verification": {"status": "NOT-VERIFIED", "reference": _reference()},
        "session": {},
    }


def _bvn(body: dict[str, Any]) -> dict[str, Any]:
    number = str(body.get("number") or "")
    if number == BVN_BLOCKED:
        return {
            "status": False,
            "response_code": "07",
            "detail": "BVN is blocked / watch-listed",
            "verification": {"status": "NOT-VERIFIED", "reference": _reference()},
        }
    record = _BVN_RECORDS.get(number)
    return _found(record) if record else _not_found()


def _nin(body: dict[str, Any]) -> dict[str, Any]:
    number = str(body.get("number_nin") or body.get("number") or "")
    if number in (NIN_FOUND, VNIN_FOUND):
        return _found(_NIN_RECORD, data_key="nin_data")
    return _not_found()


def _cac(body: dict[str, Any]) -> dict[str, Any]:
    key = (str(body.get("company_type") or "RC").upper(), str(body.get("rc_number") or ""))
    record = _CAC_RECORDS.get(key)
    return _found(record) if record else _not_found()


def _passport(body: dict[str, Any]) -> dict[str, Any]:
    record = _PASSPORT_RECORDS.get(str(body.get("number") or ""))
    last_name = str(body.get("last_name") or "").strip().lower()
    if record and last_name == record["last_name"].lower():
        return {**_found(record), "detail": "Intl. Passport Verification Successful"}
    return _not_found()


def _drivers_license(body: dict[str, Any]) -> dict[str, Any]:
    names = (str(body.get("first_name") or "").lower(), str(body.get("last_name") or "").lower())
    if body.get("number") == DL_FOUND and names == tuple(n.lower() for n in DL_NAMES):
        record = {
            "driversLicense": DL_FOUND,
            "firstname": "JOHN",
            "lastname": "DOE",
            "middlename": "",
            "birthdate": "01-01-1990",
            "gender": "Male",
            "stateOfIssue": "LAGOS",
            "issuedDate": "2019-05-02",
            "expiryDate": "2029-05-01",
        }
        return {**_found(record, data_key="frsc_data"), "detail": "DL Verification Successful"}
    return _not_found()


_HANDLERS = {
    "bvn": _bvn,
    "vnin": _nin,
    "cac": _cac,
    "national_passport": _passport,
    "drivers_license/advance/v2": _drivers_license,
}


def create_app(state: FakePremblyState) -> FastAPI:
    app = FastAPI(title="fake prembly")

    async def handle(endpoint: str, request: Request) -> Response:
        raw = await request.body()
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        state.record(
            RecordedRequest(
                method=request.method,
                path=request.url.path,
                headers={k.lower(): v for k, v in request.headers.items()},
                body=raw,
                json=parsed,
            )
        )
        mode = state.mode
        if mode is FaultMode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if mode is FaultMode.HTTP_500:
            return PlainTextResponse(
                "<html><body><h1>Server Error (500)</h1></body></html>",
                status_code=500,
                media_type="text/html",
            )
        if mode is FaultMode.HTTP_503:
            return PlainTextResponse(
                "<html><body>503 Service Temporarily Unavailable</body></html>",
                status_code=503,
                media_type="text/html",
            )
        if mode is FaultMode.RATE_LIMITED:
            return JSONResponse(
                {"detail": "Request was throttled. Expected available in 1 second."},
                status_code=429,
            )
        if (
            mode is FaultMode.UNAUTHORIZED
            or request.headers.get("x-api-key") != state.api_key
            or request.headers.get("app-id") != state.app_id
        ):
            return JSONResponse(
                {"status": False, "detail": "Invalid API key or app id"}, status_code=401
            )
        if mode is FaultMode.INSUFFICIENT_BALANCE:
            return JSONResponse(
                {
                    "status": False,
                    "response_code": "03",
                    "detail": "Insufficient wallet balance",
                    "verification": {"reference": ""},
                },
                status_code=403,
            )
        if mode is FaultMode.SERVICE_DOWN:
            return JSONResponse(
                {
                    "status": False,
                    "detail": "Verification failed",
                    "response_code": "02",
                    "message": "Verification can't be completed at this time. Kindly retry later",
                    "verification": {"reference": ""},
                    "session": {},
                }
            )
        if mode is FaultMode.GARBAGE:
            return PlainTextResponse("<!doctype html><title>oops</title>not json {", 200)
        if mode is FaultMode.UNEXPECTED_JSON:
            return JSONResponse(["this", "is", "not", "a", "prembly", "answer"])
        if not isinstance(parsed, dict):
            return JSONResponse(
                {"status": False, "detail": "Invalid request body"}, status_code=400
            )
        return JSONResponse(_HANDLERS[endpoint](parsed))

    for prefix in ("/verification", "/identitypass/verification"):
        for endpoint in _HANDLERS:

            async def route(request: Request, endpoint: str = endpoint) -> Response:
                return await handle(endpoint, request)

            app.add_api_route(f"{prefix}/{endpoint}", route, methods=["POST"])
    return app


# --- Running it ----------------------------------------------------------------------------------


@dataclass
class FakePrembly:
    """Handle on a running fake: where it listens, which credentials it accepts, what it saw."""

    base_url: str
    state: FakePremblyState

    @property
    def app_id(self) -> str:
        return self.state.app_id

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
        """Back to normal answers; forget recorded requests."""
        self.state.mode = FaultMode.NORMAL
        self.state.slow_seconds = 2.0
        self.state.requests.clear()


@contextmanager
def run_fake_prembly(
    *, app_id: str = FAKE_APP_ID, api_key: str = FAKE_API_KEY
) -> Iterator[FakePrembly]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread; yield its handle."""
    state = FakePremblyState(app_id=app_id, api_key=api_key)
    with serve_in_thread(create_app(state), "fake-prembly") as base_url:
        yield FakePrembly(base_url=base_url, state=state)
