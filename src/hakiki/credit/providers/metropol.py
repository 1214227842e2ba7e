"""Live adapter for Metropol CRB's REST API (Kenya).

Sources (read through the project's documentation search; assumptions are said so, decisions
are in docs/decisions.md, "Credit"): Metropol's published REST API as the open-source clients
use it (the `metropol` Ruby gem, defaults port 5555 and version v2_1; the ngugijames/metropol
PHP client and its sample answers).

* ``POST {base}/report/credit_info`` with the JSON body ``{"report_type": 8,
  "identity_number", "identity_type", "loan_amount", "report_reason"}``.
* Headers ``X-METROPOL-REST-API-KEY`` (the public key), ``X-METROPOL-REST-API-TIMESTAMP``
  (UTC, ``YYYYMMDDhhmmss`` then microseconds) and ``X-METROPOL-REST-API-HASH``: the SHA-256
  hex digest of private key + the JSON body as sent + public key + timestamp.
* Identity types: 001 national ID, 002 passport, 003 service ID, 004 alien registration,
  005 company registration.
* The answer: ``account_info`` (per account: ``current_balance``, ``original_amount``,
  ``overdue_balance`` as decimal strings in KES, ``days_in_arrears``, ``date_opened``,
  ``last_payment_date``, ``product_type_id``), ``lender_sector`` (``sector_bank``,
  ``sector_other``, ... with ``account_npa`` and ``account_performing``), ``credit_score``,
  ``has_fraud``, ``no_of_enquiries`` and ``no_of_bounced_cheques`` by 3, 6 and 12 months,
  ``trx_id``, ``has_error``, ``api_code``, ``api_code_description``.
* ASSUMPTION: ``has_error`` with a code description saying no record was found is a
  NOT_FOUND; any other error is UNAVAILABLE. ``report_reason`` codes: 1 new application,
  2 account review, 3 collection, 4 guarantor. Accounts are open while they carry a balance.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import UTC, date, datetime
from typing import Any

import httpx

from hakiki.credit.providers.base import (
    BureauPull,
    BureauQuery,
    PullOutcome,
    count,
    minor_units,
)
from hakiki.credit.providers.normalise import assemble
from hakiki.credit.schemas import BureauAccount, LenderSummary, PeriodCounts

logger = logging.getLogger(__name__)

NAME = "metropol"
PATH = "/report/credit_info"
IDENTITY_TYPES = {
    "national_id": "001",
    "passport": "002",
    "alien_id": "004",
    "company_registration": "005",
}
REASONS = {"new_application": 1, "account_review": 2, "collection": 3, "guarantor": 4}
SECTORS = {
    "sector_bank": "bank",
    "sector_mfi": "microfinance",
    "sector_microfinance": "microfinance",
    "sector_sacco": "sacco",
    "sector_digital": "digital_lender",
    "sector_other": "other",
}
NOT_FOUND_WORDS = ("not found", "no record", "no match", "does not exist")


def timestamp(now: datetime) -> str:
    return now.strftime("%Y%m%d%H%M%S%f")


def signature(private_key: str, body: str, public_key: str, stamp: str) -> str:
    return hashlib.sha256(f"{private_key}{body}{public_key}{stamp}".encode()).hexdigest()


def _date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _periods(value: Any) -> PeriodCounts:
    value = value if isinstance(value, dict) else {}
    return PeriodCounts(
        last_3_months=count(value.get("last_3_months")),
        last_6_months=count(value.get("last_6_months")),
        last_12_months=count(value.get("last_12_months")),
    )


def _account(item: dict[str, Any]) -> BureauAccount:
    days = count(item.get("days_in_arrears"))
    balance = minor_units(item.get("current_balance"))
    product = item.get("product_type_id")
    return BureauAccount(
        lender_type="other",  # per account Metropol names a product, not the lender's sector
        product=None if product is None else f"metropol product {product}",
        status="open" if (balance or 0) > 0 else "closed",
        performance="non_performing" if days >= 90 else "performing",
        opened_on=_date(item.get("date_opened")),
        original_amount=minor_units(item.get("original_amount")),
        balance=balance,
        arrears=minor_units(item.get("overdue_balance")) or 0,
        days_past_due=days,
        last_payment_on=_date(item.get("last_payment_date")),
    )


def read_report(body: dict[str, Any], retrieved_at: datetime) -> BureauPull:
    if body.get("has_error"):
        said = str(body.get("api_code_description") or "").lower()
        if any(word in said for word in NOT_FOUND_WORDS):
            return BureauPull(PullOutcome.NOT_FOUND, NAME, None, "no record at Metropol")
        return BureauPull(PullOutcome.UNAVAILABLE, NAME, None, "Metropol answered an error")
    accounts_in = body.get("account_info")
    if not isinstance(accounts_in, list) or "credit_score" not in body:
        return BureauPull(PullOutcome.UNAVAILABLE, NAME, None, "unreadable Metropol answer")
    accounts = [_account(a) for a in accounts_in if isinstance(a, dict)]
    sectors = body.get("lender_sector")
    sectors = sectors if isinstance(sectors, dict) else {}
    lenders = [
        LenderSummary(
            lender_type=SECTORS.get(key, "other"),  # type: ignore[arg-type]
            performing=count(value.get("account_performing")),
            non_performing=count(value.get("account_npa")),
        )
        for key, value in sorted(sectors.items())
        if isinstance(value, dict)
    ]
    score = body.get("credit_score")
    report = assemble(
        bureau=NAME,
        bureau_name="Metropol CRB",
        country="KE",
        currency="KES",
        retrieved_at=retrieved_at,
        bureau_reference=str(body["trx_id"]) if body.get("trx_id") else None,
        bureau_score=score if isinstance(score, int) and not isinstance(score, bool) else None,
        accounts=accounts,
        lenders=lenders,
        enquiries=_periods(body.get("no_of_enquiries")),
        bounced_cheques=_periods(body.get("no_of_bounced_cheques")),
        legal_cases=None,
        fraud_flag=bool(body.get("has_fraud")),
    )
    return BureauPull(PullOutcome.FOUND, NAME, report, "found")


class MetropolProvider:
    name = NAME

    def __init__(self, base_url: str, public_key: str, private_key: str, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.public_key = public_key
        self.private_key = private_key
        self.http = httpx.AsyncClient(timeout=timeout)

    def supports(self, query: BureauQuery) -> bool:
        return query.country == "KE" and query.id_type in IDENTITY_TYPES

    async def pull(self, query: BureauQuery) -> BureauPull:
        payload: dict[str, Any] = {
            "report_type": 8,
            "identity_number": query.id_number,
            "identity_type": IDENTITY_TYPES[query.id_type],
            "loan_amount": (query.loan_amount or 0) // 100,
            "report_reason": REASONS[query.report_reason],
        }
        body = json.dumps(payload, separators=(",", ":"))
        stamp = timestamp(datetime.now(UTC))
        headers = {
            "Content-Type": "application/json",
            "X-METROPOL-REST-API-KEY": self.public_key,
            "X-METROPOL-REST-API-TIMESTAMP": stamp,
            "X-METROPOL-REST-API-HASH": signature(self.private_key, body, self.public_key, stamp),
        }
        try:
            response = await self.http.post(self.base_url + PATH, content=body, headers=headers)
        except httpx.HTTPError as exc:
            logger.warning("Metropol unreachable: %s", type(exc).__name__)
            return BureauPull(PullOutcome.UNAVAILABLE, NAME, None, "Metropol is unreachable")
        if response.status_code in (401, 403):
            return BureauPull(
                PullOutcome.FAILED, NAME, None, "Metropol refused the credentials (operator)"
            )
        if response.status_code != 200:
            return BureauPull(
                PullOutcome.UNAVAILABLE, NAME, None, f"Metropol answered {response.status_code}"
            )
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            return BureauPull(PullOutcome.UNAVAILABLE, NAME, None, "unreadable Metropol answer")
        try:
            return read_report(answer, datetime.now(UTC))
        except (ValueError, TypeError, KeyError, AttributeError):  # a shape we cannot read
            return BureauPull(PullOutcome.UNAVAILABLE, NAME, None, "unreadable Metropol answer")

    async def aclose(self) -> None:
        await self.http.aclose()
