"""Building a KYB result's data, and finishing a pending check: the conditional update from
pending, the refund of a pending charge that bought no answer, and the webhook with its
outcome, in one transaction (as kyc/completion.py does for identity documents)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from hakiki.core import billing
from hakiki.core.auth import Principal
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.core.runtime import Runtime
from hakiki.kyb import mock_registry, repository
from hakiki.kyb.owners import screen_owners
from hakiki.kyb.providers.base import RegistryOutcome, RegistryQuery, RegistryResult
from hakiki.kyb.queries import Options, restored
from hakiki.kyb.results import OUTCOME_OF, Answer, business_data, ownership_data, state_of
from hakiki.kyb.schemas import KybData, OwnershipData
from hakiki.webhooks.service import emit

logger = logging.getLogger("hakiki.kyb")

COMPLETE_TASK = "kyb.complete"


def statement_date(live: bool) -> str:
    """BODS statements are dated the day the register was read (fixed in the sandbox)."""
    return utcnow().date().isoformat() if live else mock_registry.SANDBOX_STATEMENT_DATE


async def build_data(
    runtime: Runtime,
    principal: Principal,
    query: RegistryQuery,
    answer: Answer,
    options: Options,
    date: str,
) -> KybData | OwnershipData:
    if not query.ownership:
        return business_data(query, answer)
    result = answer.result
    screened = None
    if options.screen_owners and result is not None and result.ownership is not None:
        threshold = options.threshold or runtime.settings.aml_threshold
        screened = await screen_owners(
            runtime, principal, result.ownership, checks=list(options.checks), threshold=threshold
        )
    return ownership_data(query, answer, screened, date)


def _owner(row: dict[str, Any]) -> Principal:
    """The organisation a pending check belongs to, as the screening's reviews look it up (only
    the organisation and environment are read)."""
    return Principal(
        key_id="",
        client_id="",
        environment=row["environment"],
        scopes=frozenset(),
        org_id=row["org_id"],
        org_name="",
        approved=True,
        currency="",
    )


async def finalise(runtime: Runtime, row: dict[str, Any], result: RegistryResult) -> bool:
    """Finish a pending check with the registry's answer; False (and nothing done) when it is
    final already. A live charge for an answer that is not billable (02, 09) is reversed."""
    request = json.loads(runtime.vault.decrypt(row["request_encrypted"]))
    query, options, registry = restored(request)
    outcome = OUTCOME_OF[result.outcome]
    answer = Answer(outcome, result, row["provider"], registry)
    data = await build_data(
        runtime, _owner(row), query, answer, options, statement_date(row["environment"] == "live")
    )
    async with transaction(runtime.db) as conn:
        changed = await repository.finalise(
            conn,
            row["id"],
            state=data.state,
            outcome=outcome.value,
            data_encrypted=runtime.vault.encrypt(data.model_dump_json()),
            completed_at=utcnow(),
        )
        if not changed:
            return False
        if row["environment"] == "live" and not OUTCOMES[outcome].billable:
            await billing.refund(
                conn,
                row["org_id"],
                row["request_id"],
                f"Refund: KYB {row['reference']} ended {outcome.value}",
            )
        await emit(
            conn,
            org_id=row["org_id"],
            environment=row["environment"],
            event_type=f"verification.{state_of(outcome)}",
            resource_id=row["reference"],
            data=event_data(row, outcome, data),
        )
    logger.info("kyb check %s ended %s", row["id"], outcome.value)
    return True


def event_data(row: dict[str, Any], outcome: Outcome, data: KybData) -> dict[str, Any]:
    """The outcome, the company as the register holds it (a legal entity's public record) and
    the owners' screening in counts; no person's name, since events are stored in clear
    (docs/decisions.md, "KYB"): the owners themselves come with the call."""
    company = data.company
    event: dict[str, Any] = {
        "reference": row["reference"],
        "endpoint": row["endpoint"],
        "status": outcome.value,
        "response_code": OUTCOMES[outcome].response_code,
        "state": data.state,
        "found": data.status == "FOUND",
        "request_id": row["request_id"],
        "company": company.model_dump(mode="json", include=_COMPANY_FIELDS) if company else None,
    }
    if isinstance(data, OwnershipData):
        screening = data.screening
        event["screening"] = (
            {
                "status": screening.status,
                "parties_screened": screening.parties_screened,
                "hits": screening.hits,
                "parties_with_hits": len(screening.parties_with_hits),
            }
            if screening is not None
            else None
        )
    return event


_COMPANY_FIELDS = {
    "name", "registration_number", "country", "entity_type", "status", "registration_date",
    "dissolution_date",
}  # fmt: skip


_background: set[asyncio.Task[None]] = set()


def finish_in_background(
    runtime: Runtime, check_id: str, lookup: asyncio.Task[RegistryResult]
) -> None:
    """Let the look-up that outlived the sync budget finish the check when it answers; an
    unavailable registry is left to the job, which retries."""

    async def finish() -> None:
        result = await lookup
        if result.outcome is RegistryOutcome.UNAVAILABLE:
            return
        async with read(runtime.db) as conn:
            row = await repository.get(conn, check_id)
        if row is not None:
            await finalise(runtime, row, result)

    task = asyncio.create_task(finish(), name=f"kyb-finish-{check_id}")
    _background.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task[None]) -> None:
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("finishing a KYB check in the background failed: %r", task.exception())
