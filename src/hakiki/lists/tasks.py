"""The scheduled list update, a durable job (``HAKIKI_LISTS_UPDATE_EVERY_SECONDS``): queued
once per period by the first process to look (``watch.queue_scheduled_update``), run by one
job worker. Running it twice (at-least-once delivery) stores nothing new the second time and
announces nothing: a version is announced by the update that recorded it as current."""

from __future__ import annotations

import logging
from typing import Any

from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.lists.service import update_lists
from hakiki.lists.sources import ListsConfig
from hakiki.lists.watch import UPDATE_TASK, check_lists

logger = logging.getLogger("hakiki.lists")


@task(UPDATE_TASK, max_attempts=3)
async def scheduled_update(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    try:
        config = ListsConfig()
        outcomes = await update_lists(runtime.settings, runtime.db, config=config)
    except ValueError as exc:  # HAKIKI_LISTS_SOURCES is wrong: retrying cannot help
        raise PermanentError(f"scheduled list update: {exc}") from exc
    for outcome in outcomes:
        logger.info(
            "scheduled list update: %s %s %s%s",
            outcome.code,
            outcome.status,
            outcome.version or "",
            f" ({outcome.error})" if outcome.error else "",
        )
    await check_lists(runtime)  # in use here at once; elsewhere at each process's next look
