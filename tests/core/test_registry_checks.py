"""The shared mechanism of registry checks (core/registry_checks), with a category of its own
registered for the test: finalising is conditional (whoever finishes second changes nothing,
and only one event goes out), an overlong upstream reference is cut rather than failing the
write, and a row whose category no module registered fails its job at once; on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel
from sqlalchemy import select

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.envelope import Outcome
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.registry_checks import repository
from hakiki.core.registry_checks.completion import finalise
from hakiki.core.registry_checks.kinds import KINDS, CheckKind, Final, Row
from hakiki.core.registry_checks.tasks import COMPLETE_TASK
from hakiki.core.runtime import Runtime
from hakiki.webhooks.service import emit
from hakiki.webhooks.tables import webhook_events
from tests.conftest import AccountFactory
from tests.kyc.helpers import run_job_now


class Data(BaseModel):
    status: str
    state: str


async def _never_asked(runtime: Runtime, row: Row) -> Outcome:
    raise AssertionError("the test finalises by hand")


async def _concluded(runtime: Runtime, row: Row, outcome: Outcome) -> Final:
    return _final(outcome)


def _final(outcome: Outcome, provider_reference: str | None = None) -> Final:
    state = "failed" if outcome is Outcome.SOURCE_UNAVAILABLE else "completed"
    return Final(outcome, Data(status=outcome.value, state=state), outcome.value,
                 provider_reference, {"status": outcome.value})  # fmt: skip


TEST_KIND = CheckKind(
    category="test", noun="test check", ask_again=_never_asked, conclude=_concluded, emit=emit
)


@pytest.fixture
def runtime(runtime: Runtime) -> Iterator[Runtime]:
    """The app's runtime, with the test kind of registry check registered."""
    KINDS["test"] = TEST_KIND
    yield runtime
    KINDS.pop("test", None)


async def _pending_row(runtime: Runtime, org_id: str, category: str = "test") -> Row:
    row: Row = {
        "id": new_id("chk"),
        "org_id": org_id,
        "environment": "sandbox",
        "reference": new_id("ref"),
        "category": category,
        "endpoint": f"{category}.check",
        "state": "pending",
        "outcome": "PENDING",
        "message": "pending",
        "provider": "test",
        "provider_reference": None,
        "subject_hash": "0" * 64,
        "request_encrypted": runtime.vault.encrypt(json.dumps({})),
        "data_encrypted": runtime.vault.encrypt(
            Data(status="PENDING", state="pending").model_dump_json()
        ),
        "request_id": new_id("req"),
        "created_at": utcnow(),
        "completed_at": None,
    }
    async with transaction(runtime.db) as conn:
        assert await repository.insert_once(conn, row)
        assert not await repository.insert_once(conn, {**row, "id": new_id("chk")})
    return row


async def _events(db: Database, reference: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(webhook_events).where(webhook_events.c.resource_id == reference)
        )
        return [dict(r._mapping) for r in rows]


async def test_whoever_finalises_second_changes_nothing(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    row = await _pending_row(runtime, account.org_id)
    won = await asyncio.gather(
        finalise(runtime, TEST_KIND, row, _final(Outcome.VERIFIED)),
        finalise(runtime, TEST_KIND, row, _final(Outcome.NOT_FOUND)),
    )
    assert sorted(won) == [False, True]
    winner = Outcome.VERIFIED if won[0] else Outcome.NOT_FOUND
    async with read(runtime.db) as conn:
        stored = await repository.get(conn, row["id"])
    assert stored is not None
    assert (stored["state"], stored["outcome"], stored["message"]) == (
        "completed", winner.value, winner.value,
    )  # fmt: skip
    assert stored["completed_at"] is not None
    (event,) = await _events(runtime.db, row["reference"])
    assert (event["type"], event["data"]) == ("verification.completed", {"status": winner.value})
    again = await finalise(runtime, TEST_KIND, stored, _final(Outcome.SOURCE_UNAVAILABLE))
    assert again is False and len(await _events(runtime.db, row["reference"])) == 1


async def test_an_overlong_upstream_reference_is_cut_not_a_failed_write(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    row = await _pending_row(runtime, account.org_id)
    final = _final(Outcome.SOURCE_UNAVAILABLE, provider_reference="x" * 500)
    assert await finalise(runtime, TEST_KIND, row, final)
    async with read(runtime.db) as conn:
        stored = await repository.get(conn, row["id"])
    assert stored is not None and stored["provider_reference"] == "x" * 120
    assert stored["state"] == "failed"
    (event,) = await _events(runtime.db, row["reference"])
    assert event["type"] == "verification.failed"


async def test_a_row_of_no_registered_category_fails_its_job_at_once(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    row = await _pending_row(runtime, account.org_id, category="unknown")
    async with transaction(runtime.db) as conn:
        job_id = await enqueue(conn, COMPLETE_TASK, {"check_id": row["id"]}, delay_seconds=3600)
    job = await run_job_now(runtime.db, job_id)
    assert job["status"] == "failed" and "unknown" in (job["last_error"] or "")
    async with read(runtime.db) as conn:
        stored = await repository.get(conn, row["id"])
    assert stored is not None and stored["state"] == "pending"
