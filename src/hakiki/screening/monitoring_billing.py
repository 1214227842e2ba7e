"""The monthly price of ongoing monitoring: each active live monitored subject is charged once
per calendar month (price key ``screening.monitoring.month``, HAKIKI_PRICES overrides it),
through core/billing's job verbs: per organisation, ``reserve`` the batch, ``charge_units`` one
debit per subject referenced ``<subject id>:<month>``, ``close`` the rest. A row of
``monitoring_charges`` (unique per subject and month) is written in the debit's transaction, so
a rerun never charges twice. Sandbox subjects are free. A subject the wallet cannot pay is not
marked: the next day's run tries again."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing
from hakiki.core.auth import Principal
from hakiki.core.clock import utcnow
from hakiki.core.database import transaction
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime
from hakiki.screening import monitoring_repository as repository
from hakiki.screening.monitoring_endpoints import MONTHLY_PRICE_KEY

BATCH = 500
HOLD_SECONDS = 600


async def bill_month(runtime: Runtime, month: str) -> int:
    """Charge every active live subject not yet charged for ``month`` (``YYYY-MM``); how many
    were charged now."""
    price = runtime.price(MONTHLY_PRICE_KEY)
    if price <= 0:
        return 0
    charged = 0
    after = ""
    while True:
        async with transaction(runtime.db) as conn:
            rows = await repository.uncharged_live_subjects(conn, month, after=after, limit=BATCH)
            if not rows:
                return charged
            after = rows[-1]["id"]
            by_org: dict[tuple[str, str], list[str]] = defaultdict(list)
            for row in rows:
                by_org[(row["org_id"], row["currency"])].append(row["id"])
            for (org_id, currency), ids in by_org.items():
                charged += await _charge_org(conn, org_id, currency, ids, month, price)


async def _charge_org(
    conn: AsyncConnection, org_id: str, currency: str, ids: list[str], month: str, price: int
) -> int:
    owner = Principal(
        key_id="monitoring",
        client_id="monitoring",
        environment="live",
        scopes=frozenset(),
        org_id=org_id,
        org_name="",
        approved=True,
        currency=currency,
    )
    try:
        hold = await billing.reserve(
            conn, owner, price * len(ids), f"monitoring:{month}", HOLD_SECONDS
        )
    except ApiError:  # short of the whole batch: each subject the wallet covers is charged
        hold = None
    hold_id = hold.id if hold else None
    outcomes = await billing.charge_units(
        conn,
        org_id=org_id,
        currency=currency,
        hold_id=hold_id,
        price_key=MONTHLY_PRICE_KEY,
        price=price,
        units=[
            billing.Unit(f"{subject_id}:{month}", f"Ongoing monitoring {month}: {subject_id}")
            for subject_id in ids
        ],
        finished=len(ids),
    )
    await billing.close(conn, hold_id, org_id)
    now = utcnow()
    rows: list[dict[str, Any]] = [
        {
            "monitored_subject_id": subject_id,
            "month": month,
            "org_id": org_id,
            "transaction_id": outcome.transaction_id,
            "amount": outcome.amount,
            "created_at": now,
        }
        for subject_id, outcome in zip(ids, outcomes, strict=True)
        if isinstance(outcome, billing.Charge)
    ]
    await repository.insert_charges(conn, rows)
    return len(rows)
