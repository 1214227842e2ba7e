"""The shared fraud database over HTTP on both databases: reports are submitted, listed and read
by their own organisation only, counted for everyone's scans, and stored encrypted."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.core.runtime import Runtime
from hakiki.fraud import repository
from hakiki.fraud.keys import identifier_key, phone_key
from hakiki.fraud.tables import fraud_reports
from tests.conftest import AccountFactory

URL = "/v3/fraud/reports"


def report(**incident: Any) -> dict[str, Any]:
    return {
        "subject": {
            "first_name": "Musa",
            "last_name": "Okonkwo",
            "date_of_birth": "1991-04-12",
            "country": "NG",
            "identifiers": [{"type": "bvn", "value": "22123456789"}],
            "phones": ["0803 123 4567"],
            "emails": ["musa.o@example.com"],
        },
        "incident": {
            "category": "synthetic_identity",
            "date": "2026-10-02",
            "description": "Loan taken with a BVN whose face matched two others.",
            "amount": 25_000_000,
            "currency": "NGN",
            **incident,
        },
        "evidence": ["case-2026-1142"],
    }


async def test_submit_list_and_read_own_reports(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender = await make_account("live")
    created = await client.post(URL, json=report(), headers=lender.headers)
    assert created.status_code == 201, created.text
    answer = created.json()
    body = answer["data"]
    assert answer["status"] == "COMPLETED" and answer["reference"] == body["id"]
    assert answer["verdict"] is None and answer["billing"]["charged"] is False
    assert body["id"].startswith("frp_") and body["status"] == "submitted"
    assert body["subject"]["identifiers"] == [{"type": "bvn", "value": "22123456789"}]

    one = await client.get(f"{URL}/{body['id']}", headers=lender.headers)
    assert one.status_code == 200 and one.json()["data"] == body
    assert one.json()["reference"] == body["id"] and one.json()["provider"] == "hakiki"
    listing = await client.get(URL, headers=lender.headers)
    assert listing.json()["pagination"]["total_items"] == 1
    assert listing.json()["data"] == [body]


async def test_other_organisations_neither_list_nor_read_a_report(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender, other = await make_account("live"), await make_account("live")
    created = (await client.post(URL, json=report(), headers=lender.headers)).json()["data"]
    assert (await client.get(f"{URL}/{created['id']}", headers=other.headers)).status_code == 404
    assert (await client.get(URL, headers=other.headers)).json()["data"] == []
    sandbox = await make_account("sandbox")  # nor does the other environment
    assert (await client.get(f"{URL}/{created['id']}", headers=sandbox.headers)).status_code == 404


async def test_filters_and_pagination(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender = await make_account("sandbox")
    for day, category in (("2026-01-05", "sim_swap"), ("2026-02-05", "sim_swap"),
                          ("2026-03-05", "card_fraud")):  # fmt: skip
        response = await client.post(
            URL, json=report(date=day, category=category), headers=lender.headers
        )
        assert response.status_code == 201, response.text
    other = report(category="other")
    other["subject"]["identifiers"] = [{"type": "nin", "value": "98765432101"}]
    assert (await client.post(URL, json=other, headers=lender.headers)).status_code == 201

    async def ids(**params: Any) -> list[str]:
        found = await client.get(URL, params=params, headers=lender.headers)
        assert found.status_code == 200, found.text
        return [
            r["incident"]["date"] + ":" + r["incident"]["category"] for r in found.json()["data"]
        ]

    assert len(await ids(category="sim_swap")) == 2
    assert await ids(incident_from="2026-02-01", incident_to="2026-03-31") == [
        "2026-03-05:card_fraud", "2026-02-05:sim_swap",
    ]  # fmt: skip
    assert len(await ids(identifier="987-654-321-01")) == 1  # punctuation does not matter
    assert len(await ids(identifier="22123456789")) == 3
    page = await client.get(URL, params={"page_size": 2, "page": 2}, headers=lender.headers)
    assert page.json()["pagination"] == {
        "page": 2, "page_size": 2, "total_pages": 2, "total_items": 4,
    }  # fmt: skip
    backwards = await client.get(
        URL, params={"incident_from": "2026-03-01", "incident_to": "2026-01-01"},
        headers=lender.headers,
    )  # fmt: skip
    assert backwards.status_code == 400
    assert backwards.json()["details"][0]["field"] == "incident_from"


async def test_bad_reports_name_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender = await make_account("sandbox")
    cases = [
        (report(category="bank_robbery"), "incident.category"),
        (report(amount=100, currency=None), "incident"),
        (report(date="yesterday"), "incident.date"),
        ({**report(), "subject": {"country": "NG"}}, "subject"),
    ]
    for body, field in cases:
        response = await client.post(URL, json=body, headers=lender.headers)
        assert response.status_code == 400, response.text
        assert field in [d["field"] for d in response.json()["details"]], response.json()
    no_scope = await make_account("sandbox", scopes=["fraud:read"])
    refused = await client.post(URL, json=report(), headers=no_scope.headers)
    assert refused.status_code == 403 and refused.json()["error"] == "insufficient_scope"


async def test_everyone_counts_the_signals_and_nothing_is_stored_in_clear(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, app: Any
) -> None:
    first, second = await make_account("live"), await make_account("live")
    body = report()
    body["subject"]["identifiers"] = [{"type": "bvn", "value": "22999888777"}]
    body["subject"]["phones"] = ["+234 803 999 8877"]
    for account, category in (
        (first, "loan_stacking"),
        (second, "loan_stacking"),
        (first, "sim_swap"),
    ):
        response = await client.post(
            URL,
            json=report(category=category) | {"subject": body["subject"]},
            headers=account.headers,
        )
        assert response.status_code == 201, response.text
    runtime: Runtime = app.state.runtime
    async with read(db) as conn:
        by_id = await repository.signals(
            conn, "live", [("identifier", identifier_key(runtime.vault, "22999888777"))]
        )
        by_phone = await repository.signals(  # the national form meets the international one
            conn, "live", [("phone", phone_key(runtime.vault, "0803 999 8877", "NG"))]
        )
        in_sandbox = await repository.signals(
            conn, "sandbox", [("identifier", identifier_key(runtime.vault, "22999888777"))]
        )
        stored = (
            (
                await conn.execute(
                    select(fraud_reports.c.body_encrypted).where(
                        fraud_reports.c.org_id == first.org_id
                    )
                )
            )
            .scalars()
            .all()
        )
    expected = {"reports": 3, "organisations": 2, "categories": {"loan_stacking": 2, "sim_swap": 1}}
    assert by_id == expected and by_phone == expected
    assert in_sandbox["reports"] == 0
    assert stored and all("22999888777" not in text and "Okonkwo" not in text for text in stored)
