"""Recent checks of a subject (the phone scan's `checks_last_7_days`): live calls only, counted
from the partial index that sandbox calls stay out of, on both databases."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.ids import new_id
from hakiki.core.request_log.repository import insert_many
from hakiki.fraud import repository

INDEX = "ix_request_logs_live_subject_recent"
SUBJECT = "a" * 64
OTHER = "b" * 64


def _row(org: str, environment: str, subject: str | None, age_days: int = 0) -> dict[str, Any]:
    return {
        "id": new_id("req"),
        "org_id": org,
        "api_key_id": "key_test",
        "environment": environment,
        "method": "POST",
        "path": "/v3/fraud/phone-scan",
        "status_code": 200,
        "response_code": None,
        "channel": "KE:phone" if subject else None,
        "subject_hash": subject,
        "subject_encrypted": None,
        "request_body": None,
        "duration_ms": 1,
        "transaction_id": None,
        "error_message": None,
        "created_at": utcnow() - timedelta(days=age_days),
    }


async def _plan(conn: AsyncConnection, statement: ClauseElement) -> str:
    """The database's plan for ``statement``, as text. PostgreSQL is told to avoid sequential
    scans: on a tiny table it would rather scan, but it can use an index only when it can prove
    the partial index's condition from the query."""
    compiled = statement.compile(dialect=conn.dialect)
    assert isinstance(compiled, SQLCompiler)
    expanded = compiled.construct_expanded_state()
    arguments = expanded.positional_parameters
    if conn.dialect.name == "postgresql":
        await conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
        rows = await conn.exec_driver_sql("EXPLAIN " + expanded.statement, arguments)
    else:
        texts = tuple(a.isoformat(" ") if hasattr(a, "isoformat") else a for a in arguments)
        rows = await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + expanded.statement, texts)
    return "\n".join(str(row[-1]) for row in rows)


async def test_only_live_checks_of_the_last_days_are_counted(db: Database) -> None:
    async with transaction(db) as conn:
        await insert_many(
            conn,
            [
                _row("org_a", "live", SUBJECT),
                _row("org_a", "live", SUBJECT),
                _row("org_b", "live", SUBJECT),
                _row("org_c", "live", SUBJECT, age_days=10),  # older than the window
                _row("org_d", "sandbox", SUBJECT),  # sandbox calls never count
                _row("org_e", "sandbox", SUBJECT),
                _row("org_f", "live", OTHER),
                _row("org_g", "live", None),
            ],
        )
    since = utcnow() - timedelta(days=7)
    async with read(db) as conn:
        assert await repository.recent_checks(conn, since, [SUBJECT]) == {SUBJECT: (3, 2)}
        assert await repository.recent_checks(conn, since, [SUBJECT, OTHER, "c" * 64]) == {
            SUBJECT: (3, 2),
            OTHER: (1, 1),
        }


async def test_both_counts_are_answered_from_the_live_index(db: Database) -> None:
    since = utcnow() - timedelta(days=7)
    one = repository._CHECKS_OF_ONE.params(hash=SUBJECT, since=since)
    many = repository._CHECKS_OF_MANY.params(hashes=[SUBJECT, OTHER], since=since)
    async with transaction(db) as conn:
        for statement in (one, many):
            assert INDEX in await _plan(conn, statement)
