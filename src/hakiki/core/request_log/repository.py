"""Queries for the request log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from operator import itemgetter
from typing import Any

import asyncpg
import orjson
from sqlalchemy import JSON, delete, insert
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.tables import request_logs


@dataclass(frozen=True)
class _DriverInsert:
    """The INSERT of whole rows as the dialect compiles it, run through the driver's
    executemany. SQLAlchemy's own executemany builds each row's parameters anew (about 12 us a
    row, on the event loop's thread); the log writes one row per API call, so each row here is
    only put in column order, through the bind processors of the columns that have one (the
    time in UTC; the body as JSON, by orjson)."""

    sql: str
    columns: Callable[[dict[str, Any]], tuple[Any, ...]]  # a row's values in column order
    processors: tuple[tuple[int, Callable[[Any], Any]], ...]  # (position, bind processor)

    def values(self, row: dict[str, Any]) -> tuple[Any, ...]:
        values = list(self.columns(row))
        for position, process in self.processors:
            values[position] = process(values[position])
        return tuple(values)


def _json_text(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


@cache
def _driver_insert(dialect: Dialect) -> _DriverInsert:
    columns = tuple(column.key for column in request_logs.columns)
    compiled = insert(request_logs).compile(dialect=dialect, column_keys=list(columns))
    assert compiled.positiontup == list(columns), "a positional paramstyle, in column order"
    processors = (
        _json_text
        if isinstance(request_logs.c[name].type, JSON)
        else request_logs.c[name].type.bind_processor(dialect)
        for name in columns
    )
    return _DriverInsert(
        compiled.string,
        itemgetter(*columns),
        tuple((n, process) for n, process in enumerate(processors) if process is not None),
    )


_COLUMNS = [column.key for column in request_logs.columns]


async def insert_many(
    conn: AsyncConnection, entries: list[dict[str, Any]], *, alone: bool = False
) -> None:
    """Insert log rows. On PostgreSQL they go by COPY (measured on 12,000 rows in batches of
    300: 3 us a row less of this process's CPU, 15 us less of the server's, than the driver's
    executemany) when the transaction has begun, or when they are all it writes (``alone``:
    the log writer's batches; one statement is atomic by itself). The driver begins a
    transaction at its first statement, and COPY through the driver would run outside one
    not begun yet, apart from the rest of a settlement's writes."""
    if not entries:
        return
    statement = _driver_insert(conn.dialect)
    rows = [statement.values(entry) for entry in entries]
    if conn.dialect.name == "postgresql":
        driver: asyncpg.Connection = (await conn.get_raw_connection()).driver_connection
        if alone or driver.is_in_transaction():
            await driver.copy_records_to_table("request_logs", records=rows, columns=_COLUMNS)
            return
    await conn.exec_driver_sql(statement.sql, rows)


async def purge_older_than(conn: AsyncConnection, cutoff: datetime) -> int:
    result = await conn.execute(delete(request_logs).where(request_logs.c.created_at < cutoff))
    return int(result.rowcount or 0)
