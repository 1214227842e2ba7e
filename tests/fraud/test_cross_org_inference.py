"""Cross-organisation inference (docs/decisions.md#fraud-cross-organisation-inference), over
HTTP on both databases, each organisation a fresh one: an organisation scanning a number with
guesses sees nothing its guesses changed, its guesses do not raise the risk others see, honest
sightings of several organisations still do, and scans' sightings expire."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select, update

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.fraud import observations
from hakiki.fraud.keys import identifier_key
from hakiki.fraud.tables import identity_observations
from tests.conftest import Account, AccountFactory
from tests.fraud.bulk.conftest import csv_bytes, finished, upload

ID_SCAN, PHONE_SCAN = "/v3/fraud/id-scan", "/v3/fraud/phone"
BALANCE = 100_000

GRACE = {"first_name": "Grace", "last_name": "Adeyemi", "date_of_birth": "1988-01-30",
         "phone": "0803 111 2222"}  # fmt: skip
MUSA = {"first_name": "Musa", "last_name": "Okonkwo", "date_of_birth": "1991-04-12",
        "phone": "0803 333 4444"}  # fmt: skip


async def id_scan(
    client: httpx.AsyncClient, account: Account, number: str, **told: str
) -> dict[str, Any]:
    body = {"channel": "bvn", "number": number, **told}
    response = await client.post(ID_SCAN, json=body, headers=account.headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def phone_scan(client: httpx.AsyncClient, account: Account, phone: str) -> dict[str, Any]:
    body = {"phone": phone, "country_code": "NG"}
    response = await client.post(PHONE_SCAN, json=body, headers=account.headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def seen(result: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a scan shows of the sightings: the counts (without the organisations) and risk."""
    links = {k: v for k, v in result["data"]["identity_links"].items() if k != "organisations"}
    return links, result["data"]["risk"]


def codes(result: dict[str, Any]) -> list[str]:
    return [signal["code"] for signal in result["data"]["risk"]["signals"]]


def guess(n: int) -> dict[str, str]:
    """The n-th of twenty guesses: made-up values, and at 1 and 13 the true ones."""
    if n == 1:
        return GRACE
    if n == 13:
        return {**MUSA, "first_name": "OKONKWO", "last_name": "musa"}
    born = date(1980, 1, 1) + timedelta(days=97 * n)
    return {"first_name": f"Guess{n}", "last_name": "Person", "date_of_birth": born.isoformat(),
            "phone": f"0803 900 {n:04d}"}  # fmt: skip


async def accounts(make_account: AccountFactory, count: int) -> list[Account]:
    return [await make_account("live", balance=BALANCE) for _ in range(count)]


async def kept_by(db: Database, org_id: str) -> dict[str, int]:
    """How many sightings of each kind an organisation has stored."""
    async with db.reader.connect() as conn:
        kept = await conn.execute(
            select(identity_observations.c.kind, func.count())
            .where(identity_observations.c.org_id == org_id)
            .group_by(identity_observations.c.kind)
        )
        return {str(kind): int(count) for kind, count in kept.all()}


async def test_an_organisation_cannot_confirm_guesses_by_watching_its_own_scans(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    number = "22400000001"
    honest = await accounts(make_account, 4)
    for lender, person in zip(honest, [GRACE, GRACE, MUSA, MUSA], strict=True):
        await id_scan(client, lender, number, **person)
    prober = await make_account("live", balance=BALANCE)
    baseline = await id_scan(client, prober, number)
    links, _risk = seen(baseline)
    assert links == {"names": 2, "birth_dates": 2, "phones": 2, "faces": 0}
    assert codes(baseline) == ["several_names", "several_birth_dates"]

    # Twenty guesses of name, date of birth and phone, two of them right: every answer, during
    # and after, is the baseline, whether the guess was right or wrong.
    for n in range(20):
        assert seen(await id_scan(client, prober, number, **guess(n))) == seen(baseline), n
    after = await id_scan(client, prober, number)
    assert seen(after) == seen(baseline)
    assert after["data"]["identity_links"]["organisations"] == 4  # the prober does not count itself

    # Nor are twenty guesses kept: a few values of each kind, then nothing more.
    limit = observations.MAX_VALUES_PER_ORGANISATION
    assert await kept_by(db, prober.org_id) == {"name": limit, "birth_date": limit, "phone": limit}


async def test_a_bulk_file_of_guesses_is_one_organisation_too(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    number = "22400000008"
    first, second, prober, other = await accounts(make_account, 4)
    for lender in (first, second):
        await id_scan(client, lender, number, **MUSA)
    before = await id_scan(client, other, number)
    sheet = [["number", "first_name", "last_name", "date_of_birth", "phone"]]
    sheet += [[number, *guess(n).values()] for n in range(20)]  # one chunk, one number
    started = await upload(client, prober.headers, csv_bytes(sheet), "id", channel="bvn")
    done = await finished(client, prober.headers, started["bulk_id"], page_size=100)
    assert done["success_count"] == 20
    baseline = {"names": 1, "birth_dates": 1, "phones": 1, "faces": 0, "organisations": 2}
    assert all(row["findings"]["identity_links"] == baseline for row in done["results"])
    limit = observations.MAX_VALUES_PER_ORGANISATION
    assert await kept_by(db, prober.org_id) == {"name": limit, "birth_date": limit, "phone": limit}
    after = await id_scan(client, other, number)
    assert seen(after) == seen(before)


async def test_guesses_of_one_organisation_do_not_raise_the_risk_others_see(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    corroborated, single = "22400000002", "22400000003"
    first, second, prober, other = await accounts(make_account, 4)
    for lender in (first, second):
        await id_scan(client, lender, corroborated, **GRACE)
    await id_scan(client, first, single, **GRACE)
    before = await id_scan(client, other, corroborated)
    assert seen(before)[0] == {"names": 1, "birth_dates": 1, "phones": 1, "faces": 0}
    assert codes(before) == []
    before_single = await id_scan(client, other, single)
    assert seen(before_single)[0]["names"] == 0  # one organisation alone carries nothing
    assert codes(before_single) == []

    for n in range(20):
        await id_scan(client, prober, corroborated, **guess(n))
        await id_scan(client, prober, single, **guess(n))

    after = await id_scan(client, other, corroborated)
    assert seen(after) == seen(before)
    assert after["data"]["identity_links"]["organisations"] == 3  # the prober did scan it: once
    # Beside a single honest sighting, the prober's twenty guesses weigh as one organisation:
    # they count at most one name, never beyond what the honest organisation saw, no signal.
    after_single = await id_scan(client, other, single)
    assert seen(after_single)[0] == {"names": 1, "birth_dates": 1, "phones": 1, "faces": 0}
    assert after_single["data"]["risk"] == before_single["data"]["risk"]


async def test_other_organisations_seeing_different_people_still_raise_the_risk(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    number, stacked = "22400000004", "22400000005"
    a, b, c, d, viewer = await accounts(make_account, 5)
    for lender in (a, b):
        await id_scan(client, lender, number, **MUSA)
    assert seen(await id_scan(client, viewer, number))[0]["names"] == 1
    # A third organisation alone saying "Grace" is one organisation's word: not enough...
    await id_scan(client, c, number, **GRACE)
    one = await id_scan(client, viewer, number)
    assert seen(one)[0]["names"] == 1 and codes(one) == []
    # ... a fourth saying it too is two organisations that saw someone else.
    await id_scan(client, d, number, **GRACE)
    two = await id_scan(client, viewer, number)
    assert seen(two)[0] == {"names": 2, "birth_dates": 2, "phones": 2, "faces": 0}
    assert codes(two) == ["several_names", "several_birth_dates"]
    assert two["data"]["risk"]["level"] == "HIGH"

    # Loan stacking with a new name at each lender: three lenders, three names.
    for lender, first_name in zip((a, b, c), ("Ali", "Bola", "Chike"), strict=True):
        await id_scan(client, lender, stacked, first_name=first_name, last_name="Eze")
    stack = await id_scan(client, viewer, stacked)
    assert seen(stack)[0]["names"] == 2 and codes(stack) == ["several_names"]


async def test_a_phone_scan_shows_no_numbers_its_own_guesses_added(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    phone = "0803 555 0001"
    first, second, prober, other = await accounts(make_account, 4)
    for lender in (first, second):
        await id_scan(client, lender, "22400000006", phone=phone)
    before = [
        (await phone_scan(client, org, phone))["data"]["links"]["identities"]
        for org in (prober, other)
    ]
    assert before == [1, 1]
    # The prober tries twenty numbers with the phone (one of them the right one).
    for n in range(20):
        await id_scan(client, prober, f"224000001{n:02d}" if n != 1 else "22400000006", phone=phone)
    for org in (prober, other):
        after = await phone_scan(client, org, phone)
        assert after["data"]["links"]["identities"] == 1
        assert "phone_shared" not in codes(after)


async def test_sightings_of_scans_expire_and_a_reports_stay(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, app: FastAPI
) -> None:
    number = "22400000007"
    a, b, c, reporter, viewer = await accounts(make_account, 5)
    for lender, first_name in zip((a, b, c), ("Ali", "Bola", "Chike"), strict=True):
        await id_scan(client, lender, number, first_name=first_name, last_name="Eze")
    # The reporter scanned with the name it later reports: the report keeps that sighting.
    await id_scan(client, reporter, number, first_name="Dayo", last_name="Eze")
    report = {
        "subject": {"first_name": "Dayo", "last_name": "Eze",
                    "identifiers": [{"type": "bvn", "value": number}]},
        "incident": {"category": "loan_stacking", "date": "2026-09-01",
                     "description": "Four loans in one week."},
    }  # fmt: skip
    created = await client.post("/v3/fraud/reports", json=report, headers=reporter.headers)
    assert created.status_code == 201, created.text
    assert seen(await id_scan(client, viewer, number))[0]["names"] == 3

    # Half a year later (the default retention is 180 days) housekeeping runs.
    key = identifier_key(app.state.runtime.vault, number)
    async with transaction(db) as conn:
        await conn.execute(
            update(identity_observations)
            .where(identity_observations.c.identifier_key == key)
            .values(first_seen=utcnow() - timedelta(days=181))
        )
    assert await observations.purge_expired(db, 180) >= 3
    async with db.reader.connect() as conn:
        left = await conn.execute(
            select(identity_observations.c.org_id, identity_observations.c.from_report).where(
                identity_observations.c.identifier_key == key
            )
        )
        assert {tuple(row) for row in left.all()} == {(reporter.org_id, True)}
    later = await id_scan(client, viewer, number)
    assert seen(later)[0]["names"] == 0 and later["data"]["identity_links"]["organisations"] == 1
    assert codes(later) == ["reported"]
