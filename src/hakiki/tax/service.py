"""Tax checks: a PIN or TIN, a Tax Compliance Certificate, a withholding certificate, checked
with the revenue authority (through a provider) after the local format checks.

A live call waits up to ``HAKIKI_TAX_SYNC_SECONDS`` for the registry. Past that it answers
PENDING (charged, like every 05) and the check continues: the look-up already under way
finishes it when it answers, and a durable job, enqueued in the same transaction as the pending
row, finishes it otherwise. Sandbox PENDING numbers (last digit 7) complete through the same
job after a short, fixed delay.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hakiki.core.auth import Principal
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, hold_price
from hakiki.core.envelope import envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.registry_checks.recording import (
    cancelled_on_error,
    check_row,
    live_reference,
    settle,
    within_budget,
)
from hakiki.core.registry_checks.schemas import CheckBilling
from hakiki.core.registry_checks.status import stored_result
from hakiki.core.runtime import Runtime
from hakiki.engines.tax.formats import AUTHORITIES
from hakiki.identity.sandbox import PROVIDER as SANDBOX_PROVIDER
from hakiki.tax import sandbox, validation
from hakiki.tax.completion import TAX_CHECK, message_of, today
from hakiki.tax.conclude import conclude
from hakiki.tax.providers.base import TaxLookup, TaxProvider, TaxQuery
from hakiki.tax.providers.registry import TaxProviders
from hakiki.tax.schemas import (
    PinRequest,
    PinResult,
    TaxResult,
    TccRequest,
    TccResult,
    WithholdingRequest,
    WithholdingResult,
)

_RESULTS: dict[str, type[PinResult | TccResult | WithholdingResult]] = {
    "pin": PinResult,
    "tcc": TccResult,
    "withholding": WithholdingResult,
}
_HOOKS = {"pin": sandbox.PIN, "tcc": sandbox.TCC, "withholding": sandbox.WITHHOLDING}
_WHAT = {
    "pin": "PIN checks",
    "tcc": "Tax Compliance Certificate checks",
    "withholding": "withholding certificate checks",
}


@dataclass
class Answer:
    lookup: TaxLookup | None  # None: PENDING
    provider: str
    reference: str
    in_flight: asyncio.Task[TaxLookup] | None = None  # the look-up past the sync budget


def live_provider(runtime: Runtime, query: TaxQuery) -> TaxProvider:
    """The provider answering ``query`` here, or 503 before anything is reserved."""
    provider = runtime.part(TaxProviders).find(query)
    if provider is None:
        authority = AUTHORITIES[query.country].name
        if query.country == "NG":
            why = _nigeria_unavailable(query)
        elif query.country != "KE":
            why = f"{authority} publishes no API for third parties to check taxpayers"
            why += _EAST_AFRICA_WHY.get(query.country, "")
        elif query.check == "withholding":
            why = "KRA publishes no withholding certificate checker; an operator with one sets "
            why += "HAKIKI_GAVACONNECT_WITHHOLDING_PATH"
        else:
            why = "no GavaConnect credentials are configured on this server"
        raise ApiError(
            503,
            "channel_unavailable",
            f"{_WHAT[query.check].capitalize()} with {authority} ({query.country}) are not "
            f"available in live mode: {why}. Nothing was charged; sandbox keys can test them.",
        )
    return provider


# What the search for one found (docs/decisions.md, "Uganda and Tanzania: credit bureaus and tax").
_EAST_AFRICA_WHY = {
    "UG": " (its EFRIS API serves a taxpayer's own invoices), and no aggregator documents one",
    "TZ": " (its EFDMS API serves a taxpayer's own receipts), and the one aggregator that lists "
    "a Tanzanian TIN check (Prembly) documents no answer for it",
}


def _nigeria_unavailable(query: TaxQuery) -> str:
    if query.check == "pin":
        return "no Prembly credentials are configured on this server (HAKIKI_PREMBLY_APP_ID)"
    if query.check == "tcc":
        return (
            "Prembly lists a tax clearance certificate check but documents neither its request "
            "nor its answer, and FIRS publishes no checker for third parties"
        )
    return "FIRS publishes no withholding certificate checker for third parties"


async def _live(call: Call, query: TaxQuery) -> Answer:
    provider = live_provider(call.runtime, query)
    await hold_price(call)
    seconds = call.runtime.settings.tax_sync_seconds
    lookup, in_flight = await within_budget(provider.lookup(query), seconds)
    answered_by = lookup.provider if lookup is not None else provider.name
    return Answer(lookup, answered_by, live_reference(call), in_flight)


def _subject(query: TaxQuery) -> Subject:
    """The taxpayer number a call is about, for the request log's encrypted look-up columns:
    the PIN (or ID) checked, the certificate holder, a withholding certificate's payee."""
    kind = f"{AUTHORITIES[query.country].name.lower()}_{'pin' if query.country == 'KE' else 'tin'}"
    if query.check == "pin" and query.national_id is not None:
        return Subject(query.country, "national_id", query.national_id)
    number = query.payee_pin if query.check == "withholding" else query.pin
    return Subject(query.country, kind, number or "")


async def check_pin(call: Call, body: PinRequest) -> bytes:
    return await check(call, validation.pin_query(body))


async def check_tcc(call: Call, body: TccRequest) -> bytes:
    return await check(call, validation.tcc_query(body))


async def check_withholding(call: Call, body: WithholdingRequest) -> bytes:
    return await check(call, validation.withholding_query(body))


async def check(call: Call, query: TaxQuery) -> bytes:
    if call.principal.live:
        answer = await _live(call, query)
    else:
        lookup = _HOOKS[query.check].answer(query)
        answer = Answer(lookup, SANDBOX_PROVIDER, sandbox.reference_for(query))
    with cancelled_on_error(answer.in_flight):
        return await _finish(call, query, answer)


async def _finish(call: Call, query: TaxQuery, answer: Answer) -> bytes:
    runtime = call.runtime
    concluded = conclude(query, answer.lookup, today())
    outcome, data = concluded.outcome, concluded.data
    message = message_of(concluded)
    subject = _subject(query)
    row = check_row(
        call,
        TAX_CHECK,
        reference=answer.reference,
        outcome=outcome,
        message=message,
        provider=answer.provider,
        provider_reference=answer.lookup.provider_reference if answer.lookup else None,
        subject_hash=runtime.vault.lookup_hash(subject.country, subject.channel, subject.number),
        request=query.as_dict(),
        data=data,
    )

    def render(charge: Charge | None) -> bytes:
        result = _RESULTS[query.check](
            request_id=call.request_id,
            live=call.principal.live,
            reference=answer.reference,
            provider=answer.provider,
            billing=CheckBilling.of(charge, call.principal.currency),
            data=data,  # type: ignore[arg-type]
            **{**envelope_fields(outcome), "message": message},
        )
        return result.model_dump_json().encode()

    authority = AUTHORITIES[query.country].name
    return await settle(
        call,
        TAX_CHECK,
        row,
        in_flight=answer.in_flight,
        sandbox_pending_seconds=runtime.settings.tax_sandbox_pending_seconds,
        subject=subject,
        render=render,
        description=f"Tax {query.check} check: {authority} ({outcome.value})",
    )


async def status(
    runtime: Runtime, principal: Principal, request_id: str, reference: str
) -> TaxResult:
    """A check of the caller's organisation and environment, as it stands now."""
    return await stored_result(runtime, principal, request_id, TAX_CHECK, reference, TaxResult)
