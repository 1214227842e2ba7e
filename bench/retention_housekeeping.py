"""What one housekeeping retention run costs (hakiki.privacy.retention.apply) with N
organisations and nothing due, then with one organisation's rows due: its wall time and the
write transactions it opened (each one a turn at SQLite's write gate, where every other writer
of the file waits). Optionally with a writer beside it (a loop of short write transactions, as
a bulk scan or the request log makes), to see how long each of its writes waited.

    uv run --group dev python bench/retention_housekeeping.py [--orgs 100 500] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert, update  # noqa: E402

from hakiki.account import service as accounts  # noqa: E402
from hakiki.core import database  # noqa: E402
from hakiki.core.clock import utcnow  # noqa: E402
from hakiki.core.database import create_database, transaction  # noqa: E402
from hakiki.core.ids import new_id  # noqa: E402
from hakiki.core.migrate import upgrade_async  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402
from hakiki.privacy import retention  # noqa: E402
from hakiki.tables import metadata  # noqa: E402

ORGS = metadata.tables["organisations"]
LOGS = metadata.tables["request_logs"]


@contextlib.contextmanager
def counting_transactions() -> AsyncIterator[list[int]]:  # type: ignore[misc]
    """Count the write transactions retention opens (its module's `transaction`)."""
    opened = [0]
    original = retention.transaction

    @contextlib.asynccontextmanager
    async def counted(db: database.Database):  # type: ignore[no-untyped-def]
        opened[0] += 1
        async with original(db) as conn:
            yield conn

    retention.transaction = counted  # type: ignore[assignment]
    try:
        yield opened
    finally:
        retention.transaction = original  # type: ignore[assignment]


async def writer_beside(db: database.Database, stop: asyncio.Event, waits: list[float]) -> None:
    org = await accounts.create_org(db, f"beside-{new_id('x')}")
    while not stop.is_set():
        started = time.perf_counter()
        async with transaction(db) as conn:
            await conn.execute(update(ORGS).where(ORGS.c.id == org.id).values(name=org.name))
        waits.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.005)


async def one(settings: Settings, orgs: int, beside: bool) -> None:
    await upgrade_async(settings)
    db = create_database(settings)
    try:
        async with transaction(db) as conn:
            await conn.execute(
                insert(ORGS),
                [
                    {
                        "id": new_id("org"),
                        "name": f"bench-{new_id('n')}",
                        "approved": True,
                        "currency": "KES",
                        "created_at": utcnow(),
                    }
                    for _ in range(orgs)
                ],
            )
        for label in ("nothing due", "nothing due (again)"):
            stop, waits = asyncio.Event(), []  # type: ignore[var-annotated]
            side = asyncio.create_task(writer_beside(db, stop, waits)) if beside else None
            await asyncio.sleep(0.05)
            with counting_transactions() as opened:
                started = time.perf_counter()
                counts = await retention.apply(db, settings)
                spent = time.perf_counter() - started
            stop.set()
            if side is not None:
                await side
            assert counts == {}, counts
            extra = (
                f", the writer beside it: {len(waits)} writes, median "
                f"{statistics.median(waits):.1f} ms, max {max(waits):.0f} ms"
                if waits
                else ""
            )
            print(
                f"{orgs:>5} organisations, {label}: {spent * 1000:8.0f} ms, "
                f"{opened[0]} write transactions{extra}"
            )
        # One organisation's request log past its retention: one purge.
        org = await accounts.create_org(db, f"due-{new_id('n')}")
        async with transaction(db) as conn:
            await conn.execute(
                insert(LOGS).values(
                    id=new_id("req"),
                    org_id=org.id,
                    environment="sandbox",
                    created_at=utcnow() - timedelta(days=400),
                    **{
                        c.name: _filler(c)
                        for c in LOGS.columns
                        if not c.nullable
                        and c.server_default is None
                        and c.default is None
                        and c.name not in ("id", "org_id", "environment", "created_at")
                    },
                )
            )
        with counting_transactions() as opened:
            started = time.perf_counter()
            counts = await retention.apply(db, settings)
            spent = time.perf_counter() - started
        assert counts == {(org.id, "request_log"): 1}, counts
        print(f"{orgs:>5} organisations, one due: {spent * 1000:8.0f} ms, {opened[0]} write tx")
    finally:
        await db.dispose()


def _filler(column):  # type: ignore[no-untyped-def]
    python_type = column.type.python_type
    return {str: "x", int: 0, bool: False, float: 0.0}.get(python_type, "x")


async def main(orgs: list[int], postgres: str | None, beside: bool) -> None:
    for count in orgs:
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(data_dir=Path(folder), database_url=None)
            print("SQLite:", end=" ")
            await one(settings, count, beside)
        if postgres:
            async with _fresh_schema(postgres):
                settings = Settings(data_dir=Path(tempfile.mkdtemp()), database_url=postgres)
                print("PostgreSQL:", end=" ")
                await one(settings, count, beside)


@contextlib.asynccontextmanager
async def _fresh_schema(url: str) -> AsyncIterator[None]:
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        await conn.exec_driver_sql("CREATE SCHEMA public")
    await engine.dispose()
    yield


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--orgs", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--postgres", help="a database whose public schema may be dropped")
    parser.add_argument("--beside", action="store_true", help="a writer runs beside it")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.orgs, arguments.postgres, arguments.beside))
