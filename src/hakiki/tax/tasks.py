"""The job that finishes a pending tax check (live: asks the registry again; sandbox: the
deterministic completion of a last-digit-7 number)."""

from __future__ import annotations

from typing import Any

from hakiki.core.database import read
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.tax import repository, sandbox
from hakiki.tax.completion import COMPLETE_TASK, finalise, stored_query
from hakiki.tax.providers.base import LookupOutcome, TaxLookup
from hakiki.tax.providers.registry import TaxProviders


class RegistryUnavailable(Exception):
    """Raised to retry later: the registry is still down."""


@task(COMPLETE_TASK, max_attempts=4, backoff=(30, 120, 600))
async def complete_check(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    async with read(runtime.db) as conn:
        row = await repository.get(conn, payload["check_id"])
    if row is None:
        raise PermanentError("no such tax check")
    if row["state"] != "pending":
        return  # finished already (by the look-up that outlived the budget, or an earlier run)
    query = stored_query(runtime, row)
    if row["environment"] != "live":
        await finalise(runtime, row, sandbox.completed(query))
        return
    provider = runtime.part(TaxProviders).find(query)
    if provider is None:  # the operator removed it since: the check cannot finish
        gone = TaxLookup(LookupOutcome.UNAVAILABLE, row["provider"], message="provider removed")
        await finalise(runtime, row, gone)
        return
    result = await provider.lookup(query)
    if result.outcome is LookupOutcome.UNAVAILABLE and not context.final_attempt:
        raise RegistryUnavailable(result.message)
    await finalise(runtime, row, result)
