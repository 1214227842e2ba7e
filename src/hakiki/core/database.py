"""Async engine and transactions for SQLite (embedded default) and PostgreSQL (scaled)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, cast

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from hakiki.core.data_dir import private_file
from hakiki.core.settings import Settings
from hakiki.core.sqlite_driver import one_hop_dbapi
from hakiki.core.write_gate import WriteGate

# The job backend rides on the engine as a user-defined execution option, so code that is
# handed only a connection (``enqueue``) knows where jobs go without a new parameter.
JOBS_BACKEND_OPTION = "hakiki_jobs_backend"
SQLITE_LOCK_WAIT = 30.0  # seconds a write waits for another process's write lock
IDLE_PING_SECONDS = 10.0  # a pooled PostgreSQL connection idle this long is pinged before use


class Database:
    """The service's database: a writer and a reader engine.

    On SQLite the writer has exactly one connection, so write transactions queue in the
    connection pool (an asyncio wait) instead of spinning in SQLite's busy handler, and readers
    use their own connections, which WAL never blocks. On PostgreSQL they are two pools of the
    same database, so a burst of reads cannot starve the writers.
    """

    def __init__(
        self, writer: AsyncEngine, reader: AsyncEngine, gate: WriteGate | None = None
    ) -> None:
        self.writer = writer
        self.reader = reader
        self.gate = gate  # SQLite file: queues writers across processes

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
        if self.gate is not None:
            self.gate.close()


def create_database(settings: Settings) -> Database:
    url = make_url(settings.resolved_database_url)
    if url.get_backend_name() != "sqlite":
        # Two pools: under load, reads must not take every connection while the settlement
        # writer (which commits many calls at once) waits for one. The writer's pool is fixed:
        # every call claims its Idempotency-Key in a short write transaction of its own, and an
        # overflow connection is closed when returned, so 5 + 5 opened and closed about 60
        # PostgreSQL sessions a second under load (bench/scaled_netns.py: 184 req/s; a fixed
        # pool of 20 kept the session count flat and gave 451 req/s, docs/benchmarks.md).
        def engine(size: int, **options: Any) -> AsyncEngine:
            created = create_async_engine(
                url,
                pool_size=size,
                max_overflow=0,
                execution_options={JOBS_BACKEND_OPTION: settings.jobs_backend},
                **options,
            )
            ping_when_idle(created)
            return created

        # The readers' pool is fixed too, for the same reason: with 10 + 10, a live phone scan
        # (three reads) under 64 calls in flight opened and closed PostgreSQL sessions all the
        # time. At most 40 connections a process, as before. Readers run in autocommit, as on
        # SQLite: each statement reads its own snapshot (what READ COMMITTED gives inside a
        # transaction too), without a BEGIN and a ROLLBACK round trip around every read.
        return Database(engine(20), engine(20, isolation_level="AUTOCOMMIT"))
    rendered = url.render_as_string(hide_password=False)
    writer = _create_sqlite_engine(rendered, immediate=True, pool_size=1, max_overflow=0, busy_ms=0)
    # A fixed pool: every aiosqlite connection is a thread, and starting one blocks the event
    # loop, so readers are opened once and reused rather than created on bursts. Eight, not
    # four: a live phone scan makes three reads, and with four readers 64 calls in flight
    # queued on the pool (444 vs 529 req/s, 2,249 vs 1,886 us of CPU a call; sixteen: 548).
    reader = _create_sqlite_engine(rendered, immediate=False, pool_size=8, max_overflow=0)
    return Database(writer, reader, _write_gate(url.database))


def _write_gate(database: str | None) -> WriteGate | None:
    if not database or database == ":memory:" or database.startswith("file:"):
        return None  # no file of its own: one process only
    return WriteGate(Path(f"{database}.write-lock"), SQLITE_LOCK_WAIT)


def create_engine(settings: Settings) -> AsyncEngine:
    """One engine that may write (migrations)."""
    url = make_url(settings.resolved_database_url)
    if url.get_backend_name() == "sqlite":
        rendered = url.render_as_string(hide_password=False)
        return _create_sqlite_engine(rendered, immediate=True, pool_size=1, max_overflow=0)
    return create_async_engine(url, pool_pre_ping=True)


def ping_when_idle(engine: AsyncEngine, idle_seconds: float = IDLE_PING_SECONDS) -> None:
    """Ping a pooled connection before use when it sat unused for ``idle_seconds``, replacing
    it when the server is gone (SQLAlchemy's pessimistic disconnect handling, as
    ``pool_pre_ping`` does, but not on every checkout: under load that was one more round trip
    per query, 9% of a live phone scan's CPU). A connection the server dropped while it was
    in use fails that call with a 503, and SQLAlchemy then renews the whole pool."""

    @event.listens_for(engine.sync_engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _taken(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get("returned_at")
        if returned is None or time.monotonic() - returned < idle_seconds:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            if engine.dialect.is_disconnect(cast(Any, error), dbapi_connection, None):
                raise DisconnectionError() from error  # the pool opens a new connection
            raise


def _create_sqlite_engine(
    url: str, *, immediate: bool, pool_size: int, max_overflow: int, busy_ms: int = 30_000
) -> AsyncEngine:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        # Created 0600 (SQLite gives its -wal and -shm files the database file's mode).
        private_file(Path(database))
    engine = create_async_engine(
        url,
        module=one_hop_dbapi(),
        connect_args={"timeout": busy_ms / 1000},
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
        # Deleted rows' bytes are zeroed, not left in free space (erasure, docs/privacy.md).
        cursor.execute("PRAGMA secure_delete=ON")
        cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers take the write lock at BEGIN, so two transactions never both read a balance
        # and then fail to upgrade (SQLite's "database is locked" on commit). Readers open no
        # transaction: each statement reads its own snapshot, and a read costs no BEGIN and no
        # ROLLBACK (two thread hops of about 180 us each).
        if immediate:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def jobs_backend(conn: AsyncConnection) -> str:
    """``embedded`` or ``procrastinate``: where jobs enqueued on ``conn`` go."""
    return _jobs_backend(conn.engine)


def _jobs_backend(engine: AsyncEngine) -> str:
    return str(engine.get_execution_options().get(JOBS_BACKEND_OPTION, "embedded"))


@asynccontextmanager
async def transaction(db: Database) -> AsyncIterator[AsyncConnection]:
    """One write transaction: committed when the block ends, rolled back on error."""
    async with AsyncExitStack() as stack:
        conn = await _begin(db, stack)
        yield conn


async def _begin(db: Database, stack: AsyncExitStack) -> AsyncConnection:
    """Begin a write transaction. On a SQLite file, writers of every server process queue at
    the write gate first. A process outside the gate (the sqlite3 shell, a migration) may
    still hold SQLite's write lock: the writer connection has no busy timeout and we wait
    here, on the event loop, in short steps, rather than in SQLite's busy handler, whose
    sleeps grow to 100 ms and stretch every waiting transaction."""
    if db.gate is not None:
        await stack.enter_async_context(db.gate.held())
    delay, waited = 0.0002, 0.0
    while True:
        try:
            return await stack.enter_async_context(db.writer.begin())
        except OperationalError as error:
            if not (db.is_sqlite and "locked" in str(error)) or waited > SQLITE_LOCK_WAIT:
                raise
        await asyncio.sleep(delay)
        waited += delay
        delay = min(delay * 2, 0.005)


@asynccontextmanager
async def read(db: Database) -> AsyncIterator[AsyncConnection]:
    """A connection for reads; it never blocks writers (WAL on SQLite, MVCC on PostgreSQL)."""
    async with db.reader.connect() as conn:
        yield conn
