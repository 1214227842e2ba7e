"""The delivery job (DESIGN §5): at least once, on Svix's schedule of about a day."""

from __future__ import annotations

from typing import Any

from hakiki.jobs.registry import JobContext, task
from hakiki.webhooks.delivery import BACKOFF, MAX_ATTEMPTS, attempt_delivery

DELIVER = "webhooks.deliver"


@task(DELIVER, max_attempts=MAX_ATTEMPTS, backoff=BACKOFF)
async def deliver(context: JobContext, payload: dict[str, Any]) -> None:
    await attempt_delivery(
        context.runtime, str(payload["delivery_id"]), final=context.final_attempt
    )
