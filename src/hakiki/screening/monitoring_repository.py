"""Queries of ongoing monitoring: monitored subjects, the list entries last screened, runs and
monthly charges."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.tables import organisations
from hakiki.screening.monitoring_tables import monitored_subjects as s
from hakiki.screening.monitoring_tables import monitoring_charges as c
from hakiki.screening.monitoring_tables import monitoring_list_entries as e
from hakiki.screening.monitoring_tables import monitoring_list_state as st
from hakiki.screening.monitoring_tables import monitoring_runs as r

# Subjects ------------------------------------------------------------------------------------


async def insert_subject(conn: AsyncConnection, values: dict[str, Any]) -> None:
    await conn.execute(insert(s).values(**values))


async def find_active(
    conn: AsyncConnection, org_id: str, environment: str, *, column: str, value: str
) -> dict[str, Any] | None:
    """The organisation's active subject with this reference hash or subject key."""
    row = (
        await conn.execute(
            select(s)
            .where(
                s.c.org_id == org_id,
                s.c.environment == environment,
                s.c.status == "active",
                s.c[column] == value,
            )
            .order_by(s.c.created_at)
            .limit(1)
        )
    ).first()
    return dict(row._mapping) if row else None


async def get_subject(
    conn: AsyncConnection, org_id: str, environment: str, subject_id: str
) -> dict[str, Any] | None:
    row = (
        await conn.execute(
            select(s).where(
                s.c.id == subject_id, s.c.org_id == org_id, s.c.environment == environment
            )
        )
    ).first()
    return dict(row._mapping) if row else None


def _listed(org_id: str, environment: str, reference_hash: str | None) -> list[Any]:
    conditions = [s.c.org_id == org_id, s.c.environment == environment, s.c.status == "active"]
    if reference_hash is not None:
        conditions.append(s.c.reference_hash == reference_hash)
    return conditions


async def count_subjects(
    conn: AsyncConnection, org_id: str, environment: str, reference_hash: str | None
) -> int:
    query = select(func.count()).where(*_listed(org_id, environment, reference_hash))
    return int((await conn.execute(query)).scalar_one())


async def list_subjects(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    reference_hash: str | None,
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(s)
        .where(*_listed(org_id, environment, reference_hash))
        .order_by(s.c.created_at.desc(), s.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(row._mapping) for row in rows]


async def delete_subject(conn: AsyncConnection, subject_id: str, now: datetime) -> bool:
    result = await conn.execute(
        update(s)
        .where(s.c.id == subject_id, s.c.status == "active")
        .values(status="deleted", deleted_at=now)
    )
    return bool(result.rowcount)


async def subject_by_id(conn: AsyncConnection, subject_id: str) -> dict[str, Any] | None:
    """A subject by its id alone (the baseline job's; never an answer to a caller)."""
    row = (await conn.execute(select(s).where(s.c.id == subject_id))).first()
    return dict(row._mapping) if row else None


def _screening(
    now: datetime, lists: list[dict[str, str]], not_run: Iterable[str]
) -> dict[str, Any]:
    return {
        "screened_at": now,
        "screened_lists": lists,
        "checks_not_run": ",".join(not_run) or None,
    }


async def mark_baseline(
    conn: AsyncConnection,
    subject_id: str,
    now: datetime,
    lists: list[dict[str, str]],
    not_run: Iterable[str],
) -> bool:
    """Record the subject's baseline screening, only while it is active and has none: whoever
    records it second (a retried or concurrent baseline job, a full pass first) changes
    nothing. Its row is locked until the transaction ends. Return whether it was recorded."""
    result = await conn.execute(
        update(s)
        .where(s.c.id == subject_id, s.c.status == "active", s.c.screened_at.is_(None))
        .values(**_screening(now, lists, not_run))
    )
    return bool(result.rowcount)


async def mark_screened(
    conn: AsyncConnection,
    subject_ids: Iterable[str],
    now: datetime,
    lists: list[dict[str, str]],
    not_run: Iterable[str],
) -> None:
    """Record a whole screening (a full pass's) of these subjects."""
    ids = list(subject_ids)
    values = _screening(now, lists, not_run)
    for start in range(0, len(ids), 1000):
        await conn.execute(update(s).where(s.c.id.in_(ids[start : start + 1000])).values(**values))


async def active_subjects(
    conn: AsyncConnection, environment: str, org_id: str | None = None
) -> list[dict[str, Any]]:
    """Every active subject of the environment (of one organisation, when given), oldest
    first."""
    conditions = [s.c.environment == environment, s.c.status == "active"]
    if org_id is not None:
        conditions.append(s.c.org_id == org_id)
    rows = await conn.execute(
        select(
            s.c.id,
            s.c.org_id,
            s.c.environment,
            s.c.subject_key,
            s.c.reference_encrypted,
            s.c.subject_encrypted,
            s.c.subject_type,
            s.c.checks,
            s.c.threshold,
        )
        .where(*conditions)
        .order_by(s.c.created_at, s.c.id)
    )
    return [dict(row._mapping) for row in rows]


# What the monitoring last screened -----------------------------------------------------------


async def list_state(conn: AsyncConnection) -> dict[str, str]:
    rows = await conn.execute(select(st.c.list_code, st.c.version))
    return {row.list_code: row.version for row in rows}


async def move_state(
    conn: AsyncConnection, code: str, before: str | None, after: str, now: datetime
) -> bool:
    """Set the list's version from ``before`` (None: no row yet; a concurrent insert raises
    IntegrityError) to ``after``; False when another process moved it first."""
    if before is None:
        await conn.execute(insert(st).values(list_code=code, version=after, updated_at=now))
        return True
    result = await conn.execute(
        update(st)
        .where(st.c.list_code == code, st.c.version == before)
        .values(version=after, updated_at=now)
    )
    return bool(result.rowcount)


async def forget_state(conn: AsyncConnection, code: str, version: str) -> None:
    await conn.execute(delete(st).where(st.c.list_code == code, st.c.version == version))


async def fingerprints(conn: AsyncConnection, code: str) -> dict[str, str]:
    rows = await conn.execute(select(e.c.entity_id, e.c.fingerprint).where(e.c.list_code == code))
    return {row.entity_id: row.fingerprint for row in rows}


async def store_fingerprints(
    conn: AsyncConnection,
    code: str,
    changed: Iterable[tuple[str, str]],
    removed: Iterable[str],
) -> None:
    """Bring the stored entries of ``code`` to the version just screened: the changed ones
    (entity id, fingerprint) written, the removed ones deleted."""
    changed = list(changed)
    ids = [entity_id for entity_id, _ in changed] + list(removed)
    for start in range(0, len(ids), 1000):
        batch = ids[start : start + 1000]
        await conn.execute(delete(e).where(e.c.list_code == code, e.c.entity_id.in_(batch)))
    for start in range(0, len(changed), 1000):
        await conn.execute(
            insert(e),
            [
                {"list_code": code, "entity_id": entity_id, "fingerprint": fingerprint}
                for entity_id, fingerprint in changed[start : start + 1000]
            ],
        )


# Runs ----------------------------------------------------------------------------------------


async def create_run(conn: AsyncConnection, values: dict[str, Any]) -> None:
    """Insert the run (IntegrityError when a run with its key exists: the caller's transaction
    is then void, and another process started that run)."""
    await conn.execute(insert(r).values(**values))


async def get_run(conn: AsyncConnection, run_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(r).where(r.c.id == run_id))).first()
    return dict(row._mapping) if row else None


async def run_by_key(conn: AsyncConnection, key: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(r).where(r.c.key == key))).first()
    return dict(row._mapping) if row else None


async def update_run(conn: AsyncConnection, run_id: str, **values: Any) -> None:
    await conn.execute(update(r).where(r.c.id == run_id).values(**values))


async def add_to_run(conn: AsyncConnection, run_id: str, **counts: int) -> None:
    await conn.execute(
        update(r).where(r.c.id == run_id).values(**{k: r.c[k] + v for k, v in counts.items()})
    )


# Monthly charges -----------------------------------------------------------------------------


async def uncharged_live_subjects(
    conn: AsyncConnection, month: str, *, after: str, limit: int
) -> list[dict[str, Any]]:
    """Active live subjects not yet charged for ``month``, by id after ``after``, with their
    organisation's currency."""
    charged = and_(c.c.monitored_subject_id == s.c.id, c.c.month == month)
    rows = await conn.execute(
        select(s.c.id, s.c.org_id, organisations.c.currency)
        .join(organisations, organisations.c.id == s.c.org_id)
        .outerjoin(c, charged)
        .where(
            s.c.environment == "live",
            s.c.status == "active",
            s.c.id > after,
            c.c.monitored_subject_id.is_(None),
        )
        .order_by(s.c.id)
        .limit(limit)
    )
    return [dict(row._mapping) for row in rows]


async def insert_charges(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(c), rows)


async def charges_of(conn: AsyncConnection, org_id: str, month: str) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(c).where(c.c.org_id == org_id, c.c.month == month).order_by(c.c.created_at)
    )
    return [dict(row._mapping) for row in rows]


async def active_subjects_exist(conn: AsyncConnection, environment: str) -> bool:
    query = select(s.c.id).where(s.c.environment == environment, s.c.status == "active").limit(1)
    return (await conn.execute(query)).first() is not None
