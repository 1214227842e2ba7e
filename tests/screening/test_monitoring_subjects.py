"""Monitored subjects (issue 34): enrolled through the endpoint and with `monitor: true` on the
screening calls and AML-with-ID; listed, read, deleted; another organisation's are 404; stored
encrypted. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from hakiki.core.database import Database, read
from hakiki.screening.monitoring_tables import monitored_subjects
from tests.conftest import AccountFactory, unique

SUBJECTS = "/v3/screening/monitored-subjects"


async def enrol(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(SUBJECTS, json=body, headers=headers)


async def test_enrol_list_get_delete(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    reference = unique("customer")
    body = {
        "first_name": "Wanjiku",
        "last_name": "Kamau",
        "birth_date": "1990-04-01",
        "countries": ["KE"],
        "reference": reference,
    }
    created = await enrol(client, account.headers, **body)
    assert created.status_code == 201, created.text
    assert created.json()["reference"] == created.json()["data"]["id"]
    subject = created.json()["data"]
    assert subject["id"].startswith("msub_")
    assert subject["name"] == "Wanjiku Kamau" and subject["reference"] == reference
    assert subject["checks"] == ["sanction", "pep"] and subject["source"] == "api"
    assert subject["state"] == "enrolling" and len(subject["subject_key"]) == 64

    again = await enrol(client, account.headers, **{**body, "first_name": "Wanjiku Ann"})
    assert again.status_code == 200  # the same reference: the subject already enrolled
    assert again.json()["data"]["id"] == subject["id"]
    # without a reference, the same details are the same subject
    plain = {k: v for k, v in body.items() if k != "reference"}
    first = await enrol(client, account.headers, **plain)
    assert first.status_code == 200 and first.json()["data"]["id"] == subject["id"]
    business = await enrol(
        client, account.headers, subject_type="business", name="Kamau Traders Ltd"
    )
    assert business.status_code == 201
    assert business.json()["data"]["subject_type"] == "business"
    business_id = business.json()["data"]["id"]

    listed = (await client.get(SUBJECTS, headers=account.headers)).json()
    assert listed["pagination"]["total_items"] == 2
    assert [s["id"] for s in listed["data"]] == [business_id, subject["id"]]
    found = await client.get(SUBJECTS, params={"reference": reference}, headers=account.headers)
    assert [s["id"] for s in found.json()["data"]] == [subject["id"]]
    paged = await client.get(SUBJECTS, params={"page_size": 1, "page": 2}, headers=account.headers)
    assert [s["id"] for s in paged.json()["data"]] == [subject["id"]]

    one = await client.get(f"{SUBJECTS}/{subject['id']}", headers=account.headers)
    assert one.status_code == 200 and one.json()["data"]["birth_date"] == "1990-04-01"

    deleted = await client.delete(f"{SUBJECTS}/{subject['id']}", headers=account.headers)
    assert deleted.status_code == 204
    gone = await client.get(f"{SUBJECTS}/{subject['id']}", headers=account.headers)
    assert gone.json()["data"]["state"] == "deleted" and gone.json()["data"]["deleted_at"]
    listed = (await client.get(SUBJECTS, headers=account.headers)).json()
    assert [s["id"] for s in listed["data"]] == [business_id]
    twice = await client.delete(f"{SUBJECTS}/{subject['id']}", headers=account.headers)
    assert twice.status_code == 404
    # enrolled again after the deletion: a new subject
    back = await enrol(client, account.headers, **body)
    assert back.status_code == 201 and back.json()["data"]["id"] != subject["id"]


async def test_another_organisations_subject_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    owner = await make_account("sandbox")
    stranger = await make_account("sandbox")
    live_owner = await make_account("live")
    subject = (await enrol(client, owner.headers, name="Otieno Ochieng")).json()["data"]
    path = f"{SUBJECTS}/{subject['id']}"
    for headers in (stranger.headers, live_owner.headers):
        assert (await client.get(path, headers=headers)).status_code == 404
        response = await client.delete(path, headers=headers)
        assert response.status_code == 404 and response.json()["error"] == "not_found"
        listed = (await client.get(SUBJECTS, headers=headers)).json()
        assert listed["data"] == []
    assert (await client.get(path, headers=owner.headers)).status_code == 200


async def test_bad_input_is_a_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"reference": "x"}, "name"),
        ({"subject_type": "business", "first_name": "A", "last_name": "B"}, "name"),
        ({"name": "Jane Doe", "checks": ["adverse_media"]}, "checks.0"),
        ({"name": "Jane Doe", "birth_date": "01/02/1990"}, "birth_date"),
        ({"name": "Jane Doe", "reference": "r" * 101}, "reference"),
        ({"name": "Jane Doe", "colour": "blue"}, "colour"),
    ]
    for body, field in cases:
        response = await enrol(client, account.headers, **body)
        assert response.status_code == 400, (body, response.text)
        assert response.json()["details"][0]["field"] == field, response.json()
    too_long = await client.get(f"{SUBJECTS}/{'x' * 41}", headers=account.headers)
    assert too_long.status_code == 400


async def test_monitor_true_enrols_the_screened_subject(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    reference = unique("onboarding")
    body = {"name": "Sandbox Sanction Person", "monitor": True, "reference": reference}
    first = await client.post("/v3/screening/individual", json=body, headers=account.headers)
    assert first.status_code == 200, first.text
    subject_id = first.json()["data"]["monitored_subject_id"]
    assert subject_id and subject_id.startswith("msub_")
    again = await client.post("/v3/screening/sanction", json=body, headers=account.headers)
    assert again.json()["data"]["monitored_subject_id"] == subject_id  # by reference
    enrolled = (await client.get(f"{SUBJECTS}/{subject_id}", headers=account.headers)).json()[
        "data"
    ]
    assert enrolled["source"] == "screening" and enrolled["reference"] == reference
    assert enrolled["subject_key"] == first.json()["data"]["aml"]["subject_key"]
    assert enrolled["checks"] == ["sanction", "pep"]

    not_asked = await client.post(
        "/v3/screening/individual", json={"name": "Amani Juma"}, headers=account.headers
    )
    assert not_asked.json()["data"]["monitored_subject_id"] is None
    business = await client.post(
        "/v3/screening/business",
        json={"name": "Sandbox Sanction Trading Limited", "monitor": True},
        headers=account.headers,
    )
    business_id = business.json()["data"]["monitored_subject_id"]
    found = (await client.get(f"{SUBJECTS}/{business_id}", headers=account.headers)).json()["data"]
    assert found["subject_type"] == "business" and found["checks"] == ["sanction"]
    only_media = await client.post(
        "/v3/screening/aml",
        json={"name": "Amani Juma", "checks": ["adverse_media"], "monitor": True},
        headers=account.headers,
    )
    assert only_media.status_code == 400
    assert only_media.json()["details"][0]["field"] == "monitor"

    with_id = await client.post(
        "/v3/screening/aml-with-id",
        json={"channel": "bvn", "number": "22222222210", "monitor": True, "reference": "bvn-1"},
        headers=account.headers,
    )
    assert with_id.status_code == 200, with_id.text
    id_subject = with_id.json()["data"]["monitored_subject_id"]
    shown = (await client.get(f"{SUBJECTS}/{id_subject}", headers=account.headers)).json()["data"]
    assert shown["source"] == "aml_with_id" and shown["reference"] == "bvn-1"
    assert shown["name"] == with_id.json()["data"]["aml"]["screened_name"]
    listed = await client.get(SUBJECTS, headers=account.headers)
    assert listed.json()["pagination"]["total_items"] == 3


async def test_subject_details_are_encrypted_at_rest(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    name, reference = "Zawadi Mwikali Nduta", "ACME-CUST-778899"
    created = await enrol(
        client,
        account.headers,
        name=name,
        reference=reference,
        birth_date="1987-07-07",
        identifiers=["A1234567"],
    )
    async with read(db) as conn:
        row = (
            await conn.execute(
                select(monitored_subjects).where(
                    monitored_subjects.c.id == created.json()["data"]["id"]
                )
            )
        ).one()
    stored = " ".join(str(value) for value in row)
    for clear in ("Zawadi", "Mwikali", reference, "1987-07-07", "A1234567"):
        assert clear not in stored
