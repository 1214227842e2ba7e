"""Finishing a pending registry check: from its registry's answer to its final, never-changing
state, by the look-up that outlived the sync budget or by the job (tasks.py)."""

from __future__ import annotations

import asyncio
import logging

from hakiki.core import billing
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.core.registry_checks import repository
from hakiki.core.registry_checks.kinds import A, CheckKind, Final, Row
from hakiki.core.registry_checks.schemas import state_of
from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.registry_checks")


async def finalise(runtime: Runtime, kind: CheckKind[A], row: Row, final: Final) -> bool:
    """In one transaction: move a pending check to its final state, reverse a live charge
    for an answer that is not billable (02, 09), and emit verification.completed or .failed.
    False (and nothing done) when the check was final already."""
    outcome = final.outcome
    state = state_of(outcome)
    async with transaction(runtime.db) as conn:
        changed = await repository.finalise(
            conn,
            row["id"],
            state=state,
            outcome=outcome.value,
            message=final.message,
            provider_reference=final.provider_reference,
            data_encrypted=runtime.vault.encrypt(final.data.model_dump_json()),
            completed_at=utcnow(),
            provider=final.provider,
        )
        if not changed:
            return False
        if row["environment"] == "live" and not OUTCOMES[outcome].billable:
            await billing.refund(
                conn,
                row["org_id"],
                row["request_id"],
                f"Refund: {kind.noun} {row['reference']} ended {outcome.value}",
            )
        await kind.emit(
            conn,
            org_id=row["org_id"],
            environment=row["environment"],
            event_type=f"verification.{state}",
            resource_id=row["reference"],
            data=final.event,
        )
    logger.info("%s %s ended %s", kind.noun, row["id"], outcome.value)
    return True


_background: set[asyncio.Task[None]] = set()


def finish_in_background(
    runtime: Runtime, kind: CheckKind[A], check_id: str, lookup: asyncio.Task[A]
) -> None:
    """Let the look-up that outlived the sync budget finish the check when it answers. An
    unavailable registry is left to the job, which retries."""

    async def finish() -> None:
        answer = await lookup
        async with read(runtime.db) as conn:
            row = await repository.get(conn, check_id)
        if row is None or row["state"] != "pending":
            return
        final = await kind.conclude(runtime, row, answer)
        if final.outcome is not Outcome.SOURCE_UNAVAILABLE:
            await finalise(runtime, kind, row, final)

    task = asyncio.create_task(finish(), name=f"{kind.category}-finish-{check_id}")
    _background.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task[None]) -> None:
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("finishing a registry check in the background failed: %r", task.exception())
