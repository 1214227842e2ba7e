"""A registry check's call: the live look-up within the sync budget, the row the call stores
(whatever its outcome, so the category's status call can fetch it), and the settlement that
writes the row, enqueues the completion job of a PENDING one and hands the look-up still under
way to the background."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.registry_checks import repository
from hakiki.core.registry_checks.completion import finish_in_background
from hakiki.core.registry_checks.kinds import A, CheckKind, Row
from hakiki.core.registry_checks.schemas import state_of
from hakiki.core.registry_checks.tasks import COMPLETE_TASK


def live_reference(call: Call) -> str:
    """A live check's reference: its request's, so it is unique and names the call."""
    return f"ref_{call.request_id.removeprefix('req_')}"


async def within_budget(
    lookup: Coroutine[Any, Any, A], seconds: float
) -> tuple[A | None, asyncio.Task[A] | None]:
    """The look-up's answer when it comes within ``seconds``; otherwise None (PENDING) and the
    look-up still under way, to hand to :func:`settle`."""
    task = asyncio.create_task(lookup)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except BaseException:
        task.cancel()
        raise
    if task in done:
        return task.result(), None
    return None, task


@contextmanager
def cancelled_on_error(in_flight: asyncio.Task[Any] | None) -> Iterator[None]:
    """A call that fails after its look-up went past the budget stops that look-up."""
    try:
        yield
    except BaseException:
        if in_flight is not None:
            in_flight.cancel()
        raise


def check_row(
    call: Call,
    kind: CheckKind[A],
    *,
    reference: str,
    outcome: Outcome,
    message: str,
    provider: str,
    provider_reference: str | None,
    subject_hash: str,
    request: dict[str, Any],
    data: BaseModel,
) -> Row:
    """The row a call stores: ``request`` is what the completion job needs to ask again."""
    vault = call.runtime.vault
    now = utcnow()
    return {
        "id": new_id("chk"),
        "org_id": call.principal.org_id,
        "environment": call.principal.environment,
        "reference": reference,
        "category": kind.category,
        "endpoint": call.endpoint,
        "state": state_of(outcome),
        "outcome": outcome.value,
        "message": message,
        "provider": provider,
        "provider_reference": repository.bounded(provider_reference),
        "subject_hash": subject_hash,
        "request_encrypted": vault.encrypt(json.dumps(request)),
        "data_encrypted": vault.encrypt(data.model_dump_json()),
        "request_id": call.request_id,
        "created_at": now,
        "completed_at": None if outcome is Outcome.PENDING else now,
    }


async def settle(
    call: Call,
    kind: CheckKind[A],
    row: Row,
    *,
    in_flight: asyncio.Task[A] | None,
    sandbox_pending_seconds: float,
    subject: Subject | None,
    render: Callable[[Charge | None], bytes],
    description: str,
) -> bytes:
    """Finish the call (charge, row, request log, idempotent answer: one transaction); a
    PENDING check gets its completion job in that transaction and the look-up under way."""
    runtime = call.runtime
    outcome = Outcome(row["outcome"])
    # Live: the job looks once the look-up under way has had its whole timeout to finish.
    live_delay = runtime.settings.provider_timeout_seconds + 5
    delay = live_delay if call.principal.live else sandbox_pending_seconds

    async def write(conn: AsyncConnection) -> None:
        if await repository.insert_once(conn, row) and row["state"] == "pending":
            await enqueue(conn, COMPLETE_TASK, {"check_id": row["id"]}, delay_seconds=delay)

    content = await finish_call(
        call,
        billable=OUTCOMES[outcome].billable,
        response_code=OUTCOMES[outcome].response_code,
        subject=subject,
        render=render,
        description=description,
        write=write,
    )
    if in_flight is not None:
        finish_in_background(runtime, kind, row["id"], in_flight)
    return content
