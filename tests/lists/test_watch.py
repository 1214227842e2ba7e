"""A list version stored while processes run is in use in each of them within the check
interval, without a restart (lists/watch.py): another runtime on the same database, with a data
folder of its own, picks it up; a request in flight keeps the engine it started with; a
version is announced once however many updates store it; the scheduled update is queued once
per period; a list's age counts from the publisher's date inside the file."""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
import time
from collections.abc import Callable
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, create_database, read
from hakiki.core.jobs.registry import TASKS, JobContext
from hakiki.core.jobs.tables import jobs
from hakiki.core.settings import Settings
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.lists import store
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.service import list_status, reload, update_lists
from hakiki.lists.tables import list_current
from hakiki.lists.watch import UPDATE_TASK, queue_scheduled_update
from hakiki.runtime import started
from tests.conftest import AccountFactory
from tests.lists.server import NEW_UN_DATE, TEST_DATA, ListServer, un_xml
from tests.lists.test_update import config, un_only
from tests.support.databases import isolated_settings

T = TypeVar("T")
BUNDLED_UN_DATE = "2026-02-27"  # dateGenerated of the bundled UN file


def on_the_same_database(settings: Settings, **update: Any) -> Settings:
    """``settings`` with another data folder (another machine's disk), same database."""
    return settings.model_copy(update={"database_url": settings.resolved_database_url, **update})


def versions(engine: ScreeningEngine) -> dict[str, str]:
    return {v.code: v.version for v in engine.lists}


async def until(check: Callable[[], T | None], seconds: float) -> T:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "not within the time allowed"
        await asyncio.sleep(0.1)


async def test_a_version_stored_from_another_disk_is_in_use_here_within_the_interval(
    settings: Settings, db: Database, list_server: ListServer, tmp_path: Path
) -> None:
    here = on_the_same_database(settings, data_dir=tmp_path / "here", lists_check_seconds=0.5)
    elsewhere = on_the_same_database(settings, data_dir=tmp_path / "elsewhere")
    async with started(here, run_jobs=False, load_screening=True) as runtime:
        engines = runtime.part(ScreeningEngines)
        before = engines.live
        assert versions(before)["un_sc_consolidated"] == BUNDLED_UN_DATE
        url = list_server.serve("/un.xml", un_xml())
        [outcome] = await update_lists(elsewhere, db, config=config(un_only(url)))
        assert outcome.changed and outcome.version == NEW_UN_DATE
        stored_at = time.monotonic()
        engine = await until(lambda: engines.live if engines.live is not before else None, 60)
        took = time.monotonic() - stored_at
        assert versions(engine)["un_sc_consolidated"] == NEW_UN_DATE
        print(f"picked up and reloaded in {took:.1f} s")
        # Written to this data folder from the database's copy of the files
        mine = store.current_version(here.data_dir, "un_sc_consolidated")
        assert mine is not None and mine.sha256 == outcome.sha256
        # Nothing new: the next looks leave the engine alone
        await asyncio.sleep(1.2)
        assert engines.live is engine


async def test_a_request_in_flight_keeps_the_engine_it_started_with(
    app: FastAPI,
    client: httpx.AsyncClient,
    db: Database,
    make_account: AccountFactory,
    list_server: ListServer,
    tmp_path: Path,
) -> None:
    runtime = app.state.runtime
    engines = runtime.part(ScreeningEngines)
    original = engines.live
    account = await make_account("live", balance=100_000)
    body = {"name": "Abubakar Shekau", "birth_date": "1969"}
    screen = "/v3/screening/pep-and-sanction"
    gate = threading.Event()
    # The organisation's turn in the scoring pool is taken: its screening waits, engine in hand
    blocker = asyncio.create_task(runtime.scoring.run(gate.wait, tenant=account.org_id))
    try:
        request = asyncio.create_task(client.post(screen, json=body, headers=account.headers))
        await until(lambda: runtime.scoring.jobs_of(account.org_id) == 2, 30)
        mine = runtime.settings.model_copy(update={"data_dir": tmp_path / "data"})
        url = list_server.serve("/un.xml", un_xml())
        await update_lists(mine, db, config=config(un_only(url)))
        swapped = await reload(runtime, mine)  # the new version, swapped in mid-request
        assert versions(swapped)["un_sc_consolidated"] == NEW_UN_DATE
        gate.set()
        await blocker
        response = await request
        after = await client.post(screen, json=body, headers=account.headers)
    finally:
        gate.set()
        engines.live = original
    assert response.status_code == 200, response.text
    assert after.status_code == 200, after.text

    def un_versions(answer: httpx.Response) -> set[str]:
        """The UN list's versions in the answer: the hits' and the lists screened."""
        found: set[str] = set()

        def walk(value: Any) -> None:
            if isinstance(value, dict):
                if value.get("list_code", value.get("code")) == "un_sc_consolidated":
                    found.add(str(value.get("list_version", value.get("version"))))
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        walk(answer.json())
        return found

    assert un_versions(response) == {BUNDLED_UN_DATE}  # the engine it started with, whole
    assert un_versions(after) == {NEW_UN_DATE}


async def test_the_age_is_the_publishers_date_not_the_download_day(
    settings: Settings, db: Database, list_server: ListServer, tmp_path: Path
) -> None:
    """The bundled UN file, downloaded again today, is as old as its dateGenerated says; an
    OFAC CSV file, which carries no date, has an unknown age (never 0 days)."""
    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    un = gzip.decompress(
        resources.files("hakiki.engines.screening.data")
        .joinpath("un_sc_consolidated.xml.gz")
        .read_bytes()
    )
    cons = {
        role: list_server.serve(
            f"/cons_{role}.csv", (TEST_DATA / f"ofac_cons_{role}.csv").read_bytes()
        )
        for role in ("prim", "alt", "add")
    }
    sources = {
        "us_ofac_sdn": {"enabled": False},
        "un_sc_consolidated": {"files": {"xml": list_server.serve("/un.xml", un)}},
        "us_ofac_consolidated": {"files": cons},
    }
    outcomes = {o.code: o for o in await update_lists(mine, db, config=config(sources))}
    assert outcomes["un_sc_consolidated"].published == BUNDLED_UN_DATE
    ofac = outcomes["us_ofac_consolidated"]
    assert ofac.status == "ok" and ofac.published is None
    assert ofac.version is not None and ofac.version.startswith("sha256-")  # never a date
    status = {row["code"]: row for row in await list_status(mine, db, config=config(sources))}
    un_row = status["un_sc_consolidated"]
    age = (utcnow().date() - date.fromisoformat(BUNDLED_UN_DATE)).days
    assert un_row["source"] == "downloaded" and un_row["date"] == BUNDLED_UN_DATE
    assert un_row["age_days"] == age and age > 90 and un_row["stale"] is True
    assert un_row["date_note"] is None
    ofac_row = status["us_ofac_consolidated"]
    assert ofac_row["date"] is None and ofac_row["age_days"] is None
    assert ofac_row["stale"] is None and "no publication date" in ofac_row["date_note"]


async def test_the_scheduled_update_is_queued_once_per_period_and_runs(
    settings: Settings,
    list_server: ListServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a database of its own: the session's app runs jobs, and would run these."""
    every = 3600
    backend = "postgresql" if settings.database_url else "sqlite"
    fresh = await isolated_settings(backend, tmp_path / "data", "schedule")
    scheduled = on_the_same_database(fresh, lists_update_every_seconds=every)
    db = create_database(scheduled)
    try:
        async with (
            started(scheduled, run_jobs=False) as one,
            started(
                on_the_same_database(scheduled, data_dir=tmp_path / "other"), run_jobs=False
            ) as two,
        ):
            # Both look at their start: the current period is claimed, its job queued, once
            async def scheduled_jobs() -> int:
                async with read(db) as conn:
                    query = select(jobs.c.id).where(jobs.c.task == UPDATE_TASK)
                    return len((await conn.execute(query)).all())

            deadline = time.monotonic() + 30
            while await scheduled_jobs() == 0:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
            # Looking again, from either process, in this period queues nothing more
            assert await queue_scheduled_update(two) is None
            assert await queue_scheduled_update(one) is None
            assert await scheduled_jobs() == 1
            now = (time.time() // every + 1000) * every + 10  # a period no one claimed yet
            job_id = await queue_scheduled_update(one, now)
            assert job_id is not None
            assert await queue_scheduled_update(two, now) is None  # the period is taken
            assert await queue_scheduled_update(one, now + 5) is None
            assert await queue_scheduled_update(two, now + every) is not None  # the next one
            async with read(db) as conn:
                queued = (
                    await conn.execute(select(jobs.c.task).where(jobs.c.id == job_id))
                ).scalar_one()
            assert queued == UPDATE_TASK
            # The job: the update, then this process's engine (not loaded: nothing to reload)
            url = list_server.serve("/un.xml", un_xml())
            monkeypatch.setenv("HAKIKI_LISTS_SOURCES", json.dumps(un_only(url)))
            monkeypatch.setenv("HAKIKI_LISTS_RETRIES", "0")
            task = TASKS[UPDATE_TASK]
            await task.handler(JobContext(one, job_id, 1, task), {"slot": 0})
        async with read(db) as conn:
            row = (await conn.execute(select(list_current))).one()
        assert row.code == "un_sc_consolidated" and row.version == NEW_UN_DATE
        stored = store.current_version(scheduled.data_dir, "un_sc_consolidated")
        assert stored is not None and stored.version == NEW_UN_DATE
    finally:
        await db.dispose()
