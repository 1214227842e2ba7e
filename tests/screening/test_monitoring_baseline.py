"""An enrolment is a job (issue 35, docs/decisions.md): POST /v3/screening/monitored-subjects
answers the envelope PENDING and queues the subject's baseline screening in the same
transaction; once the real job has run, the read answers COMPLETED with the baseline's verdict
(PASS, REVIEW with its alert, INCOMPLETE when a check could not run); a subject enrolled by a
screening with `monitor: true` is COMPLETED at once with no second alert; a crashed baseline
is retried whole, never opening an alert twice nor charging. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.core.jobs.registry import TASKS, JobContext
from hakiki.core.jobs.tables import jobs
from hakiki.core.runtime import Runtime
from hakiki.lists.engines import ScreeningEngines
from hakiki.screening import alerts_repository, monitoring_runs
from hakiki.screening.monitoring_schedule import start_run
from hakiki.screening.monitoring_service import BASELINE_TASK
from tests.conftest import AccountFactory, debit_count, unique
from tests.screening.test_monitoring_runs import run_now, wait_run
from tests.support.envelope import envelope_problems

SUBJECTS = "/v3/screening/monitored-subjects"


async def settled(
    client: httpx.AsyncClient, headers: dict[str, str], subject_id: str
) -> dict[str, Any]:
    """The subject's read once its baseline has run (the runtime's worker runs the job)."""
    deadline = asyncio.get_running_loop().time() + 60
    while True:
        response = await client.get(f"{SUBJECTS}/{subject_id}", headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["status"] != "PENDING":
            return body
        assert asyncio.get_running_loop().time() < deadline, body
        await asyncio.sleep(0.05)


async def baseline_jobs(db: Database, subject_id: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(select(jobs).where(jobs.c.task == BASELINE_TASK))
        return [dict(r._mapping) for r in rows if r.payload["subject_id"] == subject_id]


async def alerts_of(
    runtime: Runtime, org_id: str, environment: str, subject_key: str
) -> list[dict[str, Any]]:
    async with read(runtime.db) as conn:
        return await alerts_repository.alerts_for_subject(conn, org_id, environment, subject_key)


async def test_an_enrolment_is_pending_until_its_baseline_clears_it(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    body = {"name": "Nyokabi Wairimu", "birth_date": "1991-03-03", "reference": unique("c")}
    created = await client.post(SUBJECTS, json=body, headers=account.headers)
    assert created.status_code == 201, created.text
    answer = created.json()
    assert envelope_problems(answer) == []
    assert answer["status"] == "PENDING" and answer["async_pending"] is True
    assert answer["response_code"] == "05" and answer["verdict"] is None
    subject_id = answer["data"]["id"]
    assert answer["reference"] == subject_id and answer["data"]["state"] == "enrolling"
    assert answer["data"]["last_screened_at"] is None and answer["data"]["lists_screened"] == []
    assert answer["billing"]["charged"] is False
    assert len(await baseline_jobs(db, subject_id)) == 1  # queued with the enrolment

    done = await settled(client, account.headers, subject_id)
    assert envelope_problems(done) == []
    assert (done["status"], done["verdict"], done["found"]) == ("COMPLETED", "PASS", False)
    subject = done["data"]
    assert subject["state"] == "active" and subject["last_screened_at"]
    assert {one["code"] for one in subject["lists_screened"]} >= {
        "sandbox_sanction",
        "sandbox_pep",
    }
    assert subject["open_alerts"] == 0 and subject["open_alert_ids"] == []
    assert subject["checks_not_run"] == []

    # enrolled again: 200, the same subject where it stands (no second baseline)
    again = await client.post(SUBJECTS, json=body, headers=account.headers)
    assert again.status_code == 200
    assert again.json()["reference"] == subject_id and again.json()["status"] == "COMPLETED"
    assert len(await baseline_jobs(db, subject_id)) == 1

    listed = (await client.get(SUBJECTS, headers=account.headers)).json()
    assert [(s["id"], s["state"]) for s in listed["data"]] == [(subject_id, "active")]

    assert (await client.delete(f"{SUBJECTS}/{subject_id}", headers=account.headers)).status_code
    gone = (await client.get(f"{SUBJECTS}/{subject_id}", headers=account.headers)).json()
    assert gone["data"]["state"] == "deleted" and gone["status"] == "COMPLETED"


async def test_a_listed_name_completes_for_review_with_its_alert(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("sandbox")
    created = await client.post(
        SUBJECTS,
        json={"name": "Sandbox Sanction Person", "birth_date": "1970-01-01"},
        headers=account.headers,
    )
    assert created.json()["status"] == "PENDING"
    done = await settled(client, account.headers, created.json()["data"]["id"])
    assert (done["status"], done["verdict"], done["found"]) == ("COMPLETED", "REVIEW", True)
    alerts = await alerts_of(runtime, account.org_id, "sandbox", done["data"]["subject_key"])
    assert [(a["entity_id"], a["origin"], a["status"]) for a in alerts] == [
        ("sbx-s-1", "monitoring", "open")
    ]
    assert done["data"]["open_alert_ids"] == [alerts[0]["id"]]
    assert alerts[0]["monitored_subject_id"] == done["data"]["id"]


async def test_a_check_that_could_not_run_is_never_clear(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    created = await client.post(
        SUBJECTS, json={"name": "Sandbox No PEP List"}, headers=account.headers
    )
    done = await settled(client, account.headers, created.json()["data"]["id"])
    assert envelope_problems(done) == []
    assert (done["status"], done["verdict"], done["ok"]) == ("INCOMPLETE", None, False)
    assert done["data"]["checks_not_run"] == ["pep"]
    assert "pep" in done["message"]


async def test_enrolled_by_a_screening_it_is_completed_at_once_without_a_second_alert(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime, db: Database
) -> None:
    account = await make_account("sandbox")
    screened = await client.post(
        "/v3/screening/individual",
        json={"name": "Sandbox Sanction Person", "monitor": True, "reference": unique("o")},
        headers=account.headers,
    )
    assert screened.status_code == 200, screened.text
    subject_id = screened.json()["data"]["monitored_subject_id"]
    read_now = (await client.get(f"{SUBJECTS}/{subject_id}", headers=account.headers)).json()
    assert envelope_problems(read_now) == []
    assert (read_now["status"], read_now["verdict"]) == ("COMPLETED", "REVIEW")
    assert read_now["data"]["state"] == "active" and read_now["data"]["source"] == "screening"
    versions = {v["code"]: v["version"] for v in screened.json()["data"]["aml"]["lists"]}
    assert {v["code"]: v["version"] for v in read_now["data"]["lists_screened"]} == versions
    assert await baseline_jobs(db, subject_id) == []  # the screening was its baseline
    alerts = await alerts_of(runtime, account.org_id, "sandbox", read_now["data"]["subject_key"])
    assert [(a["entity_id"], a["origin"]) for a in alerts] == [("sbx-s-1", "onboarding")]
    assert read_now["data"]["open_alert_ids"] == [alerts[0]["id"]]

    # the same subject enrolled through the endpoint afterwards: 200, no baseline, no alert
    again = await client.post(
        SUBJECTS, json={"name": "Sandbox Sanction Person"}, headers=account.headers
    )
    assert again.status_code == 200 and again.json()["reference"] == subject_id
    assert again.json()["verdict"] == "REVIEW"
    assert await baseline_jobs(db, subject_id) == []
    assert len(await alerts_of(runtime, account.org_id, "sandbox", alerts[0]["subject_key"])) == 1

    clear = await client.post(
        "/v3/screening/individual",
        json={"name": "Imani Wekesa", "monitor": True},
        headers=account.headers,
    )
    clear_id = clear.json()["data"]["monitored_subject_id"]
    shown = (await client.get(f"{SUBJECTS}/{clear_id}", headers=account.headers)).json()
    assert (shown["status"], shown["verdict"]) == ("COMPLETED", "PASS")


async def test_a_crashed_baseline_is_retried_whole_never_alerting_nor_charging_twice(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    price = runtime.price("screening.monitoring.month")
    account = await make_account("live", balance=10 * price)
    engine = await runtime.part(ScreeningEngines).load_live()
    listed = next(
        e
        for v in engine.lists
        if "sanction" in v.checks
        for e in engine.entities_of(v.code)
        if e.schema == "Person" and e.birth_dates and len(e.birth_dates[0]) == 10
    )
    real = monitoring_runs.raise_alerts
    crashes: list[str] = []

    async def crash_once(*args: Any, **kwargs: Any) -> list[str]:
        ids = await real(*args, **kwargs)  # the alert is written in the transaction...
        if not crashes:
            crashes.append(ids[0])
            raise RuntimeError("the worker died mid-baseline")  # ...which never commits
        return ids

    monkeypatch.setattr(monitoring_runs, "raise_alerts", crash_once)
    created = await client.post(
        SUBJECTS,
        json={
            "name": listed.primary_name,
            "birth_date": listed.birth_dates[0],
            "checks": ["sanction"],  # the test server's live lists hold no PEP list
        },
        headers=account.headers,
    )
    assert created.status_code == 201, created.text
    subject = created.json()["data"]
    deadline = asyncio.get_running_loop().time() + 60
    while not crashes or (await baseline_jobs(db, subject["id"]))[0]["attempts"] < 1:
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)
    [job] = await baseline_jobs(db, subject["id"])
    assert await alerts_of(runtime, account.org_id, "live", subject["subject_key"]) == []
    pending = await client.get(f"{SUBJECTS}/{subject['id']}", headers=account.headers)
    assert pending.json()["status"] == "PENDING"  # the crash rolled the baseline back whole
    await run_now(db, job["id"])  # its retry, due now

    done = await settled(client, account.headers, subject["id"])
    assert (done["status"], done["verdict"]) == ("COMPLETED", "REVIEW")
    alerts = await alerts_of(runtime, account.org_id, "live", subject["subject_key"])
    assert [(a["entity_id"], a["origin"]) for a in alerts] == [(listed.entity_id, "monitoring")]
    assert alerts[0]["id"] != crashes[0]  # the crashed attempt's alert never existed
    [job] = await baseline_jobs(db, subject["id"])
    assert job["status"] == "succeeded" and job["attempts"] == 2

    # delivered once more (at least once): nothing changes
    context = JobContext(runtime, job["id"], 3, TASKS[BASELINE_TASK])
    await monitoring_runs.run_baseline(context, {"subject_id": subject["id"]})
    assert len(await alerts_of(runtime, account.org_id, "live", subject["subject_key"])) == 1
    assert await debit_count(db, account.org_id) == 0  # the baseline charges nothing
    month = "2032-03"  # a month no other test bills
    for _ in range(2):  # the month's charge, once, however often billing runs
        run_id = await start_run(runtime, "billing", "live", unique("billing"), {"month": month})
        assert (await wait_run(db, str(run_id)))["status"] == "succeeded"
    assert await debit_count(db, account.org_id) == 1
