"""KYB look-ups: a business's registration (POST /v3/kyb/business) and its directors,
shareholders and beneficial owners, screened, with BODS statements (POST /v3/kyb/ownership).

A live call waits up to HAKIKI_KYB_SYNC_SECONDS for the registry. Past that it answers PENDING
(charged, like every 05) and the look-up under way finishes the check when it answers; a durable
job, enqueued with the pending row, finishes it otherwise (core/registry_checks). Either way the
outcome goes out as a verification.completed (or .failed) webhook, the company and the owners'
screening in counts, and GET /v3/kyb/status/{reference} serves the whole answer.
"""

from __future__ import annotations

import asyncio

from hakiki.core.auth import Principal
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, hold_price
from hakiki.core.envelope import Outcome, envelope_fields
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
from hakiki.kyb import mock_registry, sandbox
from hakiki.kyb.completion import KYB_CHECK, build_data, statement_date
from hakiki.kyb.providers.base import RegistryQuery, RegistryResult
from hakiki.kyb.providers.registry import Registries
from hakiki.kyb.queries import Options, build_query, options_of, stored
from hakiki.kyb.results import MESSAGES, OUTCOME_OF, Answer
from hakiki.kyb.schemas import (
    BusinessResult,
    KybRequest,
    KybResult,
    OwnershipData,
    OwnershipResult,
)

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
    seconds = call.runtime.settings.kyb_sync_seconds
    result, in_flight = await within_budget(provider.lookup(query), seconds)
    if result is None:
        return Answer(Outcome.PENDING, None, provider.name, provider.registry), in_flight
    registry = call.runtime.part(Registries).registry_of(provider, result.provider)
    return Answer(OUTCOME_OF[result.outcome], result, result.provider, registry), None


def _sandbox(query: RegistryQuery) -> Answer:
    hook = sandbox.OWNERSHIP if query.ownership else sandbox.BUSINESS
    outcome, result = hook.answer(query)
    if outcome is Outcome.PENDING:
        return Answer(outcome, None, mock_registry.PROVIDER, SANDBOX_REGISTRY)
    return Answer(outcome, result, mock_registry.PROVIDER, SANDBOX_REGISTRY)


async def check(call: Call, body: KybRequest, *, ownership: bool) -> bytes:
    query = build_query(body, ownership=ownership)
    options = options_of(body)
    in_flight: asyncio.Task[RegistryResult] | None = None
    if call.principal.live:
        answer, in_flight = await _live(call, query)
        reference = live_reference(call)
    else:
        answer = _sandbox(query)
        reference = mock_registry.reference_for(query, call.endpoint)
    with cancelled_on_error(in_flight):
        return await _finish(call, query, options, answer, reference, in_flight)


async def _finish(
    call: Call,
    query: RegistryQuery,
    options: Options,
    answer: Answer,
    reference: str,
    in_flight: asyncio.Task[RegistryResult] | None,
) -> bytes:
    runtime, principal = call.runtime, call.principal
    data = await build_data(
        runtime, principal, query, answer, options, statement_date(principal.live)
    )
    outcome = answer.outcome
    subject = query.number.number if query.number else (query.lei or query.name or "")
    row = check_row(
        call,
        KYB_CHECK,
        reference=reference,
        outcome=outcome,
        message=MESSAGES[outcome],
        provider=answer.provider,
        provider_reference=answer.result.reference if answer.result else None,
        subject_hash=runtime.vault.lookup_hash("kyb", query.country, subject),
        request=stored(query, options, answer.registry),
        data=data,
    )

    def render(charge: Charge | None) -> bytes:
        common = {
            "request_id": call.request_id,
            "live": principal.live,
            "reference": reference,
            "provider": answer.provider,
            "billing": CheckBilling.of(charge, principal.currency),
            **envelope_fields(outcome),
            "message": MESSAGES[outcome],
        }
        if isinstance(data, OwnershipData):
            return OwnershipResult(**common, data=data).model_dump_json().encode()
        return BusinessResult(**common, data=data).model_dump_json().encode()

    return await settle(
        call,
        KYB_CHECK,
        row,
        in_flight=in_flight,
        sandbox_pending_seconds=runtime.settings.kyc_sandbox_pending_seconds,
        subject=None,
        render=render,
        description=f"KYB {call.endpoint.removeprefix('kyb.')}: {query.country} ({outcome.value})",
    )


async def status(
    runtime: Runtime, principal: Principal, request_id: str, reference: str
) -> KybResult:
    """A KYB check of the caller's organisation and environment, as it stands now."""
    return await stored_result(runtime, principal, request_id, KYB_CHECK, reference, KybResult)
