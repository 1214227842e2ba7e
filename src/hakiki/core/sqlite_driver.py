"""SQLite through aiosqlite with one thread hop per statement instead of four.

SQLAlchemy's aiosqlite adapter opens a cursor, executes, fetches and closes it as four separate
calls into aiosqlite's worker thread. On this hardware each call costs about 80 µs, so a
statement cost 430-550 µs and a wallet debit about 2.5 ms (docs/benchmarks.md). Here a
statement runs as one function in that thread: execute, fetch everything, close. Plugged in
through ``create_async_engine(module=...)``, SQLAlchemy's public hook for an alternative DBAPI.
"""

from __future__ import annotations

import collections
import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import EMPTY_DICT, await_


class OneHopCursor(AsyncAdapt_aiosqlite_cursor):
    __slots__ = ("_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: Any) -> None:
        # No aiosqlite cursor is opened here: that alone would be a thread hop.
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._rows = collections.deque()
        self._soft_closed_memoized = EMPTY_DICT
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        pass

    async def _async_soft_close(self) -> None:
        return None

    def close(self) -> None:
        self._rows.clear()

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        connection: aiosqlite.Connection = self._connection  # type: ignore[assignment]

        def run() -> tuple[Any, list[Any], int, int | None]:
            cursor = connection._conn.cursor()
            try:
                cursor.execute(operation, () if parameters is None else parameters)
                description = cursor.description
                rows = cursor.fetchall() if description else []
                return description, rows, cursor.rowcount, cursor.lastrowid
            finally:
                cursor.close()

        async with self._adapt_connection._execute_mutex:
            outcome = await connection._execute(run)
        self._description, rows, self._rowcount, self._lastrowid = outcome
        self._rows = collections.deque(rows)
        return None

    async def _executemany_async(self, operation: Any, seq_of_parameters: Sequence[Any]) -> Any:
        connection: aiosqlite.Connection = self._connection  # type: ignore[assignment]

        def run() -> int:
            cursor = connection._conn.cursor()
            try:
                cursor.executemany(operation, seq_of_parameters)
                return cursor.rowcount
            finally:
                cursor.close()

        async with self._adapt_connection._execute_mutex:
            self._rowcount = await connection._execute(run)
        self._description = None
        self._rows.clear()
        return None


class OneHopConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()
    _cursor_cls = OneHopCursor

    def rollback(self) -> None:
        # The pool rolls back every connection it takes back; with no transaction open (a
        # reader's autocommit statements) that would be a thread hop for nothing.
        connection = self._connection._connection
        if connection is not None and not connection.in_transaction:
            return
        super().rollback()


class OneHopDbapi(AsyncAdapt_aiosqlite_dbapi):
    def connect(self, *arg: Any, **kw: Any) -> OneHopConnection:
        connection = aiosqlite.connect(*arg, **kw)
        connection._thread.daemon = True  # as SQLAlchemy's adapter does
        return OneHopConnection(self, await_(connection))  # type: ignore[arg-type]


def one_hop_dbapi() -> OneHopDbapi:
    return OneHopDbapi(aiosqlite, sqlite3)
