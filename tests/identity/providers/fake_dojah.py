"""A fake Dojah that speaks its documented KYC look-up API over real HTTP, for tests.

    from tests.identity.providers.fake_dojah import run_fake_dojah, FaultMode

    with run_fake_dojah() as fake:               # uvicorn on 127.0.0.1, free port, own thread
        provider = DojahProvider(fake.app_id, fake.secret_key, fake.base_url, timeout=1.0)
        fake.set_mode(FaultMode.HTTP_503)        # switch a fault on ... fake.reset() to undo
        fake.last_request.path / .headers / .query

It checks the ``AppId`` and ``Authorization`` headers (401 ``{"error": ...}`` otherwise),
serves ``GET /api/v1/kyc/bvn/full?bvn=``, ``GET /api/v1/kyc/nin?nin=``,
``GET /api/v1/kyc/phone_number?phone_number=``, the FIRS TIN look-up ``GET /api/v1/kyc/tin?tin=``
(Dojah's ``KYB_getTin``: ``Taxpayer_Name``, ``CAC_Reg_No``...) and the CAC look-up ``GET
/api/v1/kyc/cac/advance?rc=&class=advance&type=co|bn|it`` (``Name_of_Company``, ``RC_Number``,
``Classification``..., the people in ``Affiliates``) with the records below under ``entity``,
and answers 404 ``{"error": "... not found"}`` for any other number. The BVN and NIN found here are
the fake Prembly's numbers (another shape, the same made-up people), so a fallback from one to
the other finds the same person.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.identity.providers.fake_prembly import BVN_FOUND, NIN_FOUND
from tests.support.fake_server import serve_in_thread

FAKE_APP_ID = "fake-dojah-app-0001"
FAKE_SECRET_KEY = "test_sk_fakeDojah0123456789"

PHONE_FOUND = "08051234567"
# The fake Prembly TIN and CAC servers' made-up taxpayers and companies, in Dojah's shape.
TIN_COMPANY = "20304753-0001"
TIN_ONLY_AT_DOJAH = "40506070-0001"
CAC_FOUND = "1234567"  # tests/kyb/fake_registries.py NG_FOUND (RC)
CAC_ONLY_AT_DOJAH = "7654321"
BVN_ONLY_AT_DOJAH = "22255500011"  # a record the fake Prembly does not hold
NOT_FOUND_BVN = "22299999999"


class FaultMode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"  # answers normally, but only after `slow_seconds`
    HTTP_503 = "http_503"  # gateway 503, HTML body
    FAILED_DEPENDENCY = "failed_dependency"  # 424: the registry behind Dojah failed
    GARBAGE = "garbage"  # HTTP 200 with a non-JSON body
    UNEXPECTED_JSON = "unexpected_json"  # HTTP 200 JSON without an entity
    UNAUTHORIZED = "unauthorized"  # 401 whatever the credentials
    PAYMENT_REQUIRED = "payment_required"  # 402: balance too low


_BVN_RECORDS: dict[str, dict[str, Any]] = {
    BVN_FOUND: {
        "bvn": BVN_FOUND,
        "first_name": "CHIAMAKA",
        "middle_name": "NGOZI",
        "last_name": "OKAFOR-NWOSU",
        "date_of_birth": "15-May-1985",
        "phone_number1": "08031234567",
        "phone_number2": "",
        "gender": "Female",
        "nationality": "Nigeria",
        "enrollment_bank": "058",
        "level_of_account": "Level 3 - High Level Accounts",
        "watch_listed": "NO",
        "image": "",
        "reference": "dojah-ref-bvn-0001",
    },
    BVN_ONLY_AT_DOJAH: {
        "bvn": BVN_ONLY_AT_DOJAH,
        "first_name": "TUNDE",
        "middle_name": "",
        "last_name": "BAKARE",
        "date_of_birth": "02-January-1991",
        "phone_number1": "08097654321",
        "gender": "Male",
        "nationality": "Nigeria",
        "reference": "dojah-ref-bvn-0002",
    },
}

_NIN_RECORDS: dict[str, dict[str, Any]] = {
    NIN_FOUND: {
        "first_name": "EMEKA",
        "middle_name": "CHUKWUDI",
        "surname": "OKONKWO",
        "birth_date": "1985-05-15",
        "gender": "m",
        "telephone": "08051234567",
        "nationality": "NGA",
        "birth_state": "Enugu",
        "residence_town": "Enugu",
        "picture": "",
        "reference": "dojah-ref-nin-0001",
    }
}

_PHONE_RECORDS: dict[str, dict[str, Any]] = {
    PHONE_FOUND: {
        "first_name": "EMEKA",
        "middle_name": "CHUKWUDI",
        "last_name": "OKONKWO",
        "birth_date": "1985-05-15",
        "gender": "Male",
        "msisdn": "2348051234567",
        "nin": NIN_FOUND,
        "residence_state": "Enugu",
        "picture": "",
    }
}

_TIN_RECORDS: dict[str, dict[str, Any]] = {
    TIN_COMPANY: {
        "Search": TIN_COMPANY,
        "Taxpayer_Name": "OKONKWO AND SONS NIGERIA LIMITED",
        "CAC_Reg_No": "323479",
        "FIRSTIN": TIN_COMPANY,
        "JITTIN": "N/A",
        "Tax_Office": "MSTO YABA",
        "Phone_No": "accounts@example.com",  # swapped, as in Dojah's own example
        "Email": "08000000000",
    },
    TIN_ONLY_AT_DOJAH: {
        "Search": TIN_ONLY_AT_DOJAH,
        "Taxpayer_Name": "IFEOMA ADAEZE EZE",
        "CAC_Reg_No": "N/A",
        "FIRSTIN": TIN_ONLY_AT_DOJAH,
        "JITTIN": "N/A",
        "Tax_Office": "MSTO IKEJA",
    },
}

_CAC_RECORDS: dict[str, dict[str, Any]] = {
    CAC_FOUND: {
        "Branch_Address": "",
        "City": "ZARIA",
        "Classification": "COMPANY",
        "Date_of_Registration": "2015-03-02T10:00:00.000+00:00",
        "Email": "info@example.com",
        "Head_Office_Address": "12 Example Road, Zaria",
        "LGA": "ZARIA",
        "Name_of_Company": "ZARIA AGRO-ALLIED NIGERIA LIMITED",
        "Number_of_Affiliates": "3",
        "RC_Number": CAC_FOUND,
        "Share_capital": "10,000,000",
        "Status": "ACTIVE",
        "Affiliates": [
            {
                "firstname": "HALIMA",
                "otherName": "",
                "surname": "BELLO",
                "affiliateTypeFk": {"name": "DIRECTOR"},
                "nationality": "Nigerian",
            },
            {
                "firstname": "HALIMA",
                "otherName": "",
                "surname": "BELLO",
                "affiliateTypeFk": {"name": "SHAREHOLDER"},
                "numSharesAlloted": "7,000,000",
            },
            {
                "firstname": "EMEKA",
                "otherName": "JOHN",
                "surname": "OKAFOR",
                "affiliateTypeFk": {"name": "SHAREHOLDER"},
                "numSharesAlloted": "3,000,000",
            },
        ],
    },
    CAC_ONLY_AT_DOJAH: {
        "City": "ABUJA",
        "Classification": "COMPANY",
        "Date_of_Registration": "2020-01-15T09:00:00.000+00:00",
        "Name_of_Company": "SAVANNAH LOGISTICS LIMITED",
        "RC_Number": CAC_ONLY_AT_DOJAH,
        "Status": "ACTIVE",
    },
}

_ENDPOINTS: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "/api/v1/kyc/bvn/full": ("bvn", _BVN_RECORDS),
    "/api/v1/kyc/nin": ("nin", _NIN_RECORDS),
    "/api/v1/kyc/phone_number": ("phone_number", _PHONE_RECORDS),
    "/api/v1/kyc/tin": ("tin", _TIN_RECORDS),
    "/api/v1/kyc/cac/advance": ("rc", _CAC_RECORDS),
}


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    query: dict[str, str]


@dataclass
class FakeDojahState:
    app_id: str = FAKE_APP_ID
    secret_key: str = FAKE_SECRET_KEY
    mode: FaultMode = FaultMode.NORMAL
    slow_seconds: float = 2.0
    requests: list[RecordedRequest] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)


def create_app(state: FakeDojahState) -> FastAPI:
    app = FastAPI(title="fake dojah")

    async def handle(path: str, request: Request) -> Response:
        state.record(
            RecordedRequest(
                method=request.method,
                path=request.url.path,
                headers={k.lower(): v for k, v in request.headers.items()},
                query=dict(request.query_params),
            )
        )
        mode = state.mode
        if mode is FaultMode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if mode is FaultMode.HTTP_503:
            return PlainTextResponse(
                "<html><body>503 Service Temporarily Unavailable</body></html>",
                status_code=503,
                media_type="text/html",
            )
        if (
            mode is FaultMode.UNAUTHORIZED
            or request.headers.get("appid") != state.app_id
            or request.headers.get("authorization") != state.secret_key
        ):
            return JSONResponse({"error": "Unauthorized: invalid AppId or key"}, status_code=401)
        if mode is FaultMode.PAYMENT_REQUIRED:
            return JSONResponse({"error": "Insufficient balance"}, status_code=402)
        if mode is FaultMode.FAILED_DEPENDENCY:
            return JSONResponse({"error": "Third party service failure"}, status_code=424)
        if mode is FaultMode.GARBAGE:
            return PlainTextResponse("<!doctype html><title>oops</title>not json {", 200)
        if mode is FaultMode.UNEXPECTED_JSON:
            return JSONResponse({"status": "ok"})
        parameter, records = _ENDPOINTS[path]
        number = request.query_params.get(parameter, "")
        if not number:
            return JSONResponse({"error": f"{parameter} is required"}, status_code=400)
        if parameter == "rc" and (
            request.query_params.get("class") != "advance"
            or request.query_params.get("type") not in ("co", "bn", "it")
        ):
            return JSONResponse({"error": "class and type are required"}, status_code=400)
        record = records.get(number)
        if record is None:
            return JSONResponse({"error": f"{parameter.upper()} not found"}, status_code=404)
        return JSONResponse({"entity": record})

    for path in _ENDPOINTS:

        async def route(request: Request, path: str = path) -> Response:
            return await handle(path, request)

        app.add_api_route(path, route, methods=["GET"])
    return app


@dataclass
class FakeDojah:
    """Handle on a running fake: where it listens, which credentials it accepts, what it saw."""

    base_url: str
    state: FakeDojahState

    @property
    def app_id(self) -> str:
        return self.state.app_id

    @property
    def secret_key(self) -> str:
        return self.state.secret_key

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
        self.state.mode = FaultMode.NORMAL
        self.state.slow_seconds = 2.0
        self.state.requests.clear()


@contextmanager
def run_fake_dojah(
    *, app_id: str = FAKE_APP_ID, secret_key: str = FAKE_SECRET_KEY
) -> Iterator[FakeDojah]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread; yield its handle."""
    state = FakeDojahState(app_id=app_id, secret_key=secret_key)
    with serve_in_thread(create_app(state), "fake-dojah") as base_url:
        yield FakeDojah(base_url=base_url, state=state)
