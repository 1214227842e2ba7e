"""The job that builds an uploaded watchlist's index: reads every row (progress written every
second: rows read, refused, issues), builds and seals the index, then marks the watchlist
ready. A file that cannot be used (no ``name`` column, a line too long, too many rows, bytes
that are not its encoding) ends the watchlist ``failed`` with the reason naming the line. A run
cut short (the process died) starts again from the file: nothing is half ready."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from typing import Any

from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.core.runtime import Runtime
from hakiki.core.sealed_files import SealedFileError
from hakiki.engines.screening.parsers.text import ListFormatError
from hakiki.engines.screening.parsers.watchlist_csv import WatchlistReader
from hakiki.screening.watchlists import build, files, repository
from hakiki.screening.watchlists.presence import WatchlistPresence

BUILD_TASK = "screening.watchlist_build"
PROGRESS_SECONDS = 1.0
# From this size, a list is built in a child process (a million rows peak at about 2 GB).
CHILD_BUILD_BYTES = 8 * 1024 * 1024
_UNFINISHED = ("pending", "processing")


async def _fail(runtime: Runtime, conn: Any, row: dict[str, Any], reason: str) -> None:
    await repository.update_watchlist(
        conn,
        row["id"],
        only_if_status=_UNFINISHED,
        status="failed",
        failure_reason=reason,
        updated_at=utcnow(),
        completed_at=utcnow(),
    )
    files.remove_files(runtime.settings.data_dir, row["org_id"], row["id"])


async def _give_up(runtime: Runtime, conn: Any, payload: dict[str, Any], error: str) -> None:
    row = await repository.get(conn, str(payload["watchlist_id"]))
    if row is not None:
        await _fail(runtime, conn, row, f"the build stopped: {error}")


@task(BUILD_TASK, max_attempts=3, on_give_up=_give_up)
async def build_watchlist(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    settings = runtime.settings
    async with read(runtime.db) as conn:
        row = await repository.get(conn, str(payload["watchlist_id"]))
    if row is None or row["status"] not in _UNFINISHED:
        return  # deleted, or already built by an earlier attempt
    async with transaction(runtime.db) as conn:
        started = await repository.update_watchlist(
            conn,
            row["id"],
            only_if_status=_UNFINISHED,
            status="processing",
            rows_read=0,
            rows_refused=0,
            issue_count=0,
            issues=[],
            updated_at=utcnow(),
        )
    if not started:
        return
    if row["size_bytes"] >= CHILD_BUILD_BYTES:
        outcome = await _build_in_child(runtime, row)
    else:
        outcome = await _build_here(runtime, row)
    if outcome is None:  # deleted while it was built
        files.remove_files(settings.data_dir, row["org_id"], row["id"])
        return
    if "error" in outcome:
        async with transaction(runtime.db) as conn:
            if "progress" in outcome:
                await repository.update_watchlist(
                    conn, row["id"], only_if_status=_UNFINISHED, **outcome["progress"]
                )
            await _fail(runtime, conn, row, outcome["error"])
        raise PermanentError(outcome["error"])
    async with transaction(runtime.db) as conn:
        done = await repository.update_watchlist(
            conn,
            row["id"],
            only_if_status=("processing",),
            status="ready",
            rows_accepted=outcome["entity_count"],
            updated_at=utcnow(),
            completed_at=utcnow(),
            **outcome["progress"],
        )
    if not done:  # deleted while it was built
        files.remove_files(settings.data_dir, row["org_id"], row["id"])
        return
    with contextlib.suppress(LookupError):  # screened at once by this process's screenings
        await runtime.part(WatchlistPresence).refresh(row["org_id"], row["environment"])


async def _build_here(runtime: Runtime, row: dict[str, Any]) -> dict[str, Any] | None:
    """Build in a thread of this process (a small list); None if deleted meanwhile."""
    vault, data_dir = runtime.vault, runtime.settings.data_dir
    reader: WatchlistReader | None = None
    try:
        reader = await asyncio.to_thread(
            build.open_reader, vault, data_dir, row, runtime.settings.watchlist_max_rows
        )
        building = asyncio.ensure_future(
            asyncio.to_thread(build.build_index, vault, data_dir, row, reader)
        )
        while not building.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(building), PROGRESS_SECONDS)
            progress = build.progress_of(reader)
            if not building.done() and not await _record_progress(runtime, row, progress):
                await asyncio.wait([building])  # deleted meanwhile: let the build end, drop it
                return None
        engine = building.result()
    except (ListFormatError, SealedFileError) as error:
        outcome: dict[str, Any] = {"error": str(error)}
        if reader is not None:
            outcome["progress"] = build.progress_of(reader)
        return outcome
    return {"entity_count": engine.entity_count, "progress": build.progress_of(reader)}


async def _build_in_child(runtime: Runtime, row: dict[str, Any]) -> dict[str, Any] | None:
    """Build in a child process (a large list: the build's peak memory is the child's, given
    back when it exits); None if deleted meanwhile. A child that dies is an error the job's
    retries answer."""
    context = multiprocessing.get_context("spawn")  # nothing of this process's memory
    counters = context.Array("q", 3, lock=False)
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=build.build_in_child,
        args=(runtime.settings, row, runtime.settings.watchlist_max_rows, counters, send),
        name="hakiki-watchlist-build",
        daemon=True,
    )
    child.start()
    send.close()
    try:
        while child.is_alive():
            await asyncio.sleep(PROGRESS_SECONDS)
            read, refused, issues = list(counters)
            progress = {"rows_read": read, "rows_refused": refused, "issue_count": issues}
            if child.is_alive() and not await _record_progress(runtime, row, progress):
                child.terminate()
                return None
        outcome: dict[str, Any] | None = (
            await asyncio.to_thread(receive.recv) if receive.poll() else None
        )
    finally:
        await asyncio.to_thread(child.join)
        receive.close()
    if outcome is None:
        raise RuntimeError(f"the build process ended without an answer (exit {child.exitcode})")
    return outcome


async def _record_progress(runtime: Runtime, row: dict[str, Any], progress: dict[str, Any]) -> bool:
    """Write the progress so far; False when the watchlist is no longer being built."""
    async with transaction(runtime.db) as conn:
        return await repository.update_watchlist(
            conn,
            row["id"],
            only_if_status=("processing",),
            updated_at=utcnow(),
            **progress,
        )
