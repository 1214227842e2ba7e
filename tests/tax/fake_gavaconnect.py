"""A fake KRA GavaConnect that speaks the documented API over real HTTP, for tests.

    with run_fake_gavaconnect() as fake:       # uvicorn on 127.0.0.1, free port, own thread
        provider = GavaConnectProvider(fake.base_url, 1.0, credentials=fake.credentials, ...)
        fake.set_mode(FaultMode.HTTP_503)      # a fault on ...
        fake.expire_tokens()                   # every token issued so far is refused (401)
        fake.reset()                           # ... and back to normal, forgetting requests

It issues tokens at ``GET /v1/token/generate?grant_type=client_credentials`` for the consumer
key and secret it knows (HTTP Basic), answers the PIN checker by PIN and by ID, the TCC checker
and a withholding certificate checker at ``WITHHOLDING_PATH`` with the bodies developer.go.ke
shows, and refuses a checker call without a token it issued (401).
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

CONSUMER_KEY = "fake-gava-consumer-key"
CONSUMER_SECRET = "fake-gava-consumer-secret"
WITHHOLDING_PATH = "/checker/v1/whtcertificate"


class FaultMode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"  # checkers answer normally after `slow_seconds`
    HTTP_500 = "http_500"  # an HTML 500 page
    HTTP_503 = "http_503"  # a gateway 503
    GARBAGE = "garbage"  # HTTP 200 with a body that is not JSON
    UNEXPECTED_JSON = "unexpected_json"  # HTTP 200 with JSON that is no GavaConnect answer
    OK_WITHOUT_DATA = "ok_without_data"  # Status OK but no PINDATA
    UNKNOWN_ERROR = "unknown_error"  # HTTP 200 with an ErrorCode that says nothing about records
    RATE_LIMITED = "rate_limited"  # 429
    FORBIDDEN = "forbidden"  # 403: the app is not subscribed to this API
    TOKEN_DOWN = "token_down"  # the token endpoint answers 503
    TOKEN_GARBAGE = "token_garbage"  # the token endpoint answers 200 without access_token


# --- Records: the portal's sample data (developer.go.ke "Sample Data") and made-up ones -------

PIN_ACTIVE = "P318295670X"  # Non Individual, Active (the portal's sample)
PIN_INDIVIDUAL = "A744610021G"  # Individual, Active; registered to ID_FOUND
PIN_SUSPENDED = "A521040203F"
PIN_UNKNOWN = "A000000001Z"  # answers 19005 Invalid PIN
ID_FOUND = "41789723"
ID_UNKNOWN = "11111111"
TCC_VALID = "K92OR548W43A21N9"  # issued to PIN_INDIVIDUAL, in force
TCC_EXPIRED = "KRAEON1294973222"  # issued to PIN_ACTIVE, expired
TCC_OTHER_PIN = "KRAEON5550001111"  # issued to PIN_ACTIVE whatever PIN is asked
WHT_FOUND = "KRAWHT1234567890"  # withholder PIN_ACTIVE, payee PIN_INDIVIDUAL

_PINS = {
    PIN_ACTIVE: ("Non Individual", "T. AN 052318TEST NA NA", "Active"),
    PIN_INDIVIDUAL: ("Individual", "BANYI02 TEST ENNIS02", "Active"),
    PIN_SUSPENDED: ("Individual", "TEST SUSPENDED TAXPAYER", "Suspended"),
}


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    json: Any


@dataclass
class FakeState:
    mode: FaultMode = FaultMode.NORMAL
    slow_seconds: float = 2.0
    token_seconds: int = 3599
    expired_style: str = "401"  # or "500": how a refused token is answered
    tokens: set[str] = field(default_factory=set)
    token_requests: int = 0
    requests: list[Recorded] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def _request_id() -> str:
    return str(uuid.uuid4())


def _pin_by_pin(body: dict[str, Any]) -> dict[str, Any]:
    pin = str(body.get("KRAPIN") or "")
    record = _PINS.get(pin)
    if record is None:
        return {"ResponseCode": "19005", "Status": "NOK", "Message": "Invalid PIN"}
    kind, name, status = record
    return {
        "ResponseCode": "23000",
        "Message": "Valid PIN",
        "Status": "OK",
        "PINDATA": {"KRAPIN": pin, "TypeOfTaxpayer": kind, "Name": name, "StatusOfPIN": status},
    }


def _pin_by_id(body: dict[str, Any]) -> dict[str, Any]:
    if body.get("TaxpayerType") != "KE" or body.get("TaxpayerID") != ID_FOUND:
        return {"RequestId": _request_id(), "ErrorCode": "30002", "ErrorMessage": "ID not found"}
    return {
        "ResponseCode": "30000",
        "TaxpayerPIN": PIN_INDIVIDUAL,
        "TaxpayerName": "BANYI02 TEST ENNIS02",
    }


def _tcc(body: dict[str, Any]) -> dict[str, Any]:
    pin, number = str(body.get("kraPIN") or ""), str(body.get("tccNumber") or "")
    today = date.today()
    certificates = {
        (PIN_INDIVIDUAL, TCC_VALID): (
            "Active",
            today - timedelta(days=30),
            today + timedelta(days=335),
        ),
        (PIN_ACTIVE, TCC_EXPIRED): (
            "Active",
            today - timedelta(days=400),
            today - timedelta(days=35),
        ),
    }
    if number == TCC_OTHER_PIN:
        pin, found = PIN_ACTIVE, ("Active", today, today + timedelta(days=365))
    else:
        found = certificates.get((pin, number))  # type: ignore[assignment]
    if found is None:
        return {"ResponseCode": "80001", "Status": "NOK", "Message": "Invalid TCC Number"}
    status, issued, expires = found
    return {
        "ResponseCode": "80000",
        "Message": "TCC is valid" if expires >= today else "TCC has expired",
        "Status": "OK",
        "TCCData": {
            "KRAPIN": pin,
            "TCCNumber": number,
            "TCCStatus": status,
            "TCCIssueDate": issued.strftime("%d/%m/%Y"),
            "TCCExpiryDate": expires.strftime("%d/%m/%Y"),
        },
    }


def _withholding(body: dict[str, Any]) -> dict[str, Any]:
    if body.get("certificateNumber") != WHT_FOUND or body.get("kraPIN") != PIN_ACTIVE:
        return {"RequestId": _request_id(), "ErrorCode": "90002", "ErrorMessage": "No record found"}
    return {
        "ResponseCode": "90000",
        "Status": "OK",
        "Message": "Certificate found",
        "WHTDATA": {
            "CertificateNumber": WHT_FOUND,
            "WithholderPIN": PIN_ACTIVE,
            "WithholderName": "T. AN 052318TEST NA NA",
            "WithholdeePIN": PIN_INDIVIDUAL,
            "WithholdeeName": "BANYI02 TEST ENNIS02",
            "TaxType": "Income Tax - Withholding",
            "GrossAmount": "150,000.00",
            "TaxAmount": "7,500.00",
            "PaymentDate": "15/01/2026",
        },
    }


_CHECKERS = {
    "/checker/v1/pinbypin": _pin_by_pin,
    "/checker/v1/pin": _pin_by_id,
    "/v1/kra-tcc/validate": _tcc,
    WITHHOLDING_PATH: _withholding,
}


def create_app(state: FakeState) -> FastAPI:
    app = FastAPI(title="fake gavaconnect")

    @app.get("/v1/token/generate")
    async def token(request: Request) -> Response:
        with state.lock:
            state.token_requests += 1
        if state.mode is FaultMode.TOKEN_DOWN:
            return PlainTextResponse("<html>503 Service Unavailable</html>", status_code=503)
        expected = base64.b64encode(f"{CONSUMER_KEY}:{CONSUMER_SECRET}".encode()).decode()
        grant = request.query_params.get("grant_type")
        if (
            request.headers.get("authorization") != f"Basic {expected}"
            or grant != "client_credentials"
        ):
            return JSONResponse(
                {
                    "requestId": _request_id(),
                    "errorCode": "401",
                    "errorMessage": "Client credentials are invalid",
                },
                status_code=401,
            )
        if state.mode is FaultMode.TOKEN_GARBAGE:
            return JSONResponse({"expires_in": "3599"})
        value = uuid.uuid4().hex
        with state.lock:
            state.tokens.add(value)
        return JSONResponse({"access_token": value, "expires_in": str(state.token_seconds)})

    async def checker(request: Request) -> Response:
        raw = await request.body()
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        with state.lock:
            state.requests.append(
                Recorded(request.method, request.url.path, dict(request.headers), parsed)
            )
        mode = state.mode
        if mode is FaultMode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        bearer = request.headers.get("authorization", "").removeprefix("Bearer ")
        if bearer not in state.tokens:
            if state.expired_style == "500":
                return JSONResponse(
                    {"fault": {"faultstring": "Access Token expired"}}, status_code=500
                )
            return JSONResponse({"fault": {"faultstring": "Invalid Access Token"}}, status_code=401)
        if mode is FaultMode.HTTP_500:
            return PlainTextResponse(
                "<html><h1>500 Internal Server Error</h1></html>", status_code=500
            )
        if mode is FaultMode.HTTP_503:
            return PlainTextResponse(
                "<html>503 Service Temporarily Unavailable</html>", status_code=503
            )
        if mode is FaultMode.RATE_LIMITED:
            return JSONResponse(
                {"fault": {"faultstring": "Spike arrest violation"}}, status_code=429
            )
        if mode is FaultMode.FORBIDDEN:
            return JSONResponse(
                {"fault": {"faultstring": "Invalid API call as no apiproduct match found"}},
                status_code=403,
            )
        if mode is FaultMode.GARBAGE:
            return PlainTextResponse("<!doctype html><title>oops</title>not json {", 200)
        if mode is FaultMode.UNEXPECTED_JSON:
            return JSONResponse(["not", "a", "gavaconnect", "answer"])
        if mode is FaultMode.OK_WITHOUT_DATA:
            return JSONResponse({"ResponseCode": "23000", "Status": "OK", "Message": "Valid PIN"})
        if mode is FaultMode.UNKNOWN_ERROR:
            return JSONResponse(
                {
                    "RequestId": _request_id(),
                    "ErrorCode": "70001",
                    "ErrorMessage": "Data Validation Error",
                }
            )
        if not isinstance(parsed, dict):
            return JSONResponse(
                {"ErrorCode": "70001", "ErrorMessage": "Data Validation Error"}, status_code=400
            )
        return JSONResponse(_CHECKERS[request.url.path](parsed))

    for path in _CHECKERS:
        app.add_api_route(path, checker, methods=["POST"])
    return app


@dataclass
class FakeGavaConnect:
    base_url: str
    state: FakeState

    @property
    def requests(self) -> list[Recorded]:
        return list(self.state.requests)

    @property
    def token_requests(self) -> int:
        return self.state.token_requests

    def set_mode(self, mode: FaultMode, *, slow_seconds: float | None = None) -> None:
        self.state.mode = mode
        if slow_seconds is not None:
            self.state.slow_seconds = slow_seconds

    def expire_tokens(self, *, style: str = "401") -> None:
        """Refuse every token issued so far, answering as ``style`` (401, or 500 saying the
        access token expired)."""
        with self.state.lock:
            self.state.tokens.clear()
        self.state.expired_style = style

    def reset(self) -> None:
        with self.state.lock:
            self.state.mode = FaultMode.NORMAL
            self.state.slow_seconds = 2.0
            self.state.token_seconds = 3599
            self.state.expired_style = "401"
            self.state.requests.clear()
            self.state.token_requests = 0


@contextmanager
def run_fake_gavaconnect() -> Iterator[FakeGavaConnect]:
    """Serve the fake on 127.0.0.1 (a free port) in a background thread; yield its handle."""
    state = FakeState()
    with serve_in_thread(create_app(state), "fake-gavaconnect") as base_url:
        yield FakeGavaConnect(base_url=base_url, state=state)
