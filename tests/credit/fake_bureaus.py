"""Fake credit bureaus speaking their documented APIs over real HTTP, for tests.

    with run_fake_bureau(metropol_app) as fake:     # uvicorn on 127.0.0.1, own thread
        fake.state.mode = Mode.HTTP_503             # a fault on ... fake.reset() to clear

Metropol (``/report/credit_info``) checks the public key and the SHA-256 request hash
(private key + body + public key + timestamp) and answers the report its sample shows.
FirstCentral (``/login``, ``/ConnectConsumerMatch``, ``/GetConsumerFullCreditReport``) issues
data tickets for its user and refuses calls without one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

METROPOL_PUBLIC = "fake-metropol-public"
METROPOL_PRIVATE = "fake-metropol-private"
FC_USER = "fake-fc-user"
FC_PASSWORD = "fake-fc-password"

# Metropol: numbers and what the fake holds for them.
KE_CLEAN = "88000088"  # three accounts, all performing (the sample's)
KE_NPA = "88000099"  # one account 120 days in arrears
KE_UNKNOWN = "11111111"  # has_error, "No record found"
KE_THIN = "22222222"  # known, no account
# FirstCentral.
NG_CLEAN = "22212345678"
NG_LOST = "22298765432"  # one account not performing, a judgement
NG_UNKNOWN = "22200000000"


class Mode(StrEnum):
    NORMAL = "normal"
    HTTP_503 = "http_503"
    HTTP_500 = "http_500"
    GARBAGE = "garbage"
    UNEXPECTED_JSON = "unexpected_json"
    SLOW = "slow"


@dataclass
class State:
    mode: Mode = Mode.NORMAL
    requests: list[dict[str, Any]] = field(default_factory=list)
    tickets: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.mode = Mode.NORMAL
            self.requests.clear()
            self.tickets.clear()


def _fault(state: State) -> Response | None:
    if state.mode == Mode.HTTP_503:
        return PlainTextResponse("Service Unavailable", status_code=503)
    if state.mode == Mode.HTTP_500:
        return PlainTextResponse("<html>error</html>", status_code=500)
    if state.mode == Mode.GARBAGE:
        return PlainTextResponse("<html>not json</html>", status_code=200)
    if state.mode == Mode.UNEXPECTED_JSON:
        return JSONResponse({"hello": "world"})
    return None


def _metropol_account(balance: str, days: int, overdue: str, opened: str) -> dict[str, Any]:
    return {
        "account_number": "DM_" + uuid.uuid4().hex[:12],
        "current_balance": balance,
        "date_opened": opened,
        "days_in_arrears": days,
        "delinquency_code": "005" if days >= 90 else "003",
        "is_your_account": False,
        "last_payment_amount": "5903.77000",
        "last_payment_date": "2026-08-15",
        "loaded_at": "2026-08-31 23:59:59",
        "original_amount": "60000.00000",
        "overdue_balance": overdue,
        "overdue_date": "None",
        "product_type_id": 7,
    }


def _periods(n: int) -> dict[str, int]:
    return {"last_12_months": n, "last_3_months": 0, "last_6_months": n}


def metropol_app(state: State) -> FastAPI:
    app = FastAPI()

    @app.post("/report/credit_info")
    async def credit_info(request: Request) -> Response:
        raw = (await request.body()).decode()
        key = request.headers.get("x-metropol-rest-api-key")
        stamp = request.headers.get("x-metropol-rest-api-timestamp", "")
        given = request.headers.get("x-metropol-rest-api-hash")
        with state.lock:
            state.requests.append(
                {"path": "/report/credit_info", "body": raw, "headers": dict(request.headers)}
            )
        expected = hashlib.sha256(
            f"{METROPOL_PRIVATE}{raw}{METROPOL_PUBLIC}{stamp}".encode()
        ).hexdigest()
        if key != METROPOL_PUBLIC or given != expected or len(stamp) != 20:
            return JSONResponse(
                {"has_error": True, "api_code": "401", "api_code_description": "Unauthorized"},
                status_code=401,
            )
        fault = _fault(state)
        if state.mode == Mode.SLOW:
            await asyncio.sleep(2.0)
        elif fault is not None:
            return fault
        body = json.loads(raw)
        number = body["identity_number"]
        if number == KE_UNKNOWN:
            return JSONResponse(
                {"has_error": True, "api_code": "PDN008", "api_code_description": "No record found"}
            )
        accounts: list[dict[str, Any]] = []
        sectors = {
            "sector_bank": {
                "account_npa": 0,
                "account_performing": 0,
                "account_performing_npa_history": 0,
            }
        }
        if number == KE_CLEAN:
            accounts = [
                _metropol_account("0.00000", 0, "0.00000", "2008-01-14"),
                _metropol_account("6600.00000", 0, "0.00000", "2014-04-29"),
                _metropol_account("606596.00000", 0, "0.00000", "2014-04-22"),
            ]
            sectors = {
                "sector_bank": {
                    "account_npa": 0,
                    "account_performing": 1,
                    "account_performing_npa_history": 0,
                },
                "sector_other": {
                    "account_npa": 0,
                    "account_performing": 2,
                    "account_performing_npa_history": 0,
                },
            }
        elif number == KE_NPA:
            accounts = [_metropol_account("45000.50000", 120, "12000.25000", "2024-01-02")]
            sectors = {
                "sector_mfi": {
                    "account_npa": 1,
                    "account_performing": 0,
                    "account_performing_npa_history": 1,
                }
            }
        return JSONResponse(
            {
                "account_info": accounts,
                "api_code": None,
                "api_code_description": None,
                "credit_score": 501 if accounts else 0,
                "delinquency_code": "005",
                "has_error": False,
                "has_fraud": number == KE_NPA,
                "identity_number": number,
                "identity_type": body["identity_type"],
                "is_guarantor": False,
                "lender_sector": sectors,
                "no_of_bounced_cheques": _periods(1 if number == KE_NPA else 0),
                "no_of_credit_applications": _periods(0),
                "no_of_enquiries": _periods(2),
                "trx_id": str(uuid.uuid4()),
            }
        )

    return app


def firstcentral_app(state: State) -> FastAPI:
    app = FastAPI()

    def record(path: str, body: Any) -> None:
        with state.lock:
            state.requests.append({"path": path, "body": body})

    def ticket_ok(body: Any) -> bool:
        return isinstance(body, dict) and body.get("DataTicket") in state.tickets

    @app.post("/login")
    async def login(request: Request) -> Response:
        body = await request.json()
        record("/login", {"username": body.get("username")})
        fault = _fault(state)
        if fault is not None:
            return fault
        if body.get("username") != FC_USER or body.get("password") != FC_PASSWORD:
            return JSONResponse([{"DataTicket": None, "Message": "Invalid login"}])
        ticket = uuid.uuid4().hex
        with state.lock:
            state.tickets.add(ticket)
        return JSONResponse([{"DataTicket": ticket}])

    @app.post("/ConnectConsumerMatch")
    async def match(request: Request) -> Response:
        body = await request.json()
        record("/ConnectConsumerMatch", body)
        if not ticket_ok(body):
            return JSONResponse({"message": "invalid ticket"}, status_code=401)
        number = body.get("Identification")
        if number not in (NG_CLEAN, NG_LOST):
            return JSONResponse(
                [{"MatchedConsumer": [{"MatchingEngineID": 0, "EnquiryID": 0, "ConsumerID": 0}]}]
            )
        consumer_id = 4902753 if number == NG_CLEAN else 4902754
        return JSONResponse(
            [
                {
                    "MatchedConsumer": [
                        {
                            "MatchingEngineID": 131510624,
                            "EnquiryID": 78820369,
                            "ConsumerID": consumer_id,
                            "FirstName": "ADA",
                            "Surname": "OBI",
                        }
                    ]
                }
            ]
        )

    @app.post("/GetConsumerFullCreditReport")
    async def report(request: Request) -> Response:
        body = await request.json()
        record("/GetConsumerFullCreditReport", body)
        if not ticket_ok(body):
            return JSONResponse({"message": "invalid ticket"}, status_code=401)
        lost = str(body.get("consumerID")) == "4902754"
        today = date.today()
        agreements = [
            {
                "DateAccountOpened": "10/02/2025",
                "SubscriberName": "First Example Bank Plc",
                "AccountNo": "0011223344",
                "IndicatorDescription": "Personal Loan",
                "OpeningBalanceAmt": "1,500,000.00",
                "CurrentBalanceAmt": "620,000.50",
                "InstalmentAmount": "90,000.00",
                "AmountOverdue": "0.00",
                "AccountStatus": "Open",
                "PerformanceStatus": "Performing",
                "LastPaymentDate": "28/10/2026",
            }
        ]
        if lost:
            agreements.append(
                {
                    "DateAccountOpened": "01/08/2024",
                    "SubscriberName": "Example Microfinance Bank",
                    "AccountNo": "99887766",
                    "IndicatorDescription": "Business Loan",
                    "OpeningBalanceAmt": "400,000.00",
                    "CurrentBalanceAmt": "310,000.00",
                    "InstalmentAmount": "40,000.00",
                    "AmountOverdue": "120,000.00",
                    "AccountStatus": "Open",
                    "PerformanceStatus": "Lost",
                    "LastPaymentDate": "30/05/2026",
                }
            )
        return JSONResponse(
            [
                {"SubjectList": [{"ConsumerID": body.get("consumerID"), "Reference": "C78820369"}]},
                {
                    "Scoring": [
                        {
                            "TotalConsumerScore": "705" if not lost else "512",
                            "Description": "LOW RISK",
                        }
                    ]
                },
                {
                    "CreditAccountSummary": [
                        {
                            "TotalNumberofJudgement": "1" if lost else "0",
                            "TotalNumberofDishonoured": "2" if lost else "0",
                            "TotalAccountarrear": "1" if lost else "0",
                            "Amountarrear": "120,000.00" if lost else "0.00",
                        }
                    ]
                },
                {"CreditAgreementSummary": agreements},
                {
                    "EnquiryHistoryTop": [
                        {
                            "DateRequested": (today - timedelta(days=20)).strftime("%d/%m/%Y"),
                            "SubscriberName": "X",
                        },
                        {
                            "DateRequested": (today - timedelta(days=200)).strftime("%d/%m/%Y"),
                            "SubscriberName": "Y",
                        },
                    ]
                },
            ]
        )

    return app


@dataclass
class FakeBureau:
    base_url: str
    state: State

    def reset(self) -> None:
        self.state.reset()


@contextmanager
def run_fake_bureau(make: Callable[[State], FastAPI]) -> Iterator[FakeBureau]:
    """Serve a fake bureau on 127.0.0.1 (a free port) in a background thread."""
    state = State()
    with serve_in_thread(make(state), "fake-bureau") as base_url:
        yield FakeBureau(base_url=base_url, state=state)
