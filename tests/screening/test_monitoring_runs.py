"""Ongoing monitoring's runs (issue 34), through the real job on SQLite and PostgreSQL: a list
version change turns a monitored subject into an alert (scored as an onboarding screening
scores it), an amended entry amends it, a removed entry closes it; the daily full pass; the
monthly billing, once per subject and month even when run again; the sandbox's list update."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import httpx
from sqlalchemy import select, update

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.jobs.tables import jobs
from hakiki.core.runtime import Runtime
from hakiki.core.wallet.service import credit
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry
from hakiki.lists.engines import ScreeningEngines
from hakiki.screening import alerts_repository
from hakiki.screening import monitoring_repository as repository
from hakiki.screening.monitoring_schedule import TICKING, start_run, tick
from hakiki.screening.monitoring_tables import monitoring_runs
from tests.conftest import AccountFactory, debit_count, unique

SUBJECTS = "/v3/screening/monitored-subjects"
_BASE: list[ListSnapshot] = []


def _base_snapshots(engine: ScreeningEngine) -> list[ListSnapshot]:
    """The lists the session's live engine holds (the bundled ones), as snapshots."""
    if not _BASE:
        _BASE.extend(
            ListSnapshot(
                code=v.code,
                title=v.title,
                version=v.version,
                source_url="test",
                checks=frozenset(v.checks),
                entities=tuple(engine.entities_of(v.code)),
            )
            for v in engine.lists
        )
    return _BASE


def person(entity_id: str, code: str, name: str, born: str, *programs: str) -> ListEntity:
    return ListEntity(
        entity_id=entity_id,
        list_code=code,
        schema="Person",
        names=(NameEntry(name),),
        programs=programs or ("TEST",),
        birth_dates=(born,),
        countries=("ke",),
    )


def watch_list(code: str, version: str, *entities: ListEntity) -> ListSnapshot:
    return ListSnapshot(
        code=code,
        title="Monitoring test list",
        version=version,
        source_url="test",
        checks=frozenset({"sanction"}),
        entities=entities,
    )


async def wait_run(db: Database, run_id: str) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + 60
    while True:
        async with read(db) as conn:
            run = await repository.get_run(conn, run_id)
        assert run is not None
        if run["status"] in ("succeeded", "superseded"):
            return run
        assert asyncio.get_running_loop().time() < deadline, run
        await asyncio.sleep(0.1)


async def delta_for(runtime: Runtime, code: str, version: str) -> dict[str, Any]:
    """Tick, and wait for the delta run that screened ``code`` at ``version`` (this tick's, or
    the one the server's own tick started first)."""
    await tick(runtime)
    deadline = asyncio.get_running_loop().time() + 60
    while True:
        async with read(runtime.db) as conn:
            rows = await conn.execute(
                select(monitoring_runs)
                .where(monitoring_runs.c.kind == "delta")
                .order_by(monitoring_runs.c.created_at.desc())
                .limit(20)
            )
            runs = [dict(row._mapping) for row in rows]
        for run in runs:
            if run["target"].get(code) == version:
                return await wait_run(runtime.db, run["id"])
        assert asyncio.get_running_loop().time() < deadline, runs
        await asyncio.sleep(0.1)


async def job_of(db: Database, run_id: str) -> dict[str, Any]:
    async with read(db) as conn:
        rows = await conn.execute(select(jobs).where(jobs.c.task == "screening.monitoring_run"))
        found = [dict(row._mapping) for row in rows if row.payload["run_id"] == run_id]
    assert len(found) == 1
    return found[0]


async def run_now(db: Database, job_id: str) -> None:
    """Let the clock "pass" for a job waiting for its retry: due now."""
    async with transaction(db) as conn:
        await conn.execute(update(jobs).where(jobs.c.id == job_id).values(run_after=utcnow()))


async def alerts_of(runtime: Runtime, org_id: str, subject_key: str) -> list[dict[str, Any]]:
    async with read(runtime.db) as conn:
        return await alerts_repository.alerts_for_subject(conn, org_id, "live", subject_key)


async def test_a_list_change_raises_amends_and_closes_alerts(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("live", balance=100_000)
    name, born = "Kipchoge Barnabas Monitorvale", "1971-03-02"
    enrolled = await client.post(
        SUBJECTS,
        json={"name": name, "birth_date": born, "countries": ["KE"], "reference": "c-1"},
        headers=account.headers,
    )
    assert enrolled.status_code == 201, enrolled.text
    subject = enrolled.json()["data"]
    engines = runtime.part(ScreeningEngines)
    original = engines.live
    base = _base_snapshots(original)
    code = unique("mon").replace("-", "_")
    other = person("o-1", code, "Unrelated Listed Person", "1950-01-01")
    listed = person("e-1", code, name, born)
    try:
        engines.live = ScreeningEngine([*base, watch_list(code, "v1", other)])
        first = await delta_for(runtime, code, "v1")
        assert first["status"] == "succeeded"
        assert await alerts_of(runtime, account.org_id, subject["subject_key"]) == []

        engines.live = ScreeningEngine([*base, watch_list(code, "v2", other, listed)])
        added = await delta_for(runtime, code, "v2")
        assert added["status"] == "succeeded" and added["entities"] == 1
        assert added["subjects"] >= 1 and added["alerts_raised"] >= 1
        [alert] = await alerts_of(runtime, account.org_id, subject["subject_key"])
        assert alert["status"] == "open" and alert["origin"] == "monitoring"
        assert (alert["list_code"], alert["entity_id"]) == (code, "e-1")
        assert alert["monitored_subject_id"] == subject["id"]
        assert alert["entity_fingerprint"] == listed.fingerprint()
        # the score an onboarding screening of the subject gives, to the last digit
        screened = await client.post(
            "/v3/screening/sanction",
            json={"name": name, "birth_date": born, "countries": ["KE"]},
            headers=account.headers,
        )
        [hit] = [h for h in screened.json()["data"]["aml"]["hits"] if h["list_code"] == code]
        assert hit["score"] == alert["score"]

        amended = replace(listed, programs=("TEST", "AMENDED"))
        engines.live = ScreeningEngine([*base, watch_list(code, "v3", other, amended)])
        assert (await delta_for(runtime, code, "v3"))["entities"] == 1
        [alert] = await alerts_of(runtime, account.org_id, subject["subject_key"])
        assert alert["status"] == "open"
        assert alert["entity_fingerprint"] == amended.fingerprint()

        engines.live = ScreeningEngine([*base, watch_list(code, "v4", other)])
        removed = await delta_for(runtime, code, "v4")
        assert removed["entities"] == 0 and removed["alerts_closed"] == 1
        [alert] = await alerts_of(runtime, account.org_id, subject["subject_key"])
        assert alert["status"] == "closed"
        async with read(runtime.db) as conn:
            assert await repository.fingerprints(conn, code) == {"o-1": other.fingerprint()}
    finally:
        engines.live = original


async def test_an_amended_entry_under_the_threshold_closes_its_alert(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    """An entry amended so that the subject no longer reaches the threshold (a name part and
    the birth date corrected) closes the subject's open alert, with the reason in its
    history."""
    account = await make_account("live", balance=100_000)
    name, born = "Kiprono Barnabas Amendvale", "1971-03-02"
    enrolled = await client.post(
        SUBJECTS,
        json={"name": name, "birth_date": born, "countries": ["KE"], "reference": "c-2"},
        headers=account.headers,
    )
    assert enrolled.status_code == 201, enrolled.text
    subject = enrolled.json()["data"]
    engines = runtime.part(ScreeningEngines)
    original = engines.live
    base = _base_snapshots(original)
    code = unique("mon").replace("-", "_")
    listed = person("e-1", code, name, born)
    try:
        engines.live = ScreeningEngine([*base, watch_list(code, "v1", listed)])
        await delta_for(runtime, code, "v1")
        [alert] = await alerts_of(runtime, account.org_id, subject["subject_key"])
        assert alert["status"] == "open"

        corrected = replace(
            listed, names=(NameEntry("Kiprono Amendvale"),), birth_dates=("1940-05-05",)
        )
        engines.live = ScreeningEngine([*base, watch_list(code, "v2", corrected)])
        run = await delta_for(runtime, code, "v2")
        assert run["entities"] == 1 and run["alerts_closed"] >= 1
        [alert] = await alerts_of(runtime, account.org_id, subject["subject_key"])
        assert alert["status"] == "closed"
        async with read(runtime.db) as conn:
            trail = await alerts_repository.history(conn, alert["id"])
        assert [e["event"] for e in trail] == ["opened", "closed"]
        reason = runtime.vault.decrypt(trail[1]["detail_encrypted"])
        assert f"entry amended in {code} version v2" in reason
        assert "no longer a potential match" in reason
    finally:
        engines.live = original


async def test_the_sandbox_list_update_closes_only_the_callers_alerts(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    """Every sandbox organisation screens against the same sandbox lists; one organisation's
    list update rehearsal closes its own alerts on the removed entry, not another's."""
    mine, theirs = await make_account("sandbox"), await make_account("sandbox")
    keys = []
    for account in (mine, theirs):
        screened = await client.post(
            "/v3/screening/sanction",
            json={"name": "Sandbox Delisted Person", "monitor": True},
            headers=account.headers,
        )
        assert screened.status_code == 200, screened.text
        keys.append(screened.json()["data"]["aml"]["subject_key"])
    update = await client.post(
        "/v3/screening/monitoring/sandbox-list-update", json={}, headers=mine.headers
    )
    assert update.status_code == 200, update.text
    async with read(runtime.db) as conn:
        [closed] = await alerts_repository.alerts_for_subject(conn, mine.org_id, "sandbox", keys[0])
        [still] = await alerts_repository.alerts_for_subject(
            conn, theirs.org_id, "sandbox", keys[1]
        )
    assert (closed["entity_id"], closed["status"]) == ("sbx-s-4", "closed")
    assert closed["id"] in update.json()["alerts_closed"]
    assert (still["entity_id"], still["status"]) == ("sbx-s-4", "open")
    assert still["id"] not in update.json()["alerts_closed"]


async def test_a_run_waits_for_its_list_versions(
    make_account: AccountFactory, runtime: Runtime
) -> None:
    """A delta run picked up by a process that does not hold its versions yet is retried, and
    superseded when the lists moved on: nothing is screened with a mix of versions."""
    engines = runtime.part(ScreeningEngines)
    original = engines.live
    code = unique("mon").replace("-", "_")
    try:
        engines.live = ScreeningEngine(
            [*_base_snapshots(original), watch_list(code, "v1", person("x", code, "A B", "1970"))]
        )
        await delta_for(runtime, code, "v1")
        async with TICKING:  # the server's own tick waits (it would move the state back)
            await _superseded_after_waiting(runtime, code)
    finally:
        engines.live = original


async def _superseded_after_waiting(runtime: Runtime, code: str) -> None:
    """A run for v9, which this process does not hold: retried, then superseded when the
    lists move on past v9."""
    async with transaction(runtime.db) as conn:  # a change only another process holds
        await repository.move_state(conn, code, "v1", "v9", utcnow())
    run_id = await start_run(runtime, "delta", "live", unique("delta"), {code: "v9"})
    assert run_id is not None
    job = await job_of(runtime.db, run_id)
    deadline = asyncio.get_running_loop().time() + 30
    while job["attempts"] < 1 or job["status"] != "queued":
        assert asyncio.get_running_loop().time() < deadline, job
        await asyncio.sleep(0.1)
        job = await job_of(runtime.db, run_id)
    assert "NotYetLoaded" in job["last_error"]  # tried, and put back for later
    async with read(runtime.db) as conn:
        run = await repository.get_run(conn, run_id)
    assert run is not None and run["status"] == "queued" and run["started_at"] is None
    async with transaction(runtime.db) as conn:  # the lists moved on past v9
        await repository.move_state(conn, code, "v9", "v10", utcnow())
    await run_now(runtime.db, job["id"])
    assert (await wait_run(runtime.db, run_id))["status"] == "superseded"
    async with transaction(runtime.db) as conn:
        await repository.move_state(conn, code, "v10", "v1", utcnow())


async def test_the_daily_full_pass(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("live")
    engine = await runtime.part(ScreeningEngines).load_live()
    listed = next(
        e
        for v in engine.lists
        for e in engine.entities_of(v.code)
        if e.schema == "Person" and e.birth_dates and len(e.birth_dates[0]) == 10
    )
    enrolled = await client.post(
        SUBJECTS,
        json={"name": listed.primary_name, "birth_date": listed.birth_dates[0]},
        headers=account.headers,
    )
    subject = enrolled.json()["data"]
    key = unique("full:live")
    run_id = await start_run(runtime, "full", "live", key, {})
    assert run_id is not None
    assert await start_run(runtime, "full", "live", key, {}) is None  # once per key (day)
    run = await wait_run(runtime.db, run_id)
    assert run["status"] == "succeeded" and run["done"] == run["subjects"] >= 1
    alerts = await alerts_of(runtime, account.org_id, subject["subject_key"])
    assert [(a["entity_id"], a["origin"]) for a in alerts] == [(listed.entity_id, "monitoring")]
    # run again: the open alert on the same entry raises nothing new
    again = await wait_run(
        runtime.db, str(await start_run(runtime, "full", "live", unique("full"), {}))
    )
    assert again["status"] == "succeeded"
    assert len(await alerts_of(runtime, account.org_id, subject["subject_key"])) == 1


async def test_billing_once_per_subject_and_month(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime, db: Database
) -> None:
    price = runtime.price("screening.monitoring.month")
    assert price > 0
    account = await make_account("live", balance=price)  # pays for one subject of two
    sandbox = await make_account("sandbox")
    ids = []
    for name in ("Achieng Atieno", "Baraka Mwangi"):
        response = await client.post(SUBJECTS, json={"name": name}, headers=account.headers)
        ids.append(response.json()["data"]["id"])
    await client.post(SUBJECTS, json={"name": "Chausiku Njeri"}, headers=sandbox.headers)
    month = "2031-01"  # a month no other test bills

    async def bill() -> None:
        run_id = await start_run(runtime, "billing", "live", unique("billing"), {"month": month})
        assert (await wait_run(db, str(run_id)))["status"] == "succeeded"

    async def charges() -> list[dict[str, Any]]:
        async with read(db) as conn:
            return await repository.charges_of(conn, account.org_id, month)

    await bill()
    assert await debit_count(db, account.org_id) == 1  # the wallet paid for one
    assert [c["amount"] for c in await charges()] == [price]
    await bill()  # run again: nothing more (the other still unpaid)
    assert await debit_count(db, account.org_id) == 1
    await credit(db, account.org_id, 10 * price, "top-up")
    await bill()  # the unpaid one now, the paid one never again
    await bill()
    assert await debit_count(db, account.org_id) == 2
    assert sorted(c["monitored_subject_id"] for c in await charges()) == sorted(ids)
    async with read(db) as conn:
        assert await repository.charges_of(conn, sandbox.org_id, month) == []  # sandbox: free


async def test_the_sandbox_list_update_turns_a_subject_into_an_alert(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("sandbox")
    later = await client.post(
        SUBJECTS,
        json={"name": "Sandbox Later Listed", "birth_date": "1982-02-02", "countries": ["KE"]},
        headers=account.headers,
    )
    onboarding = await client.post(
        "/v3/screening/individual",
        json={"name": "Sandbox Later Listed", "monitor": True},
        headers=account.headers,
    )
    assert onboarding.json()["data"]["aml"]["status"] == "CLEAR"  # not on the sandbox lists yet
    delisted = await client.post(
        "/v3/screening/sanction",
        json={"name": "Sandbox Delisted Person", "monitor": True},
        headers=account.headers,
    )
    [hit] = delisted.json()["data"]["aml"]["hits"]
    assert hit["entity_id"] == "sbx-s-4"
    # the onboarding screening opened an alert on the hit
    async with read(runtime.db) as conn:
        [onboarding_alert] = await alerts_repository.alerts_for_subject(
            conn, account.org_id, "sandbox", delisted.json()["data"]["aml"]["subject_key"]
        )
    assert onboarding_alert["status"] == "open" and onboarding_alert["entity_id"] == "sbx-s-4"
    opened = onboarding_alert["id"]

    update = await client.post(
        "/v3/screening/monitoring/sandbox-list-update", json={}, headers=account.headers
    )
    assert update.status_code == 200, update.text
    result = update.json()
    assert result["list_version"] == "sandbox-2" and result["subjects_screened"] == 3
    assert set(result["added"]) == {"sbx-s-5", "sbx-s-1"} and result["removed"] == ["sbx-s-4"]
    assert opened in result["alerts_closed"]
    async with read(runtime.db) as conn:
        alerts = await alerts_repository.alerts_for_subject(
            conn, account.org_id, "sandbox", later.json()["data"]["subject_key"]
        )
    assert [(a["entity_id"], a["status"], a["origin"]) for a in alerts] == [
        ("sbx-s-5", "open", "monitoring")
    ]
    assert alerts[0]["id"] in result["alerts_raised"]
    again = await client.post(
        "/v3/screening/monitoring/sandbox-list-update", json={}, headers=account.headers
    )
    assert again.json()["alerts_raised"] == []  # the same entries: nothing new
    live = await make_account("live")
    refused = await client.post(
        "/v3/screening/monitoring/sandbox-list-update", json={}, headers=live.headers
    )
    assert refused.status_code == 404


def test_the_monthly_price_is_in_the_catalogue_and_overridable() -> None:
    from hakiki.core.endpoints import default_prices
    from hakiki.core.settings import Settings

    assert default_prices()["screening.monitoring.month"] == 200
    settings = Settings(prices={"screening.monitoring.month": 75})
    assert settings.price("screening.monitoring.month") == 75
