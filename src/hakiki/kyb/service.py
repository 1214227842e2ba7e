"""KYB look-ups: a business's registration (POST /v3/kyb/business) and its directors,
shareholders and beneficial owners, screened, with BODS statements (POST /v3/kyb/ownership).

A live call waits up to HAKIKI_KYB_SYNC_SECONDS for the registry. Past that it answers PENDING
(charged, like every 05) and the look-up under way finishes the check when it answers; a durable
job, enqueued with the pending row, finishes it otherwise. Either way the outcome goes out as a
verification.completed (or .failed) webhook: the company and the owners' screening in counts
(KYB has no status endpoint among the 50; docs/decisions.md).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call, hold_price
from hakiki.core.clock import utcnow
from hakiki.core.envelope import OUTCOMES, Billing, Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.kyb import mock_registry, repository, sandbox
from hakiki.kyb.completion import COMPLETE_TASK, build_data, finish_in_background, statement_date
from hakiki.kyb.providers.base import RegistryQuery, RegistryResult
from hakiki.kyb.providers.registry import Registries
from hakiki.kyb.queries import build_query, options_of, stored
from hakiki.kyb.results import MESSAGES, OUTCOME_OF, Answer
from hakiki.kyb.schemas import BusinessResult, KybData, KybRequest, OwnershipData, OwnershipResult

SANDBOX_REGISTRY = "Hakiki sandbox register (fictional)"


async def _live(
    call: Call, query: RegistryQuery
) -> tuple[Answer, asyncio.Task[RegistryResult] | None]:
    provider = call.runtime.part(Registries).find(query)
    if provider is None:
        raise ApiError(
            503,
            "channel_unavailable",
            f"No business registry is configured for {query.country} on this server "
            "(Kenya's BRS needs HAKIKI_PREMBLY_APP_ID and HAKIKI_PREMBLY_API_KEY). Nothing was "
            "charged.",
        )
    await hold_price(call)
    lookup = asyncio.create_task(provider.lookup(query))
    try:
        done, _ = await asyncio.wait({lookup}, timeout=call.runtime.settings.kyb_sync_seconds)
    except BaseException:
        lookup.cancel()
        raise
    if lookup in done:
        result = lookup.result()
        return Answer(OUTCOME_OF[result.outcome], result, provider.name, provider.registry), None
    return Answer(Outcome.PENDING, None, provider.name, provider.registry), lookup


def _sandbox(query: RegistryQuery) -> Answer:
    hook = sandbox.OWNERSHIP if query.ownership else sandbox.BUSINESS
    outcome, result = hook.answer(query)
    if outcome is Outcome.PENDING:
        return Answer(outcome, None, mock_registry.PROVIDER, SANDBOX_REGISTRY)
    return Answer(outcome, result, mock_registry.PROVIDER, SANDBOX_REGISTRY)


def _job_delay(call: Call) -> float:
    settings = call.runtime.settings
    if call.principal.live:  # once the look-up under way has had its whole timeout
        return settings.provider_timeout_seconds + 5
    return settings.kyc_sandbox_pending_seconds


async def check(call: Call, body: KybRequest, *, ownership: bool) -> bytes:
    query = build_query(body, ownership=ownership)
    options = options_of(body)
    in_flight: asyncio.Task[RegistryResult] | None = None
    if call.principal.live:
        answer, in_flight = await _live(call, query)
        reference = f"ref_{call.request_id.removeprefix('req_')}"
    else:
        answer = _sandbox(query)
        reference = mock_registry.reference_for(query, call.endpoint)
    try:
        return await _finish(call, query, options, answer, reference, in_flight)
    except BaseException:
        if in_flight is not None:
            in_flight.cancel()
        raise


async def _finish(
    call: Call,
    query: RegistryQuery,
    options: Any,
    answer: Answer,
    reference: str,
    in_flight: asyncio.Task[RegistryResult] | None,
) -> bytes:
    runtime, principal = call.runtime, call.principal
    data = await build_data(
        runtime, principal, query, answer, options, statement_date(principal.live)
    )
    outcome = answer.outcome
    row: dict[str, Any] | None = None
    if outcome is Outcome.PENDING:
        now = utcnow()
        subject = query.number.number if query.number else (query.lei or query.name or "")
        row = {
            "id": new_id("kyb"),
            "org_id": principal.org_id,
            "environment": principal.environment,
            "reference": reference,
            "endpoint": call.endpoint,
            "country": query.country,
            "provider": answer.provider,
            "state": "pending",
            "outcome": outcome.value,
            "subject_hash": runtime.vault.lookup_hash("kyb", query.country, subject),
            "request_encrypted": runtime.vault.encrypt(
                json.dumps(stored(query, options, answer.registry))
            ),
            "data_encrypted": runtime.vault.encrypt(data.model_dump_json()),
            "request_id": call.request_id,
            "created_at": now,
            "completed_at": None,
        }
    pending_row = row

    async def write(conn: AsyncConnection) -> None:
        if pending_row is not None and await repository.insert_once(conn, pending_row):
            payload = {"check_id": pending_row["id"]}
            await enqueue(conn, COMPLETE_TASK, payload, delay_seconds=_job_delay(call))

    def render(charge: Charge | None) -> bytes:
        fields = {**envelope_fields(outcome), "message": MESSAGES[outcome]}
        common = {
            "request_id": call.request_id,
            "live": principal.live,
            "reference": reference,
            "provider": answer.provider,
            "billing": Billing.of(charge, principal.currency),
            **fields,
        }
        if isinstance(data, OwnershipData):
            return OwnershipResult(**common, data=data).model_dump_json().encode()
        return BusinessResult(**common, data=data).model_dump_json().encode()

    content = await finish_call(
        call,
        billable=OUTCOMES[outcome].billable,
        response_code=OUTCOMES[outcome].response_code,
        subject=None,
        render=render,
        description=f"KYB {call.endpoint.removeprefix('kyb.')}: {query.country} ({outcome.value})",
        write=write if pending_row is not None else None,
    )
    if in_flight is not None and pending_row is not None:
        finish_in_background(runtime, pending_row["id"], in_flight)
    return content


__all__ = ["KybData", "check"]
