"""Screenings over large engines run off the event loop, in the scoring pool; small ones
inline. Each kind of CPU work has its own pool (a screening never waits behind images), and an
organisation has one turn at a time in a pool, so another's job is not queued behind all of
its jobs."""

from __future__ import annotations

import asyncio
import base64
import io
import threading
from typing import Any

import httpx
from fastapi import FastAPI
from PIL import Image

from hakiki.core.pools import WorkPool
from hakiki.engines.screening.results import ScreeningResult
from hakiki.engines.screening.subject import Subject
from tests.conftest import AccountFactory

GUARD = 30  # seconds: only stops a hang from hanging the suite; no test waits this long


class RecordingEngine:
    def __init__(self, entity_count: int) -> None:
        self.entity_count = entity_count
        self.thread = ""

    def screen(self, subject: Subject, **_options: Any) -> ScreeningResult:
        self.thread = threading.current_thread().name
        return ScreeningResult()


async def test_large_engines_score_in_the_scoring_thread(app: FastAPI) -> None:
    runtime = app.state.runtime
    large, small = RecordingEngine(50_000), RecordingEngine(10)
    options: dict[str, Any] = {"tenant": "org_a", "checks": ["sanction"], "threshold": 0.8}
    await runtime.screen(large, Subject("Juma Hamisi"), **options)
    await runtime.screen(small, Subject("Juma Hamisi"), **options)
    assert large.thread.startswith("scoring")
    assert small.thread == threading.current_thread().name


def _held(release: threading.Event, started: threading.Event) -> str:
    started.set()
    release.wait(GUARD)
    return threading.current_thread().name


async def _queued(pool: WorkPool, tenant: str) -> None:
    for _ in range(GUARD * 100):  # until the document check's image waits for a thread
        if pool.jobs_of(tenant):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no job of {tenant} reached the pool")


async def test_a_screening_runs_while_every_image_thread_is_held(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    runtime = app.state.runtime
    account = await make_account("sandbox")
    release = threading.Event()
    workers = runtime.images.executor._max_workers
    holders = []
    for n in range(workers):  # one organisation per thread: each has one turn
        started = threading.Event()
        holders.append(
            asyncio.create_task(
                runtime.images.run(lambda s=started: _held(release, s), tenant=f"org_hold{n}")
            )
        )
        await asyncio.to_thread(started.wait, GUARD)
    out = io.BytesIO()
    Image.new("RGB", (600, 400), (40, 90, 160)).save(out, "PNG")
    body = {"document_type": "passport", "front_image": base64.b64encode(out.getvalue()).decode()}
    document = asyncio.create_task(client.post("/v3/documents/verify", json=body,
                                               headers=account.headers))  # fmt: skip
    try:
        await _queued(runtime.images, account.org_id)
        engine = RecordingEngine(50_000)
        options: dict[str, Any] = {"checks": ["sanction"], "threshold": 0.8}
        await asyncio.wait_for(
            runtime.screen(engine, Subject("Juma Hamisi"), tenant=account.org_id, **options),
            GUARD,
        )
        assert engine.thread.startswith("scoring")
        assert not document.done()  # the document check waits for an image thread
        assert not any(holder.done() for holder in holders)
    finally:
        release.set()
    threads = [await holder for holder in holders]
    assert all(name.startswith("images") for name in threads)
    assert (await document).status_code == 200


async def test_one_organisations_jobs_do_not_queue_ahead_of_anothers() -> None:
    pool = WorkPool("fair", workers=1, per_tenant=1)
    release, started = threading.Event(), threading.Event()
    order: list[str] = []

    def job(name: str) -> None:
        order.append(name)
        if name == "a1":
            started.set()
            release.wait(GUARD)

    try:
        first = asyncio.create_task(pool.run(lambda: job("a1"), tenant="a"))
        await asyncio.to_thread(started.wait, GUARD)
        rest = [asyncio.create_task(pool.run(lambda n=n: job(n), tenant="a")) for n in ("a2", "a3")]
        await asyncio.sleep(0)  # a2 and a3 wait for a's turn, outside the pool's queue
        other = asyncio.create_task(pool.run(lambda: job("b1"), tenant="b"))
        await asyncio.sleep(0)
        release.set()
        await asyncio.gather(first, *rest, other)
    finally:
        release.set()
        pool.shutdown()
    assert order == ["a1", "b1", "a2", "a3"]
