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
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.envelope import OUTCOMES, Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.runtime import Runtime
from hakiki.engines.tax.formats import AUTHORITIES
from hakiki.identity.sandbox import PROVIDER as SANDBOX_PROVIDER
from hakiki.tax import repository, sandbox, validation
from hakiki.tax.completion import (
    COMPLETE_TASK,
    billing_of,
    finish_in_background,
    message_of,
    result_of,
    today,
)
from hakiki.tax.conclude import conclude
from hakiki.tax.providers.base import TaxLookup, TaxProvider, TaxQuery
from hakiki.tax.providers.registry import TaxProviders
from hakiki.tax.schemas import (
    PinRequest,
    PinResult,
    TaxBilling,
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
        if query.country != "KE":
            why = f"{authority} publishes no API for third parties to check taxpayers"
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


async def _live(call: Call, query: TaxQuery) -> Answer:
    provider = live_provider(call.runtime, query)
    await hold_price(call)
    reference = f"ref_{call.request_id.removeprefix('req_')}"
    lookup = asyncio.create_task(provider.lookup(query))
    try:
        done, _ = await asyncio.wait({lookup}, timeout=call.runtime.settings.tax_sync_seconds)
    except BaseException:
        lookup.cancel()
        raise
    if lookup in done:
        return Answer(lookup.result(), provider.name, reference)
    return Answer(None, provider.name, reference, in_flight=lookup)


def _job_delay(runtime: Runtime, live: bool) -> float:
    """When the job looks at a pending check: live, once the look-up under way has had its
    whole timeout to finish it; sandbox, after the documented short delay."""
    settings = runtime.settings
    if live:
        return settings.provider_timeout_seconds + 5
    return settings.tax_sandbox_pending_seconds


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
    try:
        return await _finish(call, query, answer)
    except BaseException:
        if answer.in_flight is not None:
            answer.in_flight.cancel()
        raise


async def _finish(call: Call, query: TaxQuery, answer: Answer) -> bytes:
    runtime = call.runtime
    concluded = conclude(query, answer.lookup, today())
    outcome, data = concluded.outcome, concluded.data
    message = message_of(concluded)
    subject = _subject(query)
    now = utcnow()
    provider_reference = answer.lookup.provider_reference if answer.lookup else None
    row: dict[str, Any] = {
        "id": new_id("tax"),
        "org_id": call.principal.org_id,
        "environment": call.principal.environment,
        "reference": answer.reference,
        "endpoint": call.endpoint,
        "check_kind": query.check,
        "country": query.country,
        "state": data.state,
        "outcome": outcome.value,
        "message": message,
        "provider": answer.provider,
        "provider_reference": provider_reference,
        "subject_hash": runtime.vault.lookup_hash(subject.country, subject.channel, subject.number),
        "query_encrypted": runtime.vault.encrypt(json.dumps(query.as_dict())),
        "data_encrypted": runtime.vault.encrypt(data.model_dump_json()),
        "request_id": call.request_id,
        "created_at": now,
        "completed_at": None if outcome is Outcome.PENDING else now,
    }

    async def write(conn: AsyncConnection) -> None:
        inserted = await repository.insert_once(conn, row)
        if inserted and outcome is Outcome.PENDING:
            delay = _job_delay(runtime, call.principal.live)
            await enqueue(conn, COMPLETE_TASK, {"check_id": row["id"]}, delay_seconds=delay)

    def render(charge: Charge | None) -> bytes:
        result = _RESULTS[query.check](
            request_id=call.request_id,
            live=call.principal.live,
            reference=answer.reference,
            provider=answer.provider,
            billing=TaxBilling.of(charge, call.principal.currency),
            data=data,  # type: ignore[arg-type]
            **{**envelope_fields(outcome), "message": message},
        )
        return result.model_dump_json().encode()

    authority = AUTHORITIES[query.country].name
    content = await finish_call(
        call,
        billable=OUTCOMES[outcome].billable,
        response_code=OUTCOMES[outcome].response_code,
        subject=subject,
        render=render,
        description=f"Tax {query.check} check: {authority} ({outcome.value})",
        write=write,
    )
    if answer.in_flight is not None:
        finish_in_background(runtime, row["id"], answer.in_flight)
    return content


async def status(
    runtime: Runtime, principal: Principal, request_id: str, reference: str
) -> TaxResult:
    """A check of the caller's organisation and environment, as it stands now."""
    async with read(runtime.db) as conn:
        row = await repository.find(conn, principal.org_id, principal.environment, reference)
        if row is None:
            raise ApiError(
                404,
                "not_found",
                "No tax check with this reference for this organisation and environment.",
            )
        charged = await billing_of(conn, row, principal.currency)
    return result_of(runtime, row, request_id, charged)
