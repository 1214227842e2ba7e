"""The job that builds an uploaded watchlist's index: reads every row (progress written every
second: rows read, refused, issues), builds and seals the index, then marks the watchlist
ready. A file that cannot be used (no ``name`` column, a line too long, too many rows, bytes
that are not its encoding) ends the watchlist ``failed`` with the reason naming the line. A run
cut short (the process died) starts again from the file: nothing is half ready."""

from __future__ import annotations

import asyncio
import contextlib
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
_UNFINISHED = ("pending", "processing")


def _progress(reader: WatchlistReader) -> dict[str, Any]:
    return {
        "rows_read": reader.rows_read,
        "rows_refused": reader.refused,
        "issue_count": reader.issue_count,
        "issues": [
            {"line": i.line, "problem": i.public(), "refused": i.refused} for i in reader.issues
        ],
    }


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
    vault, data_dir = runtime.vault, settings.data_dir
    reader: WatchlistReader | None = None
    try:
        reader = await asyncio.to_thread(
            build.open_reader, vault, data_dir, row, settings.watchlist_max_rows
        )
        building = asyncio.ensure_future(
            asyncio.to_thread(build.build_index, vault, data_dir, row, reader)
        )
        while not building.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(building), PROGRESS_SECONDS)
            if not building.done() and not await _record_progress(runtime, row, reader):
                await asyncio.wait([building])  # deleted meanwhile: let the build end, drop it
                files.remove_files(data_dir, row["org_id"], row["id"])
                return
        engine = building.result()
    except (ListFormatError, SealedFileError) as error:
        async with transaction(runtime.db) as conn:
            if reader is not None:
                await repository.update_watchlist(
                    conn, row["id"], only_if_status=_UNFINISHED, **_progress(reader)
                )
            await _fail(runtime, conn, row, str(error))
        raise PermanentError(str(error)) from error
    async with transaction(runtime.db) as conn:
        done = await repository.update_watchlist(
            conn,
            row["id"],
            only_if_status=("processing",),
            status="ready",
            rows_accepted=engine.entity_count,
            updated_at=utcnow(),
            completed_at=utcnow(),
            **_progress(reader),
        )
    if not done:  # deleted while it was built
        files.remove_files(data_dir, row["org_id"], row["id"])
        return
    with contextlib.suppress(LookupError):  # screened at once by this process's screenings
        await runtime.part(WatchlistPresence).refresh(row["org_id"], row["environment"])


async def _record_progress(runtime: Runtime, row: dict[str, Any], reader: WatchlistReader) -> bool:
    """Write the progress so far; False when the watchlist is no longer being built."""
    progress = _progress(reader)
    async with transaction(runtime.db) as conn:
        return await repository.update_watchlist(
            conn,
            row["id"],
            only_if_status=("processing",),
            updated_at=utcnow(),
            **progress,
        )
