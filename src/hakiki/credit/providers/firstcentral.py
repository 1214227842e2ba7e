"""Live adapter for FirstCentral Credit Bureau's REST API v2 (Nigeria).

Sources (read through the project's documentation search; assumptions are said so, decisions
are in docs/decisions.md, "Credit"): integrators' open-source clients of
``{base}/firstcentralrestv2`` (production ``https://online.firstcentralcreditbureau.com``,
UAT ``https://uat.firstcentralcreditbureau.com``) and the report renderers that read its
answer.

1. ``POST {base}/login`` ``{"username", "password"}`` answers ``[{"DataTicket": "..."}]``.
2. ``POST {base}/ConnectConsumerMatch`` ``{"DataTicket", "EnquiryReason", "ConsumerName": "",
   "DateOfBirth": "", "Identification": <BVN or NIN>, "Accountno": "", "ProductID": "45"}``
   answers ``[{"MatchedConsumer": [{"MatchingEngineID", "EnquiryID", "ConsumerID", ...}]}]``;
   no consumer (an empty list, or a ConsumerID of 0) is NOT_FOUND.
3. ``POST {base}/GetConsumerFullCreditReport`` ``{"DataTicket", "consumerID", "EnquiryID",
   "consumerMergeList": "", "SubscriberEnquiryEngineID": <MatchingEngineID>}`` answers a list
   of one-key sections: ``CreditAccountSummary`` (``TotalNumberofDishonoured``,
   ``TotalNumberofJudgement``, ...), ``CreditAgreementSummary`` (per account:
   ``SubscriberName``, ``IndicatorDescription``, ``DateAccountOpened``, ``OpeningBalanceAmt``,
   ``CurrentBalanceAmt``, ``AmountOverdue``, ``AccountStatus``, ``PerformanceStatus``,
   ``LastPaymentDate``), ``Scoring`` (``TotalConsumerScore``), ``EnquiryHistoryTop``
   (``DateRequested``).
* ASSUMPTIONS: amounts are naira with thousands separators; dates dd/mm/yyyy; the lender type
  is read from the subscriber's name (a bank, a microfinance bank) since the report gives no
  sector; days past due are not listed per account, so an account in arrears counts 30 days
  and one whose PerformanceStatus is not "Performing" counts 90 (non-performing). A new ticket
  is fetched for every pull (its lifetime is not documented).
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx

from hakiki.credit.providers.base import BureauPull, BureauQuery, PullOutcome, count, minor_units
from hakiki.credit.providers.normalise import assemble
from hakiki.credit.schemas import BureauAccount, PeriodCounts

logger = logging.getLogger(__name__)

NAME = "firstcentral"
PRODUCT_ID = "45"  # the consumer full credit report
REASONS = {
    "new_application": "Application for credit by a borrower",
    "account_review": "Review of existing credit facilities",
    "collection": "Collection of a debt",
    "guarantor": "Assessment of a guarantor",
}


class _Unavailable(Exception):
    pass


class _Refused(Exception):
    pass


def _date(value: Any) -> date | None:
    text = str(value or "").strip()[:10]
    for fmt in ("%d/%m/%Y", "%Y-%m-%d", "%Y/%m/%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _lender_type(name: Any) -> str:
    text = str(name or "").lower()
    if "microfinance" in text or "mfb" in text:
        return "microfinance"
    if "bank" in text:
        return "bank"
    return "other"


def _account(item: dict[str, Any]) -> BureauAccount:
    arrears = minor_units(item.get("AmountOverdue")) or 0
    performing = str(item.get("PerformanceStatus") or "performing").strip().lower() == "performing"
    days = 0 if performing and not arrears else (30 if performing else 90)
    closed = str(item.get("AccountStatus") or "").strip().lower() == "closed"
    return BureauAccount(
        lender_type=_lender_type(item.get("SubscriberName")),  # type: ignore[arg-type]
        product=(str(item["IndicatorDescription"]) if item.get("IndicatorDescription") else None),
        status="closed" if closed else "open",
        performance="performing" if performing else "non_performing",
        opened_on=_date(item.get("DateAccountOpened")),
        original_amount=minor_units(item.get("OpeningBalanceAmt")),
        balance=minor_units(item.get("CurrentBalanceAmt")),
        arrears=arrears,
        days_past_due=days,
        last_payment_on=_date(item.get("LastPaymentDate")),
    )


def _sections(answer: Any) -> dict[str, list[dict[str, Any]]]:
    if not isinstance(answer, list):
        raise _Unavailable("the report is not a list of sections")
    found: dict[str, list[dict[str, Any]]] = {}
    for section in answer:
        if isinstance(section, dict):
            for key, rows in section.items():
                if isinstance(rows, list):
                    found[key] = [r for r in rows if isinstance(r, dict)]
    return found


def _enquiries(rows: list[dict[str, Any]], today: date) -> PeriodCounts:
    dates = [d for d in (_date(r.get("DateRequested")) for r in rows) if d is not None]

    def within(months: int) -> int:
        return sum(d >= today - timedelta(days=30 * months) for d in dates)

    return PeriodCounts(last_3_months=within(3), last_6_months=within(6), last_12_months=within(12))


def read_report(answer: Any, retrieved_at: datetime, reference: str | None) -> BureauPull:
    sections = _sections(answer)
    if "CreditAgreementSummary" not in sections and "CreditAccountSummary" not in sections:
        raise _Unavailable("no credit sections in the report")
    summary = (sections.get("CreditAccountSummary") or [{}])[0]
    scoring = (sections.get("Scoring") or [{}])[0]
    score = str(scoring.get("TotalConsumerScore") or "").strip()
    report = assemble(
        bureau=NAME,
        bureau_name="FirstCentral Credit Bureau",
        country="NG",
        currency="NGN",
        retrieved_at=retrieved_at,
        bureau_reference=reference,
        bureau_score=int(score) if score.isdigit() else None,
        accounts=[_account(a) for a in sections.get("CreditAgreementSummary", [])],
        lenders=None,
        enquiries=_enquiries(sections.get("EnquiryHistoryTop", []), retrieved_at.date()),
        bounced_cheques=PeriodCounts(
            last_3_months=None,
            last_6_months=None,
            last_12_months=count(summary.get("TotalNumberofDishonoured")),
        ),
        legal_cases=count(summary.get("TotalNumberofJudgement")),
        fraud_flag=False,
    )
    return BureauPull(PullOutcome.FOUND, NAME, report, "found")


class FirstCentralProvider:
    name = NAME

    def __init__(self, base_url: str, username: str, password: str, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.username = username
        self.password = password
        self.http = httpx.AsyncClient(timeout=timeout)

    def supports(self, query: BureauQuery) -> bool:
        return query.country == "NG" and query.id_type in ("bvn", "nin")

    async def _post(self, path: str, body: dict[str, Any]) -> Any:
        try:
            response = await self.http.post(self.base_url + path, json=body)
        except httpx.HTTPError as exc:
            raise _Unavailable(f"unreachable ({type(exc).__name__})") from exc
        if response.status_code in (401, 403):
            raise _Refused(f"{path} answered {response.status_code}")
        if response.status_code != 200:
            raise _Unavailable(f"{path} answered {response.status_code}")
        try:
            return response.json()
        except ValueError as exc:
            raise _Unavailable(f"{path} answered no JSON") from exc

    async def _ticket(self) -> str:
        answer = await self._post("/login", {"username": self.username, "password": self.password})
        first = answer[0] if isinstance(answer, list) and answer else answer
        ticket = first.get("DataTicket") if isinstance(first, dict) else None
        if not ticket:
            raise _Refused("login gave no DataTicket")
        return str(ticket)

    async def pull(self, query: BureauQuery) -> BureauPull:
        try:
            ticket = await self._ticket()
            matched = await self._post(
                "/ConnectConsumerMatch",
                {
                    "DataTicket": ticket,
                    "EnquiryReason": REASONS[query.report_reason],
                    "ConsumerName": "",
                    "DateOfBirth": "",
                    "Identification": query.id_number,
                    "Accountno": "",
                    "ProductID": PRODUCT_ID,
                },
            )
            first = matched[0] if isinstance(matched, list) and matched else {}
            consumers = first.get("MatchedConsumer") if isinstance(first, dict) else None
            if not isinstance(consumers, list):
                raise _Unavailable("unreadable consumer match")
            consumer = consumers[0] if consumers and isinstance(consumers[0], dict) else {}
            if not count(consumer.get("ConsumerID")):
                return BureauPull(PullOutcome.NOT_FOUND, NAME, None, "no record at FirstCentral")
            answer = await self._post(
                "/GetConsumerFullCreditReport",
                {
                    "DataTicket": ticket,
                    "consumerID": str(consumer["ConsumerID"]),
                    "EnquiryID": str(consumer.get("EnquiryID") or ""),
                    "consumerMergeList": "",
                    "SubscriberEnquiryEngineID": str(consumer.get("MatchingEngineID") or ""),
                },
            )
            enquiry = consumer.get("EnquiryID")
            return read_report(answer, datetime.now(UTC), str(enquiry) if enquiry else None)
        except _Refused as exc:
            logger.warning("FirstCentral refused: %s", exc)
            return BureauPull(
                PullOutcome.FAILED, NAME, None, "FirstCentral refused the credentials (operator)"
            )
        except (_Unavailable, ValueError, TypeError, KeyError, AttributeError) as exc:
            logger.warning("FirstCentral unavailable: %s", type(exc).__name__)
            return BureauPull(PullOutcome.UNAVAILABLE, NAME, None, "FirstCentral is unavailable")

    async def aclose(self) -> None:
        await self.http.aclose()
