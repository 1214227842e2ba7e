"""Finishing a vehicle check that answered PENDING: one transaction moves it to its final
state (conditionally: whoever finalises second changes nothing), reverses the pending charge
when the end is not billable (02, 09), and emits verification.completed or .failed.

Used by the look-up that outlived the sync budget and by the job (vehicle/tasks.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from hakiki.core import billing
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.core.runtime import Runtime
from hakiki.engines.vehicle import Decoded, decode
from hakiki.vehicle import repository
from hakiki.vehicle.lookup import Looked, looked_from
from hakiki.vehicle.registry import RegistryOutcome, RegistryResult
from hakiki.vehicle.results import conclude
from hakiki.vehicle.schemas import VehicleData
from hakiki.webhooks.service import emit

logger = logging.getLogger("hakiki.vehicle")

COMPLETE_TASK = "vehicle.complete"


def stored_request(runtime: Runtime, row: dict[str, Any]) -> tuple[Decoded, str | None]:
    """The identifier (decoded again: the engine is deterministic) and the owner name."""
    request = json.loads(runtime.vault.decrypt(row["request_encrypted"]))
    return decode(request["field"], request["value"]), request["owner_name"]


def event_data(row: dict[str, Any], outcome: Outcome, data: VehicleData) -> dict[str, Any]:
    """References, the outcome and the vehicle's description; never the owner's name or ID,
    nor the logbook number (docs/api.md#vehicle)."""
    vehicle = data.vehicle
    return {
        "reference": row["reference"],
        "request_id": row["request_id"],
        "status": outcome.value,
        "response_code": OUTCOMES[outcome].response_code,
        "state": data.state,
        "found": data.status == "FOUND",
        "identifier_kind": data.identifier.kind,
        "owner_match": data.owner_comparison.match if data.owner_comparison else None,
        "vehicle": None
        if vehicle is None
        else {
            "make": vehicle.make,
            "model": vehicle.model,
            "body_type": vehicle.body_type,
            "colour": vehicle.colour,
            "year_of_manufacture": vehicle.year_of_manufacture,
            "registration_date": vehicle.registration_date,
            "caveats": len(vehicle.caveats),
        },
        "warnings": data.warnings,
    }


async def finalise(runtime: Runtime, row: dict[str, Any], looked: Looked) -> bool:
    """Move a pending check to its final state; False (and nothing done) when it was final."""
    decoded, owner_name = stored_request(runtime, row)
    threshold = runtime.settings.name_match_threshold
    outcome, data = conclude(decoded, looked, owner_name, threshold)
    async with transaction(runtime.db) as conn:
        changed = await repository.finalise(
            conn,
            row["id"],
            state=data.state,
            outcome=outcome.value,
            provider_reference=looked.provider_reference,
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
                f"Refund: vehicle check {row['reference']} ended {outcome.value}",
            )
        await emit(
            conn,
            org_id=row["org_id"],
            environment=row["environment"],
            event_type=f"verification.{data.state}",
            resource_id=row["reference"],
            data=event_data(row, outcome, data),
        )
    logger.info("vehicle check %s ended %s", row["id"], outcome.value)
    return True


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
            await finalise(runtime, row, looked_from(result, row["reference"]))

    task = asyncio.create_task(finish(), name=f"vehicle-finish-{check_id}")
    _background.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task[None]) -> None:
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("finishing a vehicle check in the background failed: %r", task.exception())
