"""PostgreSQL's pools (hakiki.core.database): readers in autocommit, and a connection pinged
before use only after it sat idle, replaced when the server dropped it meanwhile."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from hakiki.core.database import create_database, ping_when_idle, read
from hakiki.core.settings import Settings
from tests.conftest import POSTGRES_URL, TEST_SECRET_KEY, require_postgres

pytestmark = pytest.mark.postgresql

BACKEND_PID = text("SELECT pg_backend_pid()")


@pytest.fixture
async def admin() -> AsyncIterator[AsyncEngine]:
    require_postgres()
    engine = create_async_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    yield engine
    await engine.dispose()


def pooled(idle_seconds: float) -> AsyncEngine:
    engine = create_async_engine(POSTGRES_URL, pool_size=1, max_overflow=0)
    ping_when_idle(engine, idle_seconds)
    return engine


async def pid_then_terminate(engine: AsyncEngine, admin: AsyncEngine) -> int:
    """Use the pool's one connection, return it, then have the server drop it."""
    async with engine.connect() as conn:
        pid = int((await conn.execute(BACKEND_PID)).scalar_one())
    async with admin.connect() as conn:
        await conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    return pid


async def test_an_idle_connection_the_server_dropped_is_replaced_before_use(
    admin: AsyncEngine,
) -> None:
    engine = pooled(idle_seconds=0.0)  # every returned connection counts as idle
    try:
        dropped = await pid_then_terminate(engine, admin)
        async with engine.connect() as conn:
            assert (await conn.execute(BACKEND_PID)).scalar_one() != dropped
    finally:
        await engine.dispose()


async def test_a_connection_in_recent_use_is_not_pinged_so_a_drop_fails_one_call(
    admin: AsyncEngine,
) -> None:
    engine = pooled(idle_seconds=3600.0)
    try:
        await pid_then_terminate(engine, admin)
        with pytest.raises(DBAPIError):  # the call fails (a 503 in the API) ...
            async with engine.connect() as conn:
                await conn.execute(BACKEND_PID)
        async with engine.connect() as conn:  # ... and the pool renewed itself
            assert (await conn.execute(BACKEND_PID)).scalar_one() > 0
    finally:
        await engine.dispose()


async def test_readers_run_in_autocommit_and_writers_in_transactions(tmp_path: Path) -> None:
    require_postgres()
    db = create_database(
        Settings(data_dir=tmp_path, database_url=POSTGRES_URL, secret_key=TEST_SECRET_KEY)
    )
    try:
        async with read(db) as conn:
            # Outside a transaction block, PostgreSQL's transaction id moves on every statement.
            first = (await conn.execute(text("SELECT txid_current()"))).scalar_one()
            second = (await conn.execute(text("SELECT txid_current()"))).scalar_one()
            assert second != first
        async with db.writer.begin() as conn:
            first = (await conn.execute(text("SELECT txid_current()"))).scalar_one()
            second = (await conn.execute(text("SELECT txid_current()"))).scalar_one()
            assert second == first
    finally:
        await db.dispose()
