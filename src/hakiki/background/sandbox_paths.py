"""The sandbox's scripted paths (docs/sandbox.md#background-checks): a sandbox request whose
candidate e-mail ends in +complete, +consider, +stall or +expire takes that path a few seconds
after it is created (or reinitiated), through the same transitions a live one does."""

from __future__ import annotations

from typing import Any

from hakiki.background import lifecycle, repository, timers
from hakiki.core import clock
from hakiki.core.database import transaction
from hakiki.core.jobs.registry import JobContext, task

SANDBOX_ANALYST = "sandbox analyst"


def _scripted_result(path: str, code: str, codes: list[str]) -> str:
    """+consider: the first screening check (else the first check) says consider."""
    if path != "consider":
        return "clear"
    flagged = next((c for c in ("sanctions_pep", "adverse_media") if c in codes), codes[0])
    return "consider" if code == flagged else "clear"


@task(timers.SANDBOX_TASK, max_attempts=5)
async def take_sandbox_path(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    async with transaction(runtime.db) as conn:
        row = await repository.lock_request(conn, str(payload["request_id"]))
        if (
            row is None
            or int(row["invitation"]) != int(payload["invitation"])
            or row["status"] != "pending"
            or row["environment"] != "sandbox"
        ):
            return
        path = str(row["sandbox_path"])
        if path == "expire":
            moved = await lifecycle.transition(
                conn, row, "expire", clock.utcnow(), "sandbox +expire: the invitation expired"
            )
            return
        moved = await timers.submit(conn, runtime, row, {"sandbox": path}, [])
        if moved is None:
            return
        if path == "stall":
            await lifecycle.transition(
                conn, moved, "stall", clock.utcnow(), "sandbox +stall: a check passed its SLA"
            )
            return
        checks = await repository.checks_of(conn, row["id"])
        codes = [c["code"] for c in checks]
        for check in checks:
            result = _scripted_result(path, check["code"], codes)
            latest = await repository.lock_request(conn, row["id"])  # held: read again
            assert latest is not None
            await lifecycle.finish_check(
                conn,
                runtime.vault,
                latest,
                check | {"status": "running"},
                result=result,
                evidence={"sandbox": f"+{path}: scripted {result}"},
                at=clock.utcnow(),
                billable=False,
                recorded_by=SANDBOX_ANALYST if check["kind"] == "manual" else None,
            )
