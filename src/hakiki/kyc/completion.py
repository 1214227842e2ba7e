"""Finishing a verification: from its registry answer to its final, never-changing state.

Used by the call itself (answers within the sync budget), by the look-up that outlived the
budget, and by the job. ``finalise`` is one transaction: the conditional update from pending,
the refund of a pending charge that bought no answer, and the webhook event
(verification.completed or verification.failed).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.envelope import OUTCOMES, Outcome, data_status, envelope_fields
from hakiki.core.runtime import Runtime
from hakiki.identity.providers.base import LookupOutcome, LookupResult
from hakiki.identity.verify import Verified, compare_record, identity_of, verified_from
from hakiki.kyc import repository
from hakiki.kyc.schemas import DocumentRef, KycBilling, KycData, KycResult, MrzSummary, State
from hakiki.webhooks.service import emit

logger = logging.getLogger("hakiki.kyc")

COMPLETE_TASK = "kyc.complete"

_FAILED = (Outcome.SOURCE_UNAVAILABLE, Outcome.FAILED)


@dataclass(frozen=True)
class Names:
    """The request's names, kept (encrypted) with a pending verification for its completion."""

    compare: bool
    first_name: str | None
    last_name: str | None


def state_of(outcome: Outcome) -> State:
    if outcome is Outcome.PENDING:
        return "pending"
    return "failed" if outcome in _FAILED else "completed"


def from_lookup(result: LookupResult, reference: str) -> tuple[Verified, str | None]:
    """The provider's answer under our ``reference`` (the one callers poll), and the
    provider's own reference."""
    verified = verified_from(result, reference)
    return (
        Verified(verified.outcome, verified.provider, reference, verified.record),
        result.provider_reference,
    )


def conclude(
    verified: Verified,
    names: Names,
    document: DocumentRef,
    mrz: MrzSummary | None,
    threshold: float,
) -> tuple[Outcome, KycData]:
    """The outcome (MISMATCH when compare fails) and the result's data."""
    outcome = verified.outcome
    identity = comparison = None
    if verified.record is not None:
        identity = identity_of(verified.record)
        if names.compare:
            comparison = compare_record(names, verified.record, threshold)
            if not comparison.match:
                outcome = Outcome.MISMATCH
    data = KycData(
        status=data_status(outcome, verified.record is not None),
        state=state_of(outcome),
        document=document,
        identity=identity,
        comparison=comparison,
        mrz=mrz,
    )
    return outcome, data


def stored_request(runtime: Runtime, row: dict[str, Any]) -> tuple[str, Names]:
    """The number and names a verification row keeps for its completion."""
    request = json.loads(runtime.vault.decrypt(row["request_encrypted"]))
    names = Names(bool(request["compare"]), request["first_name"], request["last_name"])
    return str(request["number"]), names


def stored_data(runtime: Runtime, row: dict[str, Any]) -> KycData:
    return KycData.model_validate_json(runtime.vault.decrypt(row["data_encrypted"]))


async def billing_of(conn: AsyncConnection, row: dict[str, Any], currency: str) -> KycBilling:
    charge = await billing.charge_of(conn, row["org_id"], row["request_id"])
    reversal = await billing.refund_of(conn, charge)
    return KycBilling.of(charge, currency, reversal_transaction_id=reversal)


def result_of(
    runtime: Runtime, row: dict[str, Any], request_id: str, billing: KycBilling
) -> KycResult:
    """A stored verification as the API shows it."""
    return KycResult(
        request_id=request_id,
        live=row["environment"] == "live",
        reference=row["reference"],
        provider=row["provider"],
        billing=billing,
        data=stored_data(runtime, row),
        **envelope_fields(Outcome(row["outcome"])),
    )


async def finalise(
    runtime: Runtime, row: dict[str, Any], verified: Verified, provider_reference: str | None
) -> bool:
    """Move a pending verification to its final state; False (and nothing done) when it is
    final already. A live charge for an answer that is not billable (02, 09) is reversed."""
    _, names = stored_request(runtime, row)
    pending = stored_data(runtime, row)
    outcome, data = conclude(
        verified, names, pending.document, pending.mrz, runtime.settings.name_match_threshold
    )
    async with transaction(runtime.db) as conn:
        changed = await repository.finalise(
            conn,
            row["id"],
            state=data.state,
            outcome=outcome.value,
            provider_reference=provider_reference,
            data_encrypted=runtime.vault.encrypt(data.model_dump_json()),
            completed_at=utcnow(),
            provider=verified.provider,  # the one that answered, after any fallback
        )
        if not changed:
            return False
        if row["environment"] == "live" and not OUTCOMES[outcome].billable:
            await billing.refund(
                conn,
                row["org_id"],
                row["request_id"],
                f"Refund: KYC {row['document']} {row['reference']} ended {outcome.value}",
            )
        await emit(
            conn,
            org_id=row["org_id"],
            environment=row["environment"],
            event_type=f"verification.{data.state}",
            resource_id=row["reference"],
            data=event_data(row, outcome, data),
        )
    logger.info("verification %s ended %s", row["id"], outcome.value)
    return True


def event_data(row: dict[str, Any], outcome: Outcome, data: KycData) -> dict[str, Any]:
    """The event names the verification and its outcome, without personal data: receivers
    fetch the record with GET /v3/kyc/status/{reference}."""
    return {
        "reference": row["reference"],
        "status": outcome.value,
        "response_code": OUTCOMES[outcome].response_code,
        "state": data.state,
        "found": data.status == "FOUND",
        "document": data.document.model_dump(),
        "request_id": row["request_id"],
    }


_background: set[asyncio.Task[None]] = set()


def finish_in_background(
    runtime: Runtime, verification_id: str, lookup: asyncio.Task[LookupResult]
) -> None:
    """Let the look-up that outlived the sync budget finish the verification when it answers.
    An unavailable registry is left to the job, which retries."""

    async def finish() -> None:
        result = await lookup
        if result.outcome is LookupOutcome.UNAVAILABLE:
            return
        async with read(runtime.db) as conn:
            row = await repository.get(conn, verification_id)
        if row is not None:
            await finalise(runtime, row, *from_lookup(result, row["reference"]))

    task = asyncio.create_task(finish(), name=f"kyc-finish-{verification_id}")
    _background.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task[None]) -> None:
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("finishing a verification in the background failed: %r", task.exception())
