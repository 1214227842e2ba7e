"""Async engine and transactions for SQLite (embedded default) and PostgreSQL (scaled)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from hakiki.core.settings import Settings
from hakiki.core.sqlite_driver import one_hop_dbapi

# The job backend rides on the engine as a user-defined execution option, so code that is
# handed only a connection (``enqueue``) knows where jobs go without a new parameter.
JOBS_BACKEND_OPTION = "hakiki_jobs_backend"


class Database:
    """The service's database: a writer and a reader engine.

    On SQLite the writer has exactly one connection, so write transactions queue in the
    connection pool (an asyncio wait) instead of spinning in SQLite's busy handler, and readers
    use their own connections, which WAL never blocks. On PostgreSQL both are the same engine.
    """

    def __init__(self, writer: AsyncEngine, reader: AsyncEngine) -> None:
        self.writer = writer
        self.reader = reader

    @property
    def is_sqlite(self) -> bool:
        return self.writer.dialect.name == "sqlite"

    @property
    def jobs_backend(self) -> str:
        return _jobs_backend(self.writer)

    async def dispose(self) -> None:
        await self.writer.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()


def create_database(settings: Settings) -> Database:
    url = make_url(settings.resolved_database_url)
    if url.get_backend_name() != "sqlite":
        engine = create_async_engine(
            url,
            pool_size=10,
            max_overflow=10,
            pool_pre_ping=True,
            execution_options={JOBS_BACKEND_OPTION: settings.jobs_backend},
        )
        return Database(engine, engine)
    rendered = url.render_as_string(hide_password=False)
    writer = _create_sqlite_engine(rendered, immediate=True, pool_size=1, max_overflow=0)
    # A fixed pool: every aiosqlite connection is a thread, and starting one blocks the event
    # loop, so readers are opened once and reused rather than created on bursts.
    reader = _create_sqlite_engine(rendered, immediate=False, pool_size=4, max_overflow=0)
    return Database(writer, reader)


def create_engine(settings: Settings) -> AsyncEngine:
    """One engine that may write (migrations)."""
    url = make_url(settings.resolved_database_url)
    if url.get_backend_name() == "sqlite":
        rendered = url.render_as_string(hide_password=False)
        return _create_sqlite_engine(rendered, immediate=True, pool_size=1, max_overflow=0)
    return create_async_engine(url, pool_pre_ping=True)


def _create_sqlite_engine(
    url: str, *, immediate: bool, pool_size: int, max_overflow: int
) -> AsyncEngine:
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(
        url,
        module=one_hop_dbapi(),
        connect_args={"timeout": 30},
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=60,
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers take the write lock at BEGIN, so two transactions never both read a balance
        # and then fail to upgrade (SQLite's "database is locked" on commit).
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def jobs_backend(conn: AsyncConnection) -> str:
    """``embedded`` or ``procrastinate``: where jobs enqueued on ``conn`` go."""
    return _jobs_backend(conn.engine)


def _jobs_backend(engine: AsyncEngine) -> str:
    return str(engine.get_execution_options().get(JOBS_BACKEND_OPTION, "embedded"))


@asynccontextmanager
async def transaction(db: Database) -> AsyncIterator[AsyncConnection]:
    """One write transaction: committed when the block ends, rolled back on error."""
    async with db.writer.begin() as conn:
        yield conn


@asynccontextmanager
async def read(db: Database) -> AsyncIterator[AsyncConnection]:
    """A connection for reads; it never blocks writers (WAL on SQLite, MVCC on PostgreSQL)."""
    async with db.reader.connect() as conn:
        yield conn
