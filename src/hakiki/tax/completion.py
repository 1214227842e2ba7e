"""Finishing a tax check: from the registry's answer to its final, never-changing state.

Used by the call itself, by the look-up that outlived the sync budget, and by the job.
``finalise`` is one transaction: the conditional update from pending, the refund of a pending
charge that bought no answer, and the webhook event (verification.completed or .failed).
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import date, datetime, timedelta, timezone
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.envelope import OUTCOMES, Outcome, envelope_fields
from hakiki.core.runtime import Runtime
from hakiki.tax import repository
from hakiki.tax.conclude import Concluded, Data, conclude
from hakiki.tax.providers.base import LookupOutcome, TaxLookup, TaxQuery
from hakiki.tax.schemas import TaxBilling, TaxData, TaxResult
from hakiki.webhooks.service import emit

logger = logging.getLogger("hakiki.tax")

COMPLETE_TASK = "tax.complete"
EAST_AFRICA = timezone(timedelta(hours=3))  # KE, UG and TZ: certificates expire by local date
_DATA = TypeAdapter[Data](TaxData)


def today() -> date:
    return datetime.now(EAST_AFRICA).date()


def message_of(concluded: Concluded) -> str:
    return concluded.message or OUTCOMES[concluded.outcome].message


def stored_query(runtime: Runtime, row: dict[str, Any]) -> TaxQuery:
    return TaxQuery.from_dict(json.loads(runtime.vault.decrypt(row["query_encrypted"])))


def stored_data(runtime: Runtime, row: dict[str, Any]) -> Data:
    return _DATA.validate_json(runtime.vault.decrypt(row["data_encrypted"]))


async def billing_of(conn: AsyncConnection, row: dict[str, Any], currency: str) -> TaxBilling:
    charge = await billing.charge_of(conn, row["org_id"], row["request_id"])
    reversal = await billing.refund_of(conn, charge)
    return TaxBilling.of(charge, currency, reversal_transaction_id=reversal)


def result_of(
    runtime: Runtime, row: dict[str, Any], request_id: str, charged: TaxBilling
) -> TaxResult:
    """A stored check as the API shows it."""
    return TaxResult(
        request_id=request_id,
        live=row["environment"] == "live",
        reference=row["reference"],
        provider=row["provider"],
        billing=charged,
        data=stored_data(runtime, row),
        **{**envelope_fields(Outcome(row["outcome"])), "message": row["message"]},
    )


async def finalise(runtime: Runtime, row: dict[str, Any], lookup: TaxLookup) -> bool:
    """Move a pending check to its final state; False (and nothing done) when it is final
    already. A live charge for an answer that is not billable (02, 09) is reversed."""
    concluded = conclude(stored_query(runtime, row), lookup, today())
    outcome, data = concluded.outcome, concluded.data
    async with transaction(runtime.db) as conn:
        changed = await repository.finalise(
            conn,
            row["id"],
            state=data.state,
            outcome=outcome.value,
            message=message_of(concluded),
            provider_reference=lookup.provider_reference,
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
                f"Refund: tax {row['check_kind']} check {row['reference']} ended {outcome.value}",
            )
        await emit(
            conn,
            org_id=row["org_id"],
            environment=row["environment"],
            event_type=f"verification.{data.state}",
            resource_id=row["reference"],
            data=event_data(row, outcome, data),
        )
    logger.info("tax check %s ended %s", row["id"], outcome.value)
    return True


def event_data(row: dict[str, Any], outcome: Outcome, data: Data) -> dict[str, Any]:
    """The event names the check and its outcome, never a PIN or a name: receivers fetch the
    result with GET /v3/tax/status/{reference}."""
    return {
        "reference": row["reference"],
        "status": outcome.value,
        "response_code": OUTCOMES[outcome].response_code,
        "state": data.state,
        "found": data.status == "FOUND",
        "check": {"type": f"tax.{data.check}", "country": data.country},
        "verdict": data.verdict,
        "request_id": row["request_id"],
    }


_background: set[asyncio.Task[None]] = set()


def finish_in_background(runtime: Runtime, check_id: str, lookup: asyncio.Task[TaxLookup]) -> None:
    """Let the look-up that outlived the sync budget finish the check when it answers. An
    unavailable registry is left to the job, which retries."""

    async def finish() -> None:
        result = await lookup
        if result.outcome is LookupOutcome.UNAVAILABLE:
            return
        async with read(runtime.db) as conn:
            row = await repository.get(conn, check_id)
        if row is not None:
            await finalise(runtime, row, result)

    task = asyncio.create_task(finish(), name=f"tax-finish-{check_id}")
    _background.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task[None]) -> None:
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("finishing a tax check in the background failed: %r", task.exception())
