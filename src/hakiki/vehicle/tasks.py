"""The job that finishes a pending vehicle check (live: asks the registry again; sandbox: the
deterministic completion of a last-digit-7 identifier)."""

from __future__ import annotations

from typing import Any

from hakiki.core.database import read
from hakiki.core.envelope import Outcome
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.vehicle import repository, sandbox
from hakiki.vehicle.completion import COMPLETE_TASK, finalise, stored_request
from hakiki.vehicle.lookup import Looked, looked_from
from hakiki.vehicle.registry import RegistryOutcome, VehicleRegistries
from hakiki.vehicle.service import search_by


class RegistryUnavailable(Exception):
    """Raised to retry later: the registry is still down."""


@task(COMPLETE_TASK, max_attempts=4, backoff=(30, 120, 600))
async def complete_check(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    async with read(runtime.db) as conn:
        row = await repository.get(conn, payload["check_id"])
    if row is None:
        raise PermanentError("no such vehicle check")
    if row["state"] != "pending":
        return  # finished already
    decoded, owner_name = stored_request(runtime, row)
    if row["environment"] != "live":
        looked = sandbox.VERIFY.completed(sandbox.VehicleQuery(decoded, owner_name))
        await finalise(runtime, row, looked)
        return
    registry = runtime.part(VehicleRegistries).registry
    if registry is None:  # the operator removed it since: the check cannot finish
        gone = Looked(Outcome.SOURCE_UNAVAILABLE, row["provider"], row["reference"], None)
        await finalise(runtime, row, gone)
        return
    result = await registry.lookup(search_by(decoded), decoded.value)
    if result.outcome is RegistryOutcome.UNAVAILABLE and not context.final_attempt:
        raise RegistryUnavailable(result.message)
    await finalise(runtime, row, looked_from(result, row["reference"]))
