"""Queries of the shared fraud database."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, literal_column, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.scoping import owned_by
from hakiki.core.tables import request_logs
from hakiki.fraud.tables import fraud_report_keys as keys
from hakiki.fraud.tables import fraud_reports as reports


async def insert_report(
    conn: AsyncConnection, row: dict[str, Any], report_keys: list[tuple[str, str]]
) -> None:
    await conn.execute(insert(reports).values(**row))
    if report_keys:
        await conn.execute(
            insert(keys),
            [
                {
                    "report_id": row["id"],
                    "kind": kind,
                    "key_hash": key,
                    "environment": row["environment"],
                }
                for kind, key in report_keys
            ],
        )


def _listing(
    org_id: str,
    environment: str,
    filters: dict[str, str | None],
    since: date | None,
    until: date | None,
    key_hash: str | None,
) -> list[Any]:
    conditions = owned_by(reports, org_id, environment, filters)
    if since is not None:
        conditions.append(reports.c.incident_date >= since)
    if until is not None:
        conditions.append(reports.c.incident_date <= until)
    if key_hash is not None:
        conditions.append(
            reports.c.id.in_(
                select(keys.c.report_id).where(
                    keys.c.environment == environment,
                    keys.c.kind == "identifier",
                    keys.c.key_hash == key_hash,
                )
            )
        )
    return conditions


async def count_reports(conn: AsyncConnection, *args: Any) -> int:
    query = select(func.count()).where(*_listing(*args))
    return int((await conn.execute(query)).scalar_one())


async def list_reports(
    conn: AsyncConnection, *args: Any, offset: int, limit: int
) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(reports)
        .where(*_listing(*args))
        .order_by(reports.c.created_at.desc(), reports.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r._mapping) for r in rows]


async def get_report(
    conn: AsyncConnection, org_id: str, environment: str, report_id: str
) -> dict[str, Any] | None:
    row = (
        await conn.execute(
            select(reports).where(*owned_by(reports, org_id, environment, {"id": report_id}))
        )
    ).first()
    return dict(row._mapping) if row else None


def _summary(rows: list[Any]) -> dict[str, Any]:
    """(category, organisation, count) rows as counts, categories and organisations."""
    categories: dict[str, int] = {}
    for category, _org, count in rows:
        categories[str(category)] = categories.get(str(category), 0) + int(count)
    return {
        "reports": sum(categories.values()),
        "organisations": len({org for _category, org, _count in rows}),
        "categories": categories,
    }


async def signals(
    conn: AsyncConnection, environment: str, lookups: list[tuple[str, str]]
) -> dict[str, Any]:
    """What every organisation's reports say about these keys together: how many reports, from
    how many organisations, in which categories (never which organisations). One query."""
    if not lookups:
        return _summary([])
    matched = (
        select(keys.c.report_id)
        .where(keys.c.environment == environment)
        .where(tuple_(keys.c.kind, keys.c.key_hash).in_(lookups))
    )
    rows = (
        await conn.execute(
            select(reports.c.category, reports.c.org_id, func.count())
            .where(reports.c.id.in_(matched))
            .group_by(reports.c.category, reports.c.org_id)
        )
    ).all()
    return _summary(list(rows))


# Built once: a scan runs these on every call, and building a statement costs more than
# running it (values are bound per call; `keys` expands to the list given).
_SIGNALS_BY_KEY = (
    select(keys.c.key_hash, reports.c.category, reports.c.org_id, func.count())
    .select_from(keys.join(reports, reports.c.id == keys.c.report_id))
    .where(
        keys.c.environment == bindparam("environment"),
        keys.c.kind == bindparam("kind"),
        keys.c.key_hash.in_(bindparam("keys", expanding=True)),
    )
    .group_by(keys.c.key_hash, reports.c.category, reports.c.org_id)
)


async def signals_by_key(
    conn: AsyncConnection, environment: str, kind: str, key_hashes: list[str]
) -> dict[str, dict[str, Any]]:
    """``signals`` of each key on its own (keys without reports are left out). One query."""
    if not key_hashes:
        return {}
    values = {"environment": environment, "kind": kind, "keys": sorted(set(key_hashes))}
    by_key: dict[str, list[Any]] = {}
    for key, category, org, count in await conn.execute(_SIGNALS_BY_KEY, values):
        by_key.setdefault(str(key), []).append((category, org, count))
    return {key: _summary(found) for key, found in by_key.items()}


MAX_COUNTED_CHECKS = 1000  # recent checks of a subject are counted up to this

# Live calls only, named as the partial index names them (a bound environment would not let
# the planners prove the index applies): sandbox calls are never counted.
_RECENT = [
    request_logs.c.environment == literal_column("'live'"),
    request_logs.c.created_at >= bindparam("since"),
]
_CAPPED = (
    select(request_logs.c.org_id)
    .where(request_logs.c.subject_hash == bindparam("hash"), *_RECENT)
    .limit(MAX_COUNTED_CHECKS)
    .subquery()
)
# Built once: they run on every phone scan (a statement costs more to build than to run).
_CHECKS_OF_ONE = select(func.count(), func.count(_CAPPED.c.org_id.distinct()))
_CHECKS_OF_MANY = (
    select(request_logs.c.subject_hash, func.count(), func.count(request_logs.c.org_id.distinct()))
    .where(request_logs.c.subject_hash.in_(bindparam("hashes", expanding=True)), *_RECENT)
    .group_by(request_logs.c.subject_hash)
)


async def recent_checks(
    conn: AsyncConnection, since: datetime, log_hashes: list[str]
) -> dict[str, tuple[int, int]]:
    """Live (checks, organisations) since ``since`` per request-log subject hash; counted up to
    MAX_COUNTED_CHECKS for a single subject (a hot number must not make every check slower)."""
    if not log_hashes:
        return {}
    values: dict[str, Any] = {"since": since}
    if len(log_hashes) == 1:
        found = (await conn.execute(_CHECKS_OF_ONE, values | {"hash": log_hashes[0]})).one()
        return {log_hashes[0]: (int(found[0]), int(found[1]))}
    rows = await conn.execute(_CHECKS_OF_MANY, values | {"hashes": sorted(set(log_hashes))})
    return {str(h): (min(int(n), MAX_COUNTED_CHECKS), int(orgs)) for h, n, orgs in rows}
