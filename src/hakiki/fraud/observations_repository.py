"""Queries of ``identity_observations``: what was seen with identity numbers."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.fraud.tables import identity_observations as seen


async def insert_observations(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """Insert observation rows, skipping those already noted (once per organisation)."""
    if not rows:
        return
    dialect: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    await conn.execute(dialect.insert(seen).on_conflict_do_nothing(), rows)


_SEEN_WITH = select(seen.c.identifier_key, seen.c.kind, seen.c.value_key, seen.c.org_id).where(
    seen.c.environment == bindparam("environment"),
    seen.c.identifier_key.in_(bindparam("keys", expanding=True)),
)  # built once: it runs on every ID scan
# Distinct identity numbers seen with each of some values (phones), by the value index.
_NUMBERS_SEEN_WITH = (
    select(seen.c.value_key, func.count(seen.c.identifier_key.distinct()))
    .where(
        seen.c.environment == bindparam("environment"),
        seen.c.kind == bindparam("kind"),
        seen.c.value_key.in_(bindparam("values", expanding=True)),
    )
    .group_by(seen.c.value_key)
)


async def count_numbers_seen_with(
    conn: AsyncConnection, environment: str, kind: str, value_keys: list[str]
) -> dict[str, int]:
    """How many distinct identity numbers each value (of ``kind``) was seen with."""
    values = {"environment": environment, "kind": kind, "values": sorted(set(value_keys))}
    return {str(v): int(n) for v, n in await conn.execute(_NUMBERS_SEEN_WITH, values)}


async def observations_of(
    conn: AsyncConnection, environment: str, identifier_keys: list[str]
) -> list[tuple[str, str, str, str]]:
    """(identifier key, kind, value key, organisation) of everything seen with these numbers."""
    values = {"environment": environment, "keys": sorted(set(identifier_keys))}
    rows = (await conn.execute(_SEEN_WITH, values)).all()
    return [(str(key), str(kind), str(value), str(org)) for key, kind, value, org in rows]
