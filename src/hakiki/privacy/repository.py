"""Every SQL statement of the privacy domain. The subject-data statements are generic over the
tables of ``catalogue.TABLES``, read from the table registry (``core.tables.metadata``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Table,
    and_,
    delete,
    insert,
    or_,
    select,
    true,
    tuple_,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.tables import metadata
from hakiki.privacy.catalogue import SubjectTable
from hakiki.privacy.tables import retention_policies, retention_purges, retention_runs
from hakiki.privacy.tables import subject_requests as requests

BATCH = 500
Key = tuple[Any, ...]


def table(spec: SubjectTable) -> Table:
    return metadata.tables[spec.table]


def primary_key(spec: SubjectTable, row: dict[str, Any]) -> Key:
    return tuple(row[c.name] for c in table(spec).primary_key.columns)


def owned(spec: SubjectTable, org_id: str, environment: str) -> ColumnElement[bool]:
    """The rows of one organisation's environment (through the parent for a child table)."""
    t = table(spec)
    if spec.scope is None:
        return and_(t.c.org_id == org_id, t.c.environment == environment)
    parent = metadata.tables[spec.scope.source]
    parents = select(parent.c[spec.scope.source_column]).where(
        parent.c.org_id == org_id, parent.c.environment == environment
    )
    return t.c[spec.scope.column].in_(parents)


async def scan(
    conn: AsyncConnection, spec: SubjectTable, where: ColumnElement[bool]
) -> AsyncIterator[list[dict[str, Any]]]:
    """The rows ``where`` selects, in batches, by primary key order (keyset pagination)."""
    t = table(spec)
    pk = list(t.primary_key.columns)
    last: Key | None = None
    while True:
        query = select(t).where(where)
        if last is not None:
            query = query.where(tuple_(*pk) > tuple_(*last))
        rows = (await conn.execute(query.order_by(*pk).limit(BATCH))).mappings().all()
        if not rows:
            return
        yield [dict(r) for r in rows]
        last = tuple(rows[-1][c.name] for c in pk)


def in_values(spec: SubjectTable, column: str, values: Iterable[Any]) -> ColumnElement[bool]:
    return table(spec).c[column].in_(list(values))


def by_keys(spec: SubjectTable, keys: Sequence[Key]) -> ColumnElement[bool]:
    pk = list(table(spec).primary_key.columns)
    if len(pk) == 1:
        return pk[0].in_([k[0] for k in keys])
    return tuple_(*pk).in_(list(keys))


async def delete_rows(conn: AsyncConnection, spec: SubjectTable, keys: Sequence[Key]) -> int:
    total = 0
    for start in range(0, len(keys), BATCH):
        chunk = keys[start : start + BATCH]
        result = await conn.execute(delete(table(spec)).where(by_keys(spec, chunk)))
        total += result.rowcount
    return total


async def scrub_rows(conn: AsyncConnection, spec: SubjectTable, keys: Sequence[Key]) -> int:
    t = table(spec)
    values: dict[str, Any] = dict.fromkeys(spec.scrubbed)
    total = 0
    for start in range(0, len(keys), BATCH):
        chunk = keys[start : start + BATCH]
        result = await conn.execute(update(t).where(by_keys(spec, chunk)).values(values))
        total += result.rowcount
    return total


def older_than(spec: SubjectTable, cutoff: datetime) -> ColumnElement[bool]:
    if spec.created_column is None:
        return true()
    return table(spec).c[spec.created_column] < cutoff


def kept(spec: SubjectTable) -> ColumnElement[bool] | None:
    """The rows erasure keeps (a fraud report's sightings and prints)."""
    if spec.keep_when is None:
        return None
    column = table(spec).c[spec.keep_when]
    return column.is_(True) if column.type.python_type is bool else column.is_not(None)


# --- subject requests -------------------------------------------------------------------


async def insert_request(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(requests).values(row))


async def get_request(
    conn: AsyncConnection, org_id: str, environment: str, request_id: str
) -> dict[str, Any] | None:
    row = (
        (
            await conn.execute(
                select(requests).where(
                    requests.c.id == request_id,
                    requests.c.org_id == org_id,
                    requests.c.environment == environment,
                )
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row else None


async def get_request_by_id(conn: AsyncConnection, request_id: str) -> dict[str, Any] | None:
    row = (await conn.execute(select(requests).where(requests.c.id == request_id))).mappings()
    found = row.first()
    return dict(found) if found else None


async def update_request(conn: AsyncConnection, request_id: str, values: dict[str, Any]) -> None:
    await conn.execute(update(requests).where(requests.c.id == request_id).values(values))


async def holders_of_older(
    conn: AsyncConnection,
    spec: SubjectTable,
    cutoff: datetime,
    *,
    only: Sequence[str] | None = None,
    excluding: Sequence[str] = (),
) -> set[tuple[str, str]]:
    """The (organisation, environment) pairs with a row of ``spec`` created before
    ``cutoff``: of the ``only`` organisations when given, else of all but ``excluding``."""
    t = table(spec)
    query = select(t.c.org_id, t.c.environment).where(older_than(spec, cutoff)).distinct()
    if only is not None:
        query = query.where(t.c.org_id.in_(list(only)))
    elif excluding:
        query = query.where(t.c.org_id.not_in(list(excluding)))
    return {(str(o), str(e)) for o, e in (await conn.execute(query)).all()}


async def exports_before(conn: AsyncConnection, cutoff: datetime) -> bool:
    found = await conn.execute(
        select(requests.c.id)
        .where(requests.c.export_sealed.is_not(None), requests.c.completed_at < cutoff)
        .limit(1)
    )
    return found.first() is not None


async def unowned_logs_before(conn: AsyncConnection, cutoff: datetime) -> bool:
    logs = metadata.tables["request_logs"]
    found = await conn.execute(
        select(logs.c.id)
        .where(
            or_(logs.c.org_id.is_(None), logs.c.environment.is_(None)), logs.c.created_at < cutoff
        )
        .limit(1)
    )
    return found.first() is not None


async def purge_exports_before(conn: AsyncConnection, cutoff: datetime) -> int:
    result = await conn.execute(
        update(requests)
        .where(requests.c.export_sealed.is_not(None), requests.c.completed_at < cutoff)
        .values(export_sealed=None)
    )
    return result.rowcount


async def purge_unowned_logs(conn: AsyncConnection, cutoff: datetime) -> int:
    logs = metadata.tables["request_logs"]
    result = await conn.execute(
        delete(logs).where(
            or_(logs.c.org_id.is_(None), logs.c.environment.is_(None)), logs.c.created_at < cutoff
        )
    )
    return result.rowcount


# --- retention ---------------------------------------------------------------------------


async def policies(conn: AsyncConnection, org_id: str | None = None) -> list[dict[str, Any]]:
    query = select(retention_policies)
    if org_id is not None:
        query = query.where(retention_policies.c.org_id == org_id)
    return [dict(r) for r in (await conn.execute(query)).mappings().all()]


async def upsert_policy(conn: AsyncConnection, row: dict[str, Any]) -> None:
    t = retention_policies
    updated = await conn.execute(
        update(t)
        .where(t.c.org_id == row["org_id"], t.c.category == row["category"])
        .values(days=row["days"], updated_at=row["updated_at"])
    )
    if updated.rowcount == 0:
        await conn.execute(insert(t).values(row))


async def delete_policy(conn: AsyncConnection, org_id: str, category: str) -> None:
    t = retention_policies
    await conn.execute(delete(t).where(t.c.org_id == org_id, t.c.category == category))


async def organisation_ids(conn: AsyncConnection) -> list[str]:
    orgs = metadata.tables["organisations"]
    return [str(r[0]) for r in (await conn.execute(select(orgs.c.id))).all()]


async def insert_run(
    conn: AsyncConnection, run: dict[str, Any], counts: list[dict[str, Any]]
) -> None:
    await conn.execute(insert(retention_runs).values(run))
    if counts:
        await conn.execute(insert(retention_purges), counts)


async def runs_of(
    conn: AsyncConnection, org_id: str, *, offset: int, limit: int
) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """The runs that purged something of ``org_id``, newest first, with their counts."""
    p = retention_purges
    ids = select(p.c.run_id).where(p.c.org_id == org_id).distinct()
    total = len((await conn.execute(ids)).all())
    runs = (
        (
            await conn.execute(
                select(retention_runs)
                .where(retention_runs.c.id.in_(ids))
                .order_by(retention_runs.c.started_at.desc(), retention_runs.c.id.desc())
                .offset(offset)
                .limit(limit)
            )
        )
        .mappings()
        .all()
    )
    run_ids = [r["id"] for r in runs]
    counts = (
        (await conn.execute(select(p).where(p.c.org_id == org_id, p.c.run_id.in_(run_ids))))
        .mappings()
        .all()
    )
    return total, [dict(r) for r in runs], [dict(c) for c in counts]
