"""The durable job that trains an uploaded loan book (credit.train_model)."""

from __future__ import annotations

from functools import partial
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.jobs.registry import JobContext, task
from hakiki.core.runtime import Runtime
from hakiki.credit.registry import repository
from hakiki.credit.registry.training import train_stored
from hakiki.statements.service import metrics_in

TRAIN_TASK = "credit.train_model"


async def _give_up(
    runtime: Runtime, conn: AsyncConnection, payload: dict[str, Any], error: str
) -> None:
    found = await repository.get_model(conn, str(payload["model_id"]))
    if found is not None and found["status"] not in ("trained", "failed"):
        await repository.update_model(
            conn,
            found["id"],
            {
                "status": "failed",
                "stage": "failed",
                "failure_reason": f"training stopped: {error}",
                "book_encrypted": None,
            },
        )


@task(TRAIN_TASK, max_attempts=3, backoff=(5, 30), on_give_up=_give_up)
async def train_model(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    model_id = str(payload["model_id"])
    org_id, environment = str(payload["org_id"]), str(payload["environment"])
    lookup = partial(metrics_in, runtime.db, runtime.vault, org_id, environment)
    await train_stored(runtime.db, runtime.vault, model_id, lookup)
