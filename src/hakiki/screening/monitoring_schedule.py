"""When ongoing monitoring runs: a tick, every ``HAKIKI_MONITORING_CHECK_SECONDS`` in each
process that runs jobs (runtime.py), that

- compares the live screening lists this process holds (``ScreeningEngines.live``) with the
  versions the monitoring last screened (``monitoring_list_state``): a difference moves the
  state and starts a ``delta`` run, in one transaction whose conditional update only one
  process wins;
- starts the day's ``full`` pass of each environment and the day's ``billing`` run (which
  charges the month's subjects not yet charged), once a day: their keys are unique.

A process whose lists lag behind the stored versions (``lists/store``: the update it has not
reloaded yet) starts nothing: it would screen backwards."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.runtime import Runtime
from hakiki.lists import store
from hakiki.lists.engines import ScreeningEngines
from hakiki.screening import monitoring_repository as repository
from hakiki.screening.monitoring_runs import TASK

logger = logging.getLogger("hakiki.monitoring")


class _Lost(Exception):
    """Another process moved the list state first."""


def _run_row(kind: str, environment: str, key: str, target: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": new_id("mrun"),
        "key": key,
        "kind": kind,
        "environment": environment,
        "status": "queued",
        "target": target,
        "subjects": 0,
        "entities": 0,
        "done": 0,
        "alerts_raised": 0,
        "alerts_closed": 0,
        "created_at": utcnow(),
    }


async def start_run(
    runtime: Runtime, kind: str, environment: str, key: str, target: dict[str, Any]
) -> str | None:
    """Start the run with this unique key (its row and its job, one transaction); its id, or
    None when it was started already."""
    row = _run_row(kind, environment, key, target)
    try:
        async with transaction(runtime.db) as conn:
            await repository.create_run(conn, row)
            await enqueue(conn, TASK, {"run_id": row["id"]})
    except IntegrityError:
        return None
    _wake(runtime)
    return str(row["id"])


def _wake(runtime: Runtime) -> None:
    if runtime.jobs is not None:
        runtime.jobs.wake()


def _lagging(runtime: Runtime, held: dict[str, str]) -> bool:
    """This process holds a list older than the version stored as current (a reload to come)."""
    for code, version in held.items():
        stored = store.current_version(runtime.settings.data_dir, code)
        if stored is not None and stored.version != version:
            return True
    return False


async def check_lists(runtime: Runtime) -> str | None:
    """Start a delta run when the live lists held here differ from those last screened; its
    id."""
    engines = runtime.part(ScreeningEngines)
    if not engines.live_loaded:
        async with read(runtime.db) as conn:
            if not await repository.active_subjects_exist(conn, "live"):
                return None  # no one to watch: a worker need not load the lists for that
    engine = await engines.load_live()
    held = {v.code: v.version for v in engine.lists}
    if _lagging(runtime, held):
        return None
    async with read(runtime.db) as conn:
        state = await repository.list_state(conn)
    target: dict[str, str | None] = {
        code: version for code, version in held.items() if state.get(code) != version
    }
    target.update({code: None for code in state if code not in held})
    if not target:
        return None
    row = _run_row("delta", "live", "", target)
    row["key"] = "delta:" + row["id"]
    now = utcnow()
    try:
        async with transaction(runtime.db) as conn:
            for code, version in target.items():
                if version is None:
                    await repository.forget_state(conn, code, state[code])
                elif not await repository.move_state(conn, code, state.get(code), version, now):
                    raise _Lost
            await repository.create_run(conn, row)
            await enqueue(conn, TASK, {"run_id": row["id"]})
    except (_Lost, IntegrityError):
        return None
    _wake(runtime)
    logger.info("monitoring: lists changed (%s): delta run %s", target, row["id"])
    return str(row["id"])


def day_key(kind: str, environment: str, now: datetime) -> str:
    return f"{kind}:{environment}:{now.date().isoformat()}"


async def start_daily(runtime: Runtime, now: datetime) -> list[str]:
    """The day's full passes and billing run, when not started yet; their ids."""
    started: list[str] = []
    for environment in ("live", "sandbox"):
        found = await start_run(runtime, "full", environment, day_key("full", environment, now), {})
        if found:
            started.append(found)
    month = now.strftime("%Y-%m")
    billing = await start_run(
        runtime, "billing", "live", day_key("billing", "live", now), {"month": month}
    )
    if billing:
        started.append(billing)
    return started


# One tick at a time in a process (a slow one, loading the lists, is not overlapped by the next).
TICKING = asyncio.Lock()


async def tick(runtime: Runtime, now: datetime | None = None) -> list[str]:
    """One look: the runs it started."""
    async with TICKING:
        started: list[str] = []
        delta = await check_lists(runtime)
        if delta:
            started.append(delta)
        started.extend(await start_daily(runtime, now or utcnow()))
        return started
