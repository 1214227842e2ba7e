"""The analysts' alert queue over HTTP (/v3/screening/alerts), on SQLite and PostgreSQL:
onboarding hits open alerts; list, filter, paginate; assign, comment, resolve, with the caller
in the append-only history; 404 across organisations and environments; 403 without the scope;
a false positive suppressed until the list entry changes; the webhook without personal data."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from hakiki.account import service as accounts
from hakiki.console import users
from hakiki.core.database import Database, read, transaction
from hakiki.core.runtime import Runtime
from hakiki.screening.alerts_service import AlertSubject, raise_alerts
from hakiki.screening.schemas import AmlHit
from hakiki.webhooks.tables import webhook_events
from tests.conftest import Account, AccountFactory, unique

ALERTS = "/v3/screening/alerts"
SANCTIONED = {"name": "Sandbox Sanction Person"}


async def screen(
    client: httpx.AsyncClient, account: Account, path: str = "sanction", **body: Any
) -> dict[str, Any]:
    response = await client.post(
        f"/v3/screening/{path}", json=body or SANCTIONED, headers=account.headers
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def queue(client: httpx.AsyncClient, account: Account, **params: Any) -> dict[str, Any]:
    response = await client.get(ALERTS, params=params, headers=account.headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def act(
    client: httpx.AsyncClient, account: Account, alert_id: str, action: str, body: Any
) -> httpx.Response:
    return await client.post(f"{ALERTS}/{alert_id}/{action}", json=body, headers=account.headers)


async def test_an_onboarding_hit_opens_one_alert_with_the_hit_and_the_subject(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    assert (await queue(client, account))["data"] == []
    result = await screen(client, account)
    hit = result["data"]["aml"]["hits"][0]
    [alert] = (await queue(client, account))["data"]
    assert alert["status"] == "open" and alert["origin"] == "onboarding"
    assert alert["list_code"] == hit["list_code"] == "sandbox_sanction"
    assert alert["entity_id"] == hit["entity_id"] and alert["score"] == hit["score"]
    assert alert["hit"]["explanation"] == hit["explanation"]  # the hit and why it matched
    assert alert["hit"]["entity_name"] == "Sandbox Sanction Person"
    assert alert["subject"] == {
        "subject_key": result["data"]["aml"]["subject_key"],
        "monitored_subject_id": None,
        "name": "Sandbox Sanction Person",
        "reference": None,
    }
    assert alert["assignee"] is None and alert["decision"] is None
    # the same screening again: the open alert stands, no second one; a clear one opens none
    await screen(client, account)
    await screen(client, account, name="Amina Wanjiku Otieno")
    assert (await queue(client, account))["pagination"]["total_items"] == 1


async def test_every_onboarding_call_with_hits_opens_alerts(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    await screen(client, account, "individual", name="Sandbox Politically Exposed")
    await screen(client, account, "business", name="Sandbox Sanction Trading Limited")
    await screen(client, account, "aml", name="Sandbox Every List", checks=["sanction", "pep"])
    combined = await client.post(
        "/v3/screening/aml-with-id",
        json={"channel": "bvn", "number": "22222222220"},  # golden: a sanctions hit
        headers=account.headers,
    )
    assert combined.status_code == 200, combined.text
    aml = combined.json()["data"]["aml"]
    listed = (await queue(client, account, page_size=100))["data"]
    assert {a["origin"] for a in listed} == {"onboarding"}
    by_subject = {a["subject"]["subject_key"]: a for a in listed}
    assert by_subject[aml["subject_key"]]["subject"]["name"] == aml["screened_name"]
    assert by_subject[aml["subject_key"]]["entity_id"] == aml["hits"][0]["entity_id"]
    assert len(listed) == 1 + 1 + 2 + 1  # Sandbox Every List: a sanctions and a PEP hit


async def test_filters_and_pagination(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("sandbox")
    await screen(client, account)
    await screen(client, account, "pep", name="Sandbox Politically Exposed")
    monitored = AlertSubject("7" * 64, "msub_0042", "CUST-0042", "Amina Wanjiru")
    async with transaction(runtime.db) as conn:
        [raised] = await raise_alerts(
            conn,
            runtime,
            org_id=account.org_id,
            environment="sandbox",
            subject=monitored,
            hits=[sandbox_hit("sbx-s-2")],
            origin="monitoring",
        )
    everything = await queue(client, account)
    assert everything["pagination"]["total_items"] == 3
    newest_first = [a["id"] for a in everything["data"]]
    assert newest_first[0] == raised
    pages = [(await queue(client, account, page=n, page_size=2))["data"] for n in (1, 2)]
    assert [a["id"] for page in pages for a in page] == newest_first
    assert (await queue(client, account, page=2, page_size=2))["pagination"]["total_pages"] == 2

    def ids(answer: dict[str, Any]) -> list[str]:
        return [a["id"] for a in answer["data"]]

    assert ids(await queue(client, account, subject="CUST-0042")) == [raised]  # reference
    assert ids(await queue(client, account, subject="msub_0042")) == [raised]
    assert ids(await queue(client, account, subject="7" * 64)) == [raised]
    assert ids(await queue(client, account, subject="CUST-0043")) == []
    peps = await queue(client, account, list="sandbox_pep")
    assert [a["list_code"] for a in peps["data"]] == ["sandbox_pep"]
    assert (await queue(client, account, status="open"))["pagination"]["total_items"] == 3
    assert (await queue(client, account, status="resolved"))["data"] == []
    assert (await queue(client, account, created_from="2999-01-01"))["data"] == []
    assert len((await queue(client, account, created_to="2999-01-01"))["data"]) == 3
    assert (await queue(client, account, created_to="2000-01-01"))["data"] == []
    wrong = await client.get(ALERTS, params={"status": "pending"}, headers=account.headers)
    assert wrong.status_code == 400 and wrong.json()["details"][0]["field"] == "status"
    wrong = await client.get(ALERTS, params={"created_to": "soon"}, headers=account.headers)
    assert wrong.status_code == 400 and wrong.json()["details"][0]["field"] == "created_to"


def sandbox_hit(entity_id: str, fingerprint: str = "f" * 20) -> AmlHit:
    return AmlHit(
        check="sanction",
        list_code="sandbox_sanction",
        list_version="sandbox",
        programs=["SANDBOX"],
        entity_id=entity_id,
        entity_name="Sandbox Listed",
        entity_schema="Person",
        matched_name="Sandbox Listed",
        matched_name_kind="primary",
        score=0.9,
        explanation={"name": {"score": 0.9, "reason": "test"}},
        entity_fingerprint=fingerprint,
    )


async def test_assign_comment_resolve_and_the_history(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, runtime: Runtime
) -> None:
    account = await make_account("sandbox")
    await screen(client, account)
    [alert] = (await queue(client, account))["data"]
    alert_id = alert["id"]
    email = f"{unique('analyst')}@lender.example"
    await users.create_user(
        db, runtime.vault, org_id=account.org_id, email=email, role="analyst", password=None
    )

    answer = await act(client, account, alert_id, "assign", {"assignee": email})
    assert answer.status_code == 200, answer.text
    assert answer.json()["assignee"] == email
    answer = await act(client, account, alert_id, "assign", {"assignee": account.client_id})
    assert answer.json()["assignee"] == account.client_id
    stranger = await make_account("sandbox")
    for nobody in ("nobody@lender.example", stranger.client_id):
        refused = await act(client, account, alert_id, "assign", {"assignee": nobody})
        assert refused.status_code == 400, refused.text
        assert refused.json()["details"][0]["field"] == "assignee"
    refused = await act(client, account, alert_id, "comments", {"comment": ""})
    assert refused.status_code == 400 and refused.json()["details"][0]["field"] == "comment"
    answer = await act(client, account, alert_id, "comments", {"comment": "Asked for the ID."})
    assert answer.status_code == 200, answer.text
    refused = await act(client, account, alert_id, "resolve", {"decision": "false_positive"})
    assert refused.status_code == 400 and refused.json()["details"][0]["field"] == "reason"
    refused = await act(client, account, alert_id, "resolve", {"decision": "maybe", "reason": "x"})
    assert refused.status_code == 400
    reason = "Different person: born 1994, the listed person 1970."
    answer = await act(
        client, account, alert_id, "resolve", {"decision": "false_positive", "reason": reason}
    )
    assert answer.status_code == 200, answer.text
    resolved = answer.json()
    assert resolved["status"] == "resolved" and resolved["decision"] == "false_positive"
    again = await act(
        client, account, alert_id, "resolve", {"decision": "true_match", "reason": "x" * 5}
    )
    assert again.status_code == 409 and again.json()["error"] == "conflict"

    detail = (await client.get(f"{ALERTS}/{alert_id}", headers=account.headers)).json()
    assert detail == resolved  # nothing changed by the refused calls
    events = [(e["event"], e["actor"]) for e in detail["history"]]
    assert events == [
        ("opened", "system"),
        ("assigned", account.client_id),
        ("assigned", account.client_id),
        ("commented", account.client_id),
        ("resolved", account.client_id),
    ]
    assert detail["history"][1]["detail"] == {"assignee": email}
    assert detail["history"][3]["detail"] == {"comment": "Asked for the ID."}
    assert detail["history"][4]["detail"] == {"decision": "false_positive", "reason": reason}
    assert (await queue(client, account, status="resolved"))["data"][0]["id"] == alert_id

    # The resolution is a review too: the hit is suppressed in later screenings, no new alert.
    later = await screen(client, account)
    assert (
        later["data"]["aml"]["status"] == "CLEAR" and len(later["data"]["aml"]["suppressed"]) == 1
    )
    assert (await queue(client, account))["pagination"]["total_items"] == 1
    trail = await client.get("/v3/account/screening-reviews", headers=account.headers)
    assert [r["decision"] for r in trail.json()["data"]] == ["false_positive"]
    assert trail.json()["data"][0]["reviewer"] == account.client_id

    # Nothing personal in clear in the database.
    async with read(db) as conn:
        from hakiki.screening.tables import screening_alert_events, screening_alerts

        stored = str((await conn.execute(select(screening_alerts))).all())
        stored += str((await conn.execute(select(screening_alert_events))).all())
    for secret in (email, reason, "Asked for the ID.", "Sandbox Sanction Person"):
        assert secret not in stored


async def test_a_false_positive_holds_until_the_list_entry_changes(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    account = await make_account("sandbox")
    result = await screen(client, account)
    [alert] = (await queue(client, account))["data"]
    body = {"decision": "false_positive", "reason": "Another person entirely."}
    assert (await act(client, account, alert["id"], "resolve", body)).status_code == 200
    hit = AmlHit(**result["data"]["aml"]["hits"][0])
    who = AlertSubject(result["data"]["aml"]["subject_key"], None, None, "Sandbox Sanction Person")

    async def raise_(h: AmlHit) -> list[str]:
        async with transaction(runtime.db) as conn:
            return await raise_alerts(
                conn,
                runtime,
                org_id=account.org_id,
                environment="sandbox",
                subject=who,
                hits=[h],
                origin="monitoring",
            )

    assert await raise_(hit) == []  # the same entry: suppressed
    changed = hit.model_copy(update={"entity_fingerprint": "0" * 20})
    [reopened] = await raise_(changed)  # the entry changed: a new alert
    detail = (await client.get(f"{ALERTS}/{reopened}", headers=account.headers)).json()
    assert detail["status"] == "open" and detail["entity_fingerprint"] == "0" * 20
    assert detail["history"][0]["detail"]["previous_alert_id"] == alert["id"]


async def test_another_organisations_or_environments_alert_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    owner = await make_account("sandbox")
    await screen(client, owner)
    [alert] = (await queue(client, owner))["data"]
    stranger = await make_account("sandbox")
    live = await accounts.create_key(db, owner.org_name, "live")
    same_org_live = Account(owner.org_id, owner.org_name, live.client_id, live.secret, "live")
    for other in (stranger, same_org_live):
        answer = await client.get(f"{ALERTS}/{alert['id']}", headers=other.headers)
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"
        for action, body in (
            ("assign", {"assignee": None}),
            ("comments", {"comment": "mine?"}),
            ("resolve", {"decision": "true_match", "reason": "mine?"}),
        ):
            answer = await act(client, other, alert["id"], action, body)
            assert answer.status_code == 404, (action, answer.text)
        assert (await queue(client, other))["data"] == []
    detail = (await client.get(f"{ALERTS}/{alert['id']}", headers=owner.headers)).json()
    assert [e["event"] for e in detail["history"]] == ["opened"]


async def test_reading_needs_screening_read_and_acting_screening_write(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    owner = await make_account("sandbox")
    await screen(client, owner)
    [alert] = (await queue(client, owner))["data"]
    reader_key = await accounts.create_key(db, owner.org_name, "sandbox", ["screening:read"])
    reader = Account(
        owner.org_id, owner.org_name, reader_key.client_id, reader_key.secret, "sandbox"
    )
    assert (await client.get(f"{ALERTS}/{alert['id']}", headers=reader.headers)).status_code == 200
    body = {"decision": "true_match", "reason": "Same passport number."}
    refused = await act(client, reader, alert["id"], "resolve", body)
    assert refused.status_code == 403 and refused.json()["error"] == "insufficient_scope"
    refused = await act(client, reader, alert["id"], "comments", {"comment": "hm"})
    assert refused.status_code == 403
    other_key = await accounts.create_key(db, owner.org_name, "sandbox", ["identity:read"])
    other = Account(owner.org_id, owner.org_name, other_key.client_id, other_key.secret, "sandbox")
    assert (await client.get(ALERTS, headers=other.headers)).status_code == 403
    assert (await act(client, owner, alert["id"], "resolve", body)).status_code == 200


async def test_the_alert_opened_webhook_names_no_one(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    subscribed = await client.post(
        "/v3/account/webhooks",
        json={"url": "http://127.0.0.1:9/hook", "events": ["screening.alert_opened"]},
        headers=account.headers,
    )
    assert subscribed.status_code == 201, subscribed.text
    await screen(client, account)
    [alert] = (await queue(client, account))["data"]
    async with read(db) as conn:
        rows = (
            await conn.execute(
                select(webhook_events).where(webhook_events.c.org_id == account.org_id)
            )
        ).all()
    assert [(r.type, r.resource_id) for r in rows] == [("screening.alert_opened", alert["id"])]
    data = rows[0].data
    assert data == {
        "alert_id": alert["id"],
        "list_code": "sandbox_sanction",
        "origin": "onboarding",
        "created_at": data["created_at"],
    }
    assert "Sandbox Sanction Person" not in str(data)
    deliveries = await client.get("/v3/account/webhooks/deliveries", headers=account.headers)
    assert deliveries.status_code == 200, deliveries.text
    assert deliveries.json()["pagination"]["total_items"] == 1


async def test_a_review_of_the_same_hit_resolves_its_open_alert(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    result = await screen(client, account)
    hit = result["data"]["aml"]["hits"][0]
    review = {
        "subject_key": result["data"]["aml"]["subject_key"],
        "list_code": hit["list_code"],
        "entity_id": hit["entity_id"],
        "entity_fingerprint": hit["entity_fingerprint"],
        "decision": "true_match",
        "reason": "Same passport number.",
    }
    made = await client.post("/v3/account/screening-reviews", json=review, headers=account.headers)
    assert made.status_code == 201, made.text
    [alert] = (await queue(client, account))["data"]
    assert alert["status"] == "resolved" and alert["decision"] == "true_match"
    detail = (await client.get(f"{ALERTS}/{alert['id']}", headers=account.headers)).json()
    assert detail["history"][-1]["event"] == "resolved"
    assert detail["history"][-1]["actor"] == account.client_id
    assert detail["history"][-1]["detail"]["review_id"] == made.json()["id"]
    # a decided true match is not raised again by later screenings
    await screen(client, account)
    assert (await queue(client, account))["pagination"]["total_items"] == 1
