"""The job that finishes a pending verification (live: asks the registry again; sandbox: the
deterministic completion of a last-digit-7 number)."""

from __future__ import annotations

from typing import Any

from hakiki.core.database import read
from hakiki.core.envelope import Outcome
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.identity import sandbox
from hakiki.identity.channels import find_channel
from hakiki.identity.providers.base import LookupOutcome
from hakiki.identity.providers.registry import Providers
from hakiki.identity.verify import Verified, sandbox_record
from hakiki.kyc import repository
from hakiki.kyc.completion import COMPLETE_TASK, finalise, from_lookup, stored_request


class RegistryUnavailable(Exception):
    """Raised to retry later: the registry is still down."""


@task(COMPLETE_TASK, max_attempts=4, backoff=(30, 120, 600))
async def complete_verification(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    async with read(runtime.db) as conn:
        row = await repository.get(conn, payload["verification_id"])
    if row is None:
        raise PermanentError("no such verification")
    if row["state"] != "pending":
        return  # finished already (by the look-up that outlived the budget, or an earlier run)
    channel = find_channel(row["channel"], row["country"])
    if channel is None:
        raise PermanentError(f"unknown channel {row['country']} {row['channel']}")
    number, names = stored_request(runtime, row)
    if row["environment"] != "live":
        record = sandbox_record(channel, number, names)
        verified = Verified(Outcome.VERIFIED, sandbox.PROVIDER, row["reference"], record)
        await finalise(runtime, row, verified, None)
        return
    provider = runtime.part(Providers).find(channel.country, channel.code)
    if provider is None:  # the operator removed it since: the verification cannot finish
        unavailable = Verified(Outcome.SOURCE_UNAVAILABLE, row["provider"], row["reference"], None)
        await finalise(runtime, row, unavailable, None)
        return
    result = await provider.lookup(
        channel.country,
        channel.code,
        number,
        last_name=names.last_name,
        first_name=names.first_name,
    )
    if result.outcome is LookupOutcome.UNAVAILABLE and not context.final_attempt:
        raise RegistryUnavailable(result.message)
    await finalise(runtime, row, *from_lookup(result, row["reference"]))
