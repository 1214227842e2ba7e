"""The delivery job (docs/api.md#webhooks): at least once, on Svix's schedule of about a day."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.jobs.registry import JobContext, task
from hakiki.core.runtime import Runtime
from hakiki.webhooks.delivery import BACKOFF, MAX_ATTEMPTS, attempt_delivery, give_up

DELIVER = "webhooks.deliver"


async def _give_up(
    runtime: Runtime, conn: AsyncConnection, payload: dict[str, Any], error: str
) -> None:
    await give_up(conn, str(payload["delivery_id"]), error)


@task(DELIVER, max_attempts=MAX_ATTEMPTS, backoff=BACKOFF, on_give_up=_give_up)
async def deliver(context: JobContext, payload: dict[str, Any]) -> None:
    await attempt_delivery(context.runtime, str(payload["delivery_id"]))
