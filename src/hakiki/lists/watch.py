"""The list watch every API and worker process runs (``runtime.py``, every
``HAKIKI_LISTS_CHECK_SECONDS``): a new list version stored by `hakiki lists update` or the
scheduled update, on this machine or another, is in use here within that interval plus a
reload, without a restart.

One look (:func:`check_lists`):

1. read ``list_current`` (one small query: a row per list, the version every process must
   screen with; written in the transaction that recorded the version, ``service.py``);
2. when it changed since the last look, make this data folder agree: the version's folder is
   made current, written first from the database's copy of its files (``list_file_parts``)
   when this disk does not hold it (a process on another machine);
3. when the lists this folder names now are not those of the engine in use, reload
   (``service.reload``: built in a child process, read from the memory-mapped index cache,
   swapped in with one assignment). A request holds the engine object it started with, so
   nothing is screened with a mix of two versions.

The scheduled update (:func:`queue_scheduled_update`) rides on the same look: with
``HAKIKI_LISTS_UPDATE_EVERY_SECONDS`` set, the first process to look in a new period claims it
(a row of ``list_update_slots``) and queues one ``lists.update`` job in that transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hakiki.core.database import read, transaction
from hakiki.core.jobs.queue import enqueue
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.lists import index_cache, repository, store
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.loading import engine_key, list_identities
from hakiki.lists.service import reload

if TYPE_CHECKING:
    from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.lists")

UPDATE_TASK = "lists.update"


@dataclass
class ListWatch:
    """What this process last read of ``list_current`` (a runtime part)."""

    seen: tuple[tuple[str, str], ...] | None = None


async def check_lists(runtime: Runtime) -> ScreeningEngine | None:
    """One look; the new engine when this process reloaded, else None."""
    await sync_from_database(runtime)
    engines = runtime.part(ScreeningEngines)
    if not engines.live_loaded:  # loaded at its first use, from the folder as it is then
        return None
    settings = runtime.settings
    wanted = await asyncio.to_thread(lambda: index_cache.cache_key(list_identities(settings)))
    in_use = engine_key(engines.live)
    # An engine of unknown origin (set by hand, not loaded from the folder) is left alone.
    if in_use is None or in_use == wanted:
        return None
    return await reload(runtime)


async def sync_from_database(runtime: Runtime) -> bool:
    """Make this data folder's current versions those the database names; whether it looked
    at a change (False: nothing new since the last look)."""
    watch = runtime.part(ListWatch)
    async with read(runtime.db) as conn:
        rows = await repository.current_versions(conn)
    seen = tuple((str(row["code"]), str(row["sha256"])) for row in rows)
    if seen == watch.seen:
        return False
    for row in rows:
        await _put_on_disk(runtime, row)
    watch.seen = seen  # only once every version is on this disk: else look again next time
    return True


async def _put_on_disk(runtime: Runtime, row: dict[str, Any]) -> None:
    data_dir: Path = runtime.settings.data_dir
    code, folder, sha256 = str(row["code"]), str(row["folder"]), str(row["sha256"])
    here = store.current_version(data_dir, code)
    if here is not None and here.sha256 == sha256:
        return
    if not store.holds(data_dir, code, folder, sha256):
        folder = await _write_from_database(runtime, code, folder, sha256, row["manifest"])
    store.make_current(data_dir, code, folder)
    logger.info("list %s: version %s (%s) made current here", code, row["version"], folder)


async def _write_from_database(
    runtime: Runtime, code: str, folder: str, sha256: str, manifest_text: str
) -> str:
    """Write a version recorded on another machine into this data folder; its folder name."""
    data_dir: Path = runtime.settings.data_dir
    manifest = json.loads(manifest_text)
    written: dict[str, Path] = {}
    try:
        async with read(runtime.db) as conn:
            roles = await repository.file_roles(conn, sha256)
            wanted = {str(meta["role"]) for meta in manifest["files"]}
            if not wanted <= set(roles):
                raise store.StoredListError(
                    f"list {code} {folder}: the database holds no files of this version"
                )
            for role in sorted(wanted):
                path = store.incoming_path(data_dir, code)
                written[role] = path
                with path.open("wb") as handle:
                    async for part in repository.file_parts(conn, sha256, role):
                        await asyncio.to_thread(handle.write, part)
        return await asyncio.to_thread(
            store.write_version, data_dir, code, folder, manifest, written
        )
    finally:
        for path in written.values():
            path.unlink(missing_ok=True)


async def queue_scheduled_update(runtime: Runtime, now: float | None = None) -> str | None:
    """With a scheduled update configured, claim the current period and queue its job, unless
    a process already did; the job's id when this look queued it."""
    every = runtime.settings.lists_update_every_seconds
    if every <= 0:
        return None
    slot = int((time.time() if now is None else now) // every)
    async with transaction(runtime.db) as conn:
        if not await repository.claim_update_slot(conn, slot, every):
            return None
        job_id = await enqueue(conn, UPDATE_TASK, {"slot": slot})
    logger.info("scheduled list update queued (period %d of %d s): job %s", slot, every, job_id)
    return job_id


async def look(runtime: Runtime) -> None:
    """The periodic chore: the scheduled update when due, then one look for a new version."""
    await queue_scheduled_update(runtime)
    await check_lists(runtime)
