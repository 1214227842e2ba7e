"""Jobs per second through the durable queue, and the time from enqueue to completion.

    uv run --group dev python bench/jobs_bench.py [--jobs 2000] [--concurrency 4]

For each database (SQLite, and PostgreSQL when reachable): a fresh schema; N no-op jobs are
enqueued in transactions of 100 (enqueue rate), then the embedded worker of one process
(`HAKIKI_JOB_CONCURRENCY` loops) runs them (throughput: N / time until the last succeeded);
then N jobs are enqueued one per transaction while the worker runs, and each job's latency
from enqueue to success is taken from its row (p50/p99). Last, webhook delivery latency: events
emitted one per transaction to a local receiver (tests/webhooks/receiver.py, which verifies
each signature), from the emitting commit to the receiver holding the verified message.
Results go to bench/results/jobs.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.databases import process_env  # noqa: E402
from tests.webhooks.receiver import run_receiver  # noqa: E402

from hakiki.account import service as accounts  # noqa: E402
from hakiki.core.auth import authenticate  # noqa: E402
from hakiki.core.clock import as_utc  # noqa: E402
from hakiki.core.database import read, transaction  # noqa: E402
from hakiki.core.jobs.queue import enqueue  # noqa: E402
from hakiki.core.jobs.registry import JobContext, task  # noqa: E402
from hakiki.core.jobs.tables import jobs  # noqa: E402
from hakiki.core.jobs.worker import job_worker  # noqa: E402
from hakiki.core.migrate import upgrade_async  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402
from hakiki.runtime import started  # noqa: E402
from hakiki.webhooks.repository import insert_endpoint  # noqa: E402
from hakiki.webhooks.schemas import EndpointRequest  # noqa: E402
from hakiki.webhooks.service import emit, new_endpoint  # noqa: E402

POSTGRES_URL = os.environ.get(
    "HAKIKI_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


@task("bench.noop", max_attempts=1)
async def noop(context: JobContext, payload: dict[str, Any]) -> None:
    return None


async def reset_postgres() -> bool:
    engine = create_async_engine(POSTGRES_URL)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
        return True
    except OSError:
        return False
    finally:
        await engine.dispose()


DONE = {
    "embedded": "SELECT count(*) FROM jobs WHERE status = 'succeeded'",
    "procrastinate": "SELECT count(*) FROM procrastinate_jobs WHERE status = 'succeeded'",
}
# Enqueue-to-done of the newest :n jobs.
PROCRASTINATE_LATENCIES = text(
    "SELECT min(at) FILTER (WHERE type = 'deferred'), min(at) FILTER (WHERE type = "
    "'succeeded') FROM procrastinate_events GROUP BY job_id ORDER BY job_id DESC LIMIT :n"
)


async def wait_all_done(runtime: Any, count: int) -> None:
    query = text(DONE[runtime.settings.jobs_backend])
    while True:
        async with read(runtime.db) as conn:
            done = (await conn.execute(query)).scalar_one()
        if done >= count:
            return
        await asyncio.sleep(0.01)


async def latencies_ms(runtime: Any, count: int) -> list[float]:
    if runtime.settings.jobs_backend == "procrastinate":
        query: Any = PROCRASTINATE_LATENCIES.bindparams(n=count)
    else:  # typed columns: SQLite hands back text for a raw query
        query = select(jobs.c.created_at, jobs.c.finished_at)
        query = query.order_by(jobs.c.created_at.desc()).limit(count)
    async with read(runtime.db) as conn:
        rows = (await conn.execute(query)).all()
    return sorted((as_utc(done) - as_utc(created)).total_seconds() * 1000 for created, done in rows)


def wake(runtime: Any) -> None:
    """The embedded worker polls; tell it at once (procrastinate listens for NOTIFY)."""
    if runtime.jobs is not None:
        runtime.jobs.wake()


@contextmanager
def job_runner(runtime: Any) -> Iterator[None]:
    """Procrastinate mode: one `hakiki worker` process (with the bench's task registered)."""
    if runtime.settings.jobs_backend != "procrastinate":
        yield
        return
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import bench.jobs_bench; from hakiki.cli import main; main()",
            "worker",
        ],
        env={
            **process_env(runtime.settings),
            "HAKIKI_SECRET_KEY": str(runtime.settings.secret_key),
            "HAKIKI_WEBHOOKS_ALLOW_PRIVATE": "true",
            "HAKIKI_JOB_CONCURRENCY": str(runtime.settings.job_concurrency),
        },
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        while "worker started" not in process.stdout.readline():
            assert process.poll() is None, "the worker did not start"
        yield
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


async def measure(settings: Settings, count: int) -> dict[str, Any]:
    await upgrade_async(settings)
    async with started(settings, run_jobs=False) as runtime:
        began = time.perf_counter()
        for start in range(0, count, 100):
            async with transaction(runtime.db) as conn:
                for n in range(start, min(start + 100, count)):
                    await enqueue(conn, "bench.noop", {"n": n})
        enqueue_rate = count / (time.perf_counter() - began)

        if settings.jobs_backend == "embedded":
            runtime.jobs = job_worker(runtime)
        began = time.perf_counter()
        with job_runner(runtime):
            if runtime.jobs is not None:
                await runtime.jobs.start()
            else:
                began = time.perf_counter()  # the worker process started just now
            await wait_all_done(runtime, count)
            throughput = count / (time.perf_counter() - began)

            # Latency: one job per transaction while the worker runs, about 200 per second.
            for n in range(count // 4):
                async with transaction(runtime.db) as conn:
                    await enqueue(conn, "bench.noop", {"n": n})
                wake(runtime)
                await asyncio.sleep(0.005)
            await wait_all_done(runtime, count + count // 4)
            latencies = await latencies_ms(runtime, count // 4)
            webhook = await webhook_latency(runtime, count // 10)
    return {
        **webhook,
        "enqueue_per_s": round(enqueue_rate),
        "jobs_per_s": round(throughput),
        "latency_p50_ms": round(statistics.median(latencies), 1),
        "latency_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1], 1),
    }


async def webhook_latency(runtime: Any, events: int) -> dict[str, Any]:
    org = await accounts.create_org(runtime.db, "bench webhooks", approved=True)
    key = await accounts.create_key(runtime.db, "bench webhooks", "sandbox")
    principal = await authenticate(runtime.key_cache, f"Bearer {key.client_id}:{key.secret}")
    latencies = []
    with run_receiver() as receiver:
        endpoint, secret = await new_endpoint(runtime, principal, EndpointRequest(url=receiver.url))
        async with transaction(runtime.db) as conn:
            await insert_endpoint(conn, endpoint)
        receiver.secrets = [secret]
        for n in range(events):
            async with transaction(runtime.db) as conn:
                await emit(
                    conn,
                    org_id=org.id,
                    environment="sandbox",
                    event_type="wallet.low_balance",
                    resource_id=org.id,
                    data={"n": n},
                )
            committed = time.perf_counter()
            wake(runtime)
            while len(receiver.accepted()) <= n:  # noqa: ASYNC110  (the receiver is a thread)
                await asyncio.sleep(0.001)
            latencies.append((time.perf_counter() - committed) * 1000)
    assert all(r.problem is None for r in receiver.received)
    latencies.sort()
    return {
        "webhook_p50_ms": round(statistics.median(latencies), 1),
        "webhook_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1], 1),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=4)
    options = parser.parse_args()
    results: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}",
        "setup": f"no-op jobs; embedded: the worker in the bench process, {options.concurrency} "
        "loops; procrastinate: one `hakiki worker` process",
        "runs": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        modes: dict[str, tuple[str | None, str]] = {"embedded_sqlite": (None, "embedded")}
        if await reset_postgres():
            modes["embedded_postgresql"] = (POSTGRES_URL, "embedded")
            modes["procrastinate_postgresql"] = (POSTGRES_URL, "procrastinate")
        for name, (url, jobs_backend) in modes.items():
            if url:
                await reset_postgres()
            settings = Settings(
                data_dir=Path(tmp) / name,
                database_url=url,
                jobs_backend=jobs_backend,
                secret_key="bench-secret-key-0123456789abcdef0123456789",
                job_concurrency=options.concurrency,
                webhooks_allow_private=True,  # the receiver listens on 127.0.0.1
            )
            results["runs"][name] = await measure(settings, options.jobs)
            print(name, results["runs"][name], flush=True)
    out = ROOT / "bench" / "results" / "jobs.json"
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
