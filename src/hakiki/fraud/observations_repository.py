"""Queries of ``identity_observations``: what was seen with identity numbers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, false, select, true
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.fraud.tables import identity_observations as seen


async def insert_observations(
    conn: AsyncConnection, rows: list[dict[str, Any]], *, from_report: bool = False
) -> None:
    """Insert observation rows, skipping those already noted (once per organisation); a
    report's rows turn an organisation's earlier sighting of the same value into the report's
    (kept with it, not expired)."""
    if not rows:
        return
    dialect: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(seen)
    if from_report:
        statement = statement.on_conflict_do_update(
            index_elements=[c.name for c in seen.primary_key.columns],
            set_={"from_report": true()},
        )
    else:
        statement = statement.on_conflict_do_nothing()
    await conn.execute(statement, [{**row, "from_report": from_report} for row in rows])


_SEEN_WITH = select(seen.c.identifier_key, seen.c.kind, seen.c.value_key, seen.c.org_id).where(
    seen.c.environment == bindparam("environment"),
    seen.c.identifier_key.in_(bindparam("keys", expanding=True)),
)  # built once: it runs on every ID scan
# The identity numbers seen with each of some values (phones), and by whom, by the value index.
_NUMBERS_SEEN_WITH = select(seen.c.value_key, seen.c.identifier_key, seen.c.org_id).where(
    seen.c.environment == bindparam("environment"),
    seen.c.kind == bindparam("kind"),
    seen.c.value_key.in_(bindparam("values", expanding=True)),
)


async def numbers_seen_with(
    conn: AsyncConnection, environment: str, kind: str, value_keys: list[str]
) -> list[tuple[str, str, str]]:
    """(value key, identity number key, organisation) of every sighting of these values."""
    values = {"environment": environment, "kind": kind, "values": sorted(set(value_keys))}
    rows = (await conn.execute(_NUMBERS_SEEN_WITH, values)).all()
    return [(str(value), str(number), str(org)) for value, number, org in rows]


async def observations_of(
    conn: AsyncConnection, environment: str, identifier_keys: list[str]
) -> list[tuple[str, str, str, str]]:
    """(identifier key, kind, value key, organisation) of everything seen with these numbers."""
    values = {"environment": environment, "keys": sorted(set(identifier_keys))}
    rows = (await conn.execute(_SEEN_WITH, values)).all()
    return [(str(key), str(kind), str(value), str(org)) for key, kind, value, org in rows]


async def purge_first_seen_before(conn: AsyncConnection, cutoff: datetime) -> int:
    """Delete the sightings of scans and KYC calls first seen before ``cutoff``; a report's
    are kept. How many were deleted."""
    statement = delete(seen).where(seen.c.first_seen < cutoff, seen.c.from_report == false())
    result = await conn.execute(statement)
    return int(result.rowcount or 0)
