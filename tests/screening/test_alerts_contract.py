"""The alerts contract (screening/alerts_service.py) that onboarding and monitoring call:
raise_alerts and close_alerts_for_entities, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.runtime import Runtime
from hakiki.screening import alerts_repository
from hakiki.screening import repository as reviews
from hakiki.screening.alerts_service import (
    AlertSubject,
    close_alerts_for_entities,
    raise_alerts,
)
from hakiki.screening.schemas import AmlHit
from hakiki.screening.tables import screening_alert_events, screening_alerts
from hakiki.webhooks.tables import webhook_events
from tests.conftest import AccountFactory, unique


def hit(entity_id: str, fingerprint: str = "f" * 20, list_code: str = "us_ofac_sdn") -> AmlHit:
    return AmlHit(
        check="sanction",
        list_code=list_code,
        list_version="2026-11-01",
        programs=["SDGT"],
        entity_id=entity_id,
        entity_name="Listed Person",
        entity_schema="Person",
        matched_name="Listed Person",
        matched_name_kind="primary",
        score=0.93,
        explanation={"name": {"score": 0.93, "reason": "same tokens"}},
        entity_fingerprint=fingerprint,
    )


def subject(**overrides: Any) -> AlertSubject:
    values: dict[str, Any] = {
        "subject_key": unique("subject").ljust(64, "0")[:64],
        "monitored_subject_id": None,
        "reference": "CUST-0042",
        "name": "Amina Wanjiru",
    }
    return AlertSubject(**{**values, **overrides})


async def raise_(
    runtime: Runtime, org_id: str, who: AlertSubject, hits: list[AmlHit], **extra: Any
) -> list[str]:
    async with transaction(runtime.db) as conn:
        return await raise_alerts(
            conn,
            runtime,
            org_id=org_id,
            environment=extra.get("environment", "live"),
            subject=who,
            hits=hits,
            origin=extra.get("origin", "monitoring"),
            request_id=extra.get("request_id"),
        )


async def alert_rows(db: Database, ids: list[str]) -> dict[str, dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(select(screening_alerts).where(screening_alerts.c.id.in_(ids)))
        return {row.id: dict(row._mapping) for row in rows}


async def history(db: Database, alert_id: str) -> list[str]:
    async with read(db) as conn:
        return [row["event"] for row in await alerts_repository.history(conn, alert_id)]


async def test_raise_opens_one_alert_per_hit_and_sends_the_event_without_personal_data(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    account = await make_account("live")
    who = subject(monitored_subject_id="msub_01")
    opened = await raise_(runtime, account.org_id, who, [hit("E1"), hit("E2")])
    assert len(opened) == 2 and all(i.startswith("alrt_") for i in opened)
    rows = await alert_rows(runtime.db, opened)
    for row in rows.values():
        assert row["status"] == "open" and row["origin"] == "monitoring"
        assert row["monitored_subject_id"] == "msub_01"
        # personal data only encrypted
        assert runtime.vault.decrypt(row["name_encrypted"]) == "Amina Wanjiru"
        assert runtime.vault.decrypt(row["reference_encrypted"]) == "CUST-0042"
        assert "Amina" not in str(row) and "CUST-0042" not in str(row)
        assert "Listed Person" not in str(row)
    assert await history(runtime.db, opened[0]) == ["opened"]

    async with read(runtime.db) as conn:
        sent = (
            await conn.execute(
                select(webhook_events).where(webhook_events.c.resource_id.in_(opened))
            )
        ).all()
    assert {e.type for e in sent} == {"screening.alert_opened"} and len(sent) == 2
    for event in sent:
        assert set(event.data) == {"alert_id", "list_code", "origin", "created_at"}
        assert event.data["alert_id"] == event.resource_id
        assert event.data["list_code"] == "us_ofac_sdn"
        assert event.data["origin"] == "monitoring"

    # The same hits again: nothing new, no second event.
    assert await raise_(runtime, account.org_id, who, [hit("E1"), hit("E2")]) == []
    assert await history(runtime.db, opened[0]) == ["opened"]


async def test_a_changed_entry_amends_the_open_alert(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    account = await make_account("live")
    who = subject()
    [alert_id] = await raise_(runtime, account.org_id, who, [hit("E1", "a" * 20)])
    assert await raise_(runtime, account.org_id, who, [hit("E1", "b" * 20)]) == [alert_id]
    row = (await alert_rows(runtime.db, [alert_id]))[alert_id]
    assert row["entity_fingerprint"] == "b" * 20 and row["status"] == "open"
    assert await history(runtime.db, alert_id) == ["opened", "amended"]
    # other organisation, environment or subject: alerts of their own
    other = await make_account("live")
    assert len(await raise_(runtime, other.org_id, who, [hit("E1", "b" * 20)])) == 1
    sandbox = await raise_(runtime, account.org_id, who, [hit("E1")], environment="sandbox")
    assert len(sandbox) == 1 and sandbox != [alert_id]


async def review(runtime: Runtime, org_id: str, who: AlertSubject, fp: str, decision: str) -> None:
    async with transaction(runtime.db) as conn:
        await reviews.insert_review(
            conn,
            {
                "id": unique("rev"),
                "org_id": org_id,
                "environment": "live",
                "subject_key": who.subject_key,
                "list_code": "us_ofac_sdn",
                "entity_id": "E1",
                "entity_fingerprint": fp,
                "decision": decision,
                "reason_encrypted": runtime.vault.encrypt("born 1994, listed 1970"),
                "reviewer_encrypted": runtime.vault.encrypt("analyst@example.org"),
                "api_key_id": "key_1",
                "created_at": utcnow(),
            },
        )


async def test_a_false_positive_is_suppressed_until_the_entry_changes(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    account = await make_account("live")
    who = subject()
    await review(runtime, account.org_id, who, "a" * 20, "false_positive")
    assert await raise_(runtime, account.org_id, who, [hit("E1", "a" * 20)]) == []
    # another subject is not suppressed
    assert len(await raise_(runtime, account.org_id, subject(), [hit("E1", "a" * 20)])) == 1
    # the entry changed: the decision lapses
    assert len(await raise_(runtime, account.org_id, who, [hit("E1", "c" * 20)])) == 1


async def test_close_alerts_for_removed_entries_in_every_organisation(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    first, second = await make_account("live"), await make_account("live")
    code = unique("list")
    a = await raise_(runtime, first.org_id, subject(), [hit("R1", list_code=code)])
    b = await raise_(runtime, second.org_id, subject(), [hit("R1", list_code=code)])
    kept = await raise_(runtime, first.org_id, subject(), [hit("R2", list_code=code)])
    # the same entry's alert in the sandbox environment: a live list's removal leaves it
    other = await raise_(
        runtime, first.org_id, subject(), [hit("R1", list_code=code)], environment="sandbox"
    )
    async with transaction(runtime.db) as conn:
        closed = await close_alerts_for_entities(
            conn,
            runtime,
            list_code=code,
            entity_ids=["R1", "R9"],
            reason="removed 2026-11-27",
            environment="live",
        )
    assert sorted(closed) == sorted(a + b)
    rows = await alert_rows(runtime.db, a + b + kept + other)
    assert [rows[i]["status"] for i in a + b + kept + other] == [
        "closed",
        "closed",
        "open",
        "open",
    ]
    async with read(runtime.db) as conn:
        trail = await alerts_repository.history(conn, a[0])
    assert [e["event"] for e in trail] == ["opened", "closed"]
    assert runtime.vault.decrypt(trail[1]["actor_encrypted"]) == "system"
    assert "removed 2026-11-27" in runtime.vault.decrypt(trail[1]["detail_encrypted"])
    async with transaction(runtime.db) as conn:  # closing again: nothing open any more
        assert (
            await close_alerts_for_entities(
                conn, runtime, list_code=code, entity_ids=["R1"], reason="again", environment="live"
            )
            == []
        )


async def test_closing_for_one_organisation_leaves_the_others_alerts(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    """The sandbox list update is one organisation's: it closes that organisation's alerts on
    the removed entry, not every sandbox organisation's."""
    first, second = await make_account("sandbox"), await make_account("sandbox")
    code = unique("list")
    mine = await raise_(
        runtime, first.org_id, subject(), [hit("S4", list_code=code)], environment="sandbox"
    )
    theirs = await raise_(
        runtime, second.org_id, subject(), [hit("S4", list_code=code)], environment="sandbox"
    )
    async with transaction(runtime.db) as conn:
        closed = await close_alerts_for_entities(
            conn,
            runtime,
            list_code=code,
            entity_ids=["S4"],
            reason="sandbox list update",
            environment="sandbox",
            org_id=first.org_id,
        )
    assert closed == mine
    rows = await alert_rows(runtime.db, mine + theirs)
    assert [rows[i]["status"] for i in mine + theirs] == ["closed", "open"]


async def test_one_open_alert_per_subject_and_entry_even_when_two_writers_race(
    runtime: Runtime, make_account: AccountFactory
) -> None:
    """The partial unique index: a second open alert on the same subject and entry is not
    inserted (another process's transaction got there first)."""
    account = await make_account("live")
    who = subject()
    [alert_id] = await raise_(runtime, account.org_id, who, [hit("E1")])
    row = (await alert_rows(runtime.db, [alert_id]))[alert_id]
    async with transaction(runtime.db) as conn:
        inserted = await alerts_repository.insert_open_alert(conn, {**row, "id": unique("alrt")})
    assert inserted is False
    async with read(runtime.db) as conn:
        events = await conn.execute(
            select(screening_alert_events.c.id).where(screening_alert_events.c.alert_id == alert_id)
        )
        assert len(events.all()) == 1
