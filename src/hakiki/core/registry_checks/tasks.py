"""The job that finishes a pending registry check: its category asks the registry again (live)
or gives the documented completion (sandbox); an unavailable registry is retried until the
last attempt, which ends the check failed (and refunded)."""

from __future__ import annotations

from typing import Any

from hakiki.core.database import read
from hakiki.core.envelope import Outcome
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.core.registry_checks import repository
from hakiki.core.registry_checks.completion import finalise
from hakiki.core.registry_checks.kinds import KINDS

COMPLETE_TASK = "registry_checks.complete"


class RegistryUnavailable(Exception):
    """Raised to retry later: the registry is still down."""


@task(COMPLETE_TASK, max_attempts=4, backoff=(30, 120, 600))
async def complete_check(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    async with read(runtime.db) as conn:
        row = await repository.get(conn, payload["check_id"])
    if row is None:
        raise PermanentError("no such registry check")
    if row["state"] != "pending":
        return  # finished already (by the look-up that outlived the budget, or an earlier run)
    kind = KINDS.get(row["category"])
    if kind is None:
        raise PermanentError(f"no registry check category {row['category']!r} is registered")
    final = await kind.conclude(runtime, row, await kind.ask_again(runtime, row))
    if final.outcome is Outcome.SOURCE_UNAVAILABLE and not context.final_attempt:
        raise RegistryUnavailable(final.message)
    await finalise(runtime, kind, row, final)
