"""Moving a candidate request through its state machine (engines/background/states): every
move is a compare-and-set on the status, an entry on the append-only timeline and a
``background_check.updated`` webhook (``.completed`` for the last move), in the caller's
transaction, which has locked the request first (``repository.lock_request``: the writers
here take only a ``LockedRequest``). Per-check charges and the reservation's release happen
here too."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.background import repository
from hakiki.background.repository import LockedRequest
from hakiki.core import billing
from hakiki.core.billing import Charge
from hakiki.core.crypto import Vault
from hakiki.core.tables import organisations
from hakiki.engines.background.states import next_state, overall_result
from hakiki.webhooks.service import emit


def unit_reference(reference: str, code: str) -> str:
    return "bgk_" + hashlib.sha256(f"{reference}:{code}".encode()).hexdigest()[:32]


def event_data(row: dict[str, Any]) -> dict[str, Any]:
    """What a webhook carries: references and states, nothing personal (fetch the rest)."""
    return {
        "reference": row["reference"],
        "status": row["status"],
        "result": row["result"],
        "package_id": row["package_id"],
    }


async def note(
    conn: AsyncConnection, row: LockedRequest, at: datetime, event: str, detail: str
) -> None:
    """A timeline entry that does not move the request (a check's result, an e-mail)."""
    await repository.append(conn, row, at, event, row["status"], detail)


async def announce(conn: AsyncConnection, row: LockedRequest, event_type: str) -> None:
    """The webhook event (its sequence per request is safe under the request's lock)."""
    await emit(
        conn,
        org_id=row["org_id"],
        environment=row["environment"],
        event_type=event_type,
        resource_id=row["reference"],
        data=event_data(row),
    )


async def transition(
    conn: AsyncConnection,
    row: LockedRequest,
    event: str,
    at: datetime,
    detail: str,
    values: dict[str, Any] | None = None,
) -> LockedRequest | None:
    """Move ``row`` by ``event`` if it is still in the status it was read in; the row as it
    is now, or None when something else moved it first (RefusedTransition when the move is
    not allowed from its status)."""
    target = next_state(row["status"], event)
    changes = {"status": target, "updated_at": at, **(values or {})}
    if not await repository.move(conn, row, changes):
        return None
    moved = LockedRequest(row | changes)
    await repository.append(conn, moved, at, event, target, detail)
    await announce(conn, moved, "background_check.updated")
    return moved


async def charge_check(
    conn: AsyncConnection, row: dict[str, Any], check: dict[str, Any]
) -> Charge | None:
    """One debit for a check that ran (live, priced): drawn from the request's reservation,
    its reference unique per check (a digest of ``<reference>:<code>``, within the ledger's
    40 characters) so a rerun never charges twice."""
    price = int(check["price"])
    if row["environment"] != "live" or price <= 0:
        return None
    outcomes = await billing.charge_units(
        conn,
        org_id=row["org_id"],
        currency=row["currency"],
        hold_id=row["hold_id"],
        price_key=f"background.check.{check['code']}",
        price=price,
        units=[
            billing.Unit(
                unit_reference(row["reference"], check["code"]),
                f"Background check {row['reference']}: {check['code']}",
            )
        ],
        finished=1,
    )
    outcome = outcomes[0]
    return outcome if isinstance(outcome, Charge) else None


async def finish_check(
    conn: AsyncConnection,
    vault: Vault,
    row: LockedRequest,
    check: dict[str, Any],
    *,
    result: str,
    evidence: dict[str, Any],
    at: datetime,
    billable: bool,
    recorded_by: str | None = None,
) -> LockedRequest | None:
    """Record a check's result (once: a check already completed is left alone), charge it,
    note it on the timeline, and complete the request when it was the last one. The request
    as it is now, or None when the check was already recorded."""
    charge = await charge_check(conn, row, check) if billable else None
    recorded = await repository.update_check(
        conn,
        row,
        check["code"],
        {
            "status": "completed",
            "result": result,
            "evidence_encrypted": vault.encrypt(json.dumps(evidence)),
            "completed_at": at,
            "recorded_by_encrypted": vault.encrypt(recorded_by) if recorded_by else None,
            "transaction_id": charge.transaction_id if charge else None,
        },
        unless_status="completed",
    )
    if not recorded:
        return None
    if charge is not None:
        row = LockedRequest(row | {"charged_amount": int(row["charged_amount"]) + charge.amount})
        await repository.update_request(conn, row, {"charged_amount": row["charged_amount"]})
    # Who recorded it stays on the check, encrypted: the timeline is stored in clear.
    await note(conn, row, at, "check_completed", f"{check['code']}: {result}")
    await announce(conn, row, "background_check.updated")
    return await complete_if_done(conn, row, at)


async def complete_if_done(
    conn: AsyncConnection, row: LockedRequest, at: datetime
) -> LockedRequest:
    checks = await repository.checks_of(conn, row["id"])
    if any(c["status"] != "completed" for c in checks):
        return row
    result = overall_result([str(c["result"]) for c in checks])
    moved = await transition(
        conn,
        row,
        "complete",
        at,
        f"every check has a result: {result}",
        {"result": result, "completed_at": at, "hold_id": None},
    )
    if moved is None:
        return row
    await billing.close(conn, row["hold_id"], row["org_id"])
    await announce(conn, moved, "background_check.completed")
    return moved


async def org_name(conn: AsyncConnection, org_id: str) -> str:
    query = select(organisations.c.name).where(organisations.c.id == org_id)
    return str((await conn.execute(query)).scalar_one())
