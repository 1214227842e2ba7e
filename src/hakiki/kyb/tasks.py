"""The job that finishes a pending KYB check (live: asks the registry again; sandbox: the
deterministic completion of a last-digit-7 number)."""

from __future__ import annotations

import json
from typing import Any

from hakiki.core.database import read
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.kyb import mock_registry, repository
from hakiki.kyb.completion import COMPLETE_TASK, finalise
from hakiki.kyb.providers.base import RegistryOutcome, RegistryResult
from hakiki.kyb.providers.registry import Registries
from hakiki.kyb.queries import restored


class RegistryUnavailable(Exception):
    """Raised to retry later: the registry is still down."""


@task(COMPLETE_TASK, max_attempts=4, backoff=(30, 120, 600))
async def complete_check(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    async with read(runtime.db) as conn:
        row = await repository.get(conn, payload["check_id"])
    if row is None:
        raise PermanentError("no such KYB check")
    if row["state"] != "pending":
        return  # finished already
    query, _, _ = restored(json.loads(runtime.vault.decrypt(row["request_encrypted"])))
    if row["environment"] != "live":
        await finalise(runtime, row, mock_registry.completed(query))
        return
    provider = runtime.part(Registries).named(row["provider"])
    if provider is None:  # the operator removed it since: the check cannot finish
        gone = RegistryResult(
            RegistryOutcome.UNAVAILABLE, row["provider"], message="not configured"
        )
        await finalise(runtime, row, gone)
        return
    result = await provider.lookup(query)
    if result.outcome is RegistryOutcome.UNAVAILABLE and not context.final_attempt:
        raise RegistryUnavailable(result.message)
    await finalise(runtime, row, result)
