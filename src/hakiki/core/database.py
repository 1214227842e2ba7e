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


def create_engine(settings: Settings) -> AsyncEngine:
    url = make_url(settings.resolved_database_url)
    if url.get_backend_name() == "sqlite":
        return _create_sqlite_engine(url.render_as_string(hide_password=False))
    return create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def _create_sqlite_engine(url: str) -> AsyncEngine:
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": 30})

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
        # One writer at a time: take the write lock at BEGIN, so two transactions never both
        # read a balance and then fail to upgrade (SQLite's "database is locked" on commit).
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


@asynccontextmanager
async def transaction(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """One database transaction: committed when the block ends, rolled back on error."""
    async with engine.begin() as conn:
        yield conn


@asynccontextmanager
async def read(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A connection for reads (on SQLite still a transaction; reads there are short)."""
    async with engine.connect() as conn:
        yield conn
