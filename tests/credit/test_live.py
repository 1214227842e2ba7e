"""The credit endpoints with live keys against the fake bureaus, on SQLite and PostgreSQL:
reports normalised, one charge per answered pull, none for outages, refusals or a country
without a bureau (503), replays not charged again, reports stored encrypted and usable by
reference only within the organisation."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import select

from hakiki.core.clock import utcnow
from hakiki.core.database import Database
from hakiki.credit.providers.registry import CreditBureaus
from hakiki.credit.retention import purge_expired
from hakiki.credit.tables import credit_reports
from tests.conftest import AccountFactory, debit_count
from tests.credit.fake_bureaus import (
    KE_CLEAN,
    KE_NPA,
    KE_UNKNOWN,
    NG_CLEAN,
    NG_LOST,
    NG_UNKNOWN,
    FakeBureau,
    Mode,
)

PRICE = 5000
DECISION_PRICE = 1000


def pull_body(country: str, id_type: str, number: str, **more: Any) -> dict[str, Any]:
    return {
        "country_code": country,
        "id_type": id_type,
        "id_number": number,
        "report_reason": "new_application",
        "consent": True,
        **more,
    }


async def pull(
    client: httpx.AsyncClient, headers: dict[str, str], body: dict[str, Any], **kw: Any
) -> httpx.Response:
    return await client.post("/v3/credit/bureau", json=body, headers=headers, **kw)


async def test_metropol_report_is_normalised_and_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
) -> None:
    account = await make_account("live", balance=20_000)
    response = await pull(
        client, account.headers, pull_body("KE", "national_id", KE_CLEAN, loan_amount=5_000_000)
    )
    body = response.json()
    assert response.status_code == 200, body
    assert (body["status"], body["response_code"], body["provider"]) == (
        "VERIFIED",
        "00",
        "metropol",
    )
    report = body["data"]["report"]
    assert (
        report["bureau"] == "metropol" and report["country_code"] == "KE" and report["retrieved_at"]
    )
    assert report["summary"] == {
        "accounts": 3,
        "open_accounts": 2,
        "performing_accounts": 3,
        "non_performing_accounts": 0,
        "total_balance": 61_319_600,
        "total_arrears": 0,
        "max_days_past_due": 0,
    }
    assert {(x["lender_type"], x["performing"]) for x in report["lenders"]} == {
        ("bank", 1),
        ("other", 2),
    }
    assert report["enquiries"] == {"last_3_months": 0, "last_6_months": 2, "last_12_months": 2}
    assert report["bureau_score"] == 501 and report["file"] == "established"
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == PRICE
    assert await debit_count(db, account.org_id) == 1
    sent = fake_metropol.state.requests[-1]
    assert '"identity_type":"001"' in sent["body"] and '"loan_amount":50000' in sent["body"]


async def test_non_performing_not_found_and_outages(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
) -> None:
    account = await make_account("live", balance=50_000)
    npa = (await pull(client, account.headers, pull_body("KE", "national_id", KE_NPA))).json()
    summary = npa["data"]["report"]["summary"]
    assert summary["non_performing_accounts"] == 1 and summary["max_days_past_due"] == 120
    assert summary["total_arrears"] == 1_200_025 and npa["data"]["report"]["fraud_flag"] is True
    missing = (
        await pull(client, account.headers, pull_body("KE", "national_id", KE_UNKNOWN))
    ).json()
    assert (missing["status"], missing["data"]["report"], missing["billing"]["charged"]) == (
        "NOT_FOUND",
        None,
        True,
    )
    assert await debit_count(db, account.org_id) == 2
    for mode in (Mode.HTTP_503, Mode.HTTP_500, Mode.GARBAGE, Mode.UNEXPECTED_JSON, Mode.SLOW):
        fake_metropol.state.mode = mode
        down = (
            await pull(client, account.headers, pull_body("KE", "national_id", KE_CLEAN))
        ).json()
        assert (down["response_code"], down["billing"]["charged"]) == ("02", False), (mode, down)
    assert await debit_count(db, account.org_id) == 2


async def test_wrong_metropol_keys_fail_without_charge(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    bureaus: CreditBureaus,
    runtime: Any,
) -> None:
    metropol = bureaus.items[0]
    metropol.private_key = "not-the-key"  # type: ignore[attr-defined]
    account = await make_account("live", balance=20_000)
    body = (await pull(client, account.headers, pull_body("KE", "national_id", KE_CLEAN))).json()
    assert (body["response_code"], body["status"], body["billing"]["charged"]) == (
        "09",
        "FAILED",
        False,
    )
    assert await debit_count(db, account.org_id) == 0


async def test_firstcentral_report(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    bureaus: CreditBureaus,
    fake_firstcentral: FakeBureau,
) -> None:
    account = await make_account("live", balance=50_000, currency="NGN")
    clean = (await pull(client, account.headers, pull_body("NG", "bvn", NG_CLEAN))).json()
    report = clean["data"]["report"]
    assert (clean["provider"], report["currency"], report["bureau_score"]) == (
        "firstcentral",
        "NGN",
        705,
    )
    assert (
        report["accounts"][0]["balance"] == 62_000_050
        and report["accounts"][0]["lender_type"] == "bank"
    )
    assert report["enquiries"] == {"last_3_months": 1, "last_6_months": 1, "last_12_months": 2}
    lost = (await pull(client, account.headers, pull_body("NG", "nin", NG_LOST))).json()["data"][
        "report"
    ]
    assert lost["summary"]["non_performing_accounts"] == 1 and lost["legal_cases"] == 1
    assert (
        lost["lenders"][0]["lender_type"] == "bank"
        and lost["accounts"][1]["lender_type"] == "microfinance"
    )
    assert lost["bounced_cheques"]["last_12_months"] == 2
    unknown = (await pull(client, account.headers, pull_body("NG", "bvn", NG_UNKNOWN))).json()
    assert unknown["status"] == "NOT_FOUND"
    sent = fake_firstcentral.state.requests
    match = next(r for r in sent if r["path"] == "/ConnectConsumerMatch")
    assert match["body"]["ProductID"] == "45" and match["body"]["Identification"] == NG_CLEAN
    assert await debit_count(db, account.org_id) == 3
    fake_firstcentral.state.mode = Mode.HTTP_503
    down = (await pull(client, account.headers, pull_body("NG", "bvn", NG_CLEAN))).json()
    assert (down["response_code"], down["billing"]["charged"]) == ("02", False)
    bureaus.items[1].password = "wrong"  # type: ignore[attr-defined]
    fake_firstcentral.state.mode = Mode.NORMAL
    refused = (await pull(client, account.headers, pull_body("NG", "bvn", NG_CLEAN))).json()
    assert (refused["response_code"], refused["billing"]["charged"]) == ("09", False)
    assert await debit_count(db, account.org_id) == 3


async def test_no_bureau_configured_is_503_and_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=20_000)
    response = await pull(client, account.headers, pull_body("KE", "national_id", KE_CLEAN))
    assert response.status_code == 503 and response.json()["error"] == "channel_unavailable"
    assert "Metropol" in response.json()["message"]
    assert await debit_count(db, account.org_id) == 0


async def test_replay_is_not_charged_again_and_short_wallet_is_402(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
) -> None:
    account = await make_account("live", balance=PRICE)
    headers = {**account.headers, "Idempotency-Key": "crb-replay-1"}
    first = await pull(client, headers, pull_body("KE", "national_id", KE_CLEAN))
    again = await pull(client, headers, pull_body("KE", "national_id", KE_CLEAN))
    assert again.headers.get("idempotent-replayed") == "true" and again.json() == first.json()
    assert await debit_count(db, account.org_id) == 1
    calls = len(fake_metropol.state.requests)
    broke = await pull(client, account.headers, pull_body("KE", "national_id", KE_CLEAN))
    assert broke.status_code == 402 and len(fake_metropol.state.requests) == calls


async def test_report_stored_encrypted_and_decided_on_by_its_owner_only(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, bureaus: CreditBureaus
) -> None:
    account = await make_account("live", balance=50_000)
    reference = (
        await pull(client, account.headers, pull_body("KE", "national_id", KE_NPA))
    ).json()["reference"]
    async with db.reader.connect() as conn:
        row = (
            (
                await conn.execute(
                    select(credit_reports).where(credit_reports.c.reference == reference)
                )
            )
            .mappings()
            .one()
        )
    assert KE_NPA not in str(dict(row)) and "days_past_due" not in row["report_encrypted"]
    decision = {"loan": {"amount": 5_000_000, "term_months": 6}, "bureau_reference": reference}
    answer = (
        await client.post("/v3/credit/decision", json=decision, headers=account.headers)
    ).json()
    assert (
        answer["data"]["decision"] == "decline"
        and answer["data"]["overrides"][0]["code"] == "bureau_non_performing"
    )
    assert (
        answer["data"]["bureau"]["bureau"] == "metropol"
        and answer["data"]["bureau"]["reference"] == reference
    )
    assert answer["data"]["variables"]["repayment_history"] == "delayed"
    assert answer["billing"]["amount"] == DECISION_PRICE
    other = await make_account("live", balance=50_000)
    stranger = await client.post("/v3/credit/decision", json=decision, headers=other.headers)
    assert stranger.status_code == 404 and await debit_count(db, other.org_id) == 0
    sandbox = await make_account("sandbox")
    assert (
        await client.post("/v3/credit/decision", json=decision, headers=sandbox.headers)
    ).status_code == 404


async def test_live_decision_is_charged_once_and_402_when_short(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=DECISION_PRICE)
    body = {"loan": {"amount": 5_000_000, "term_months": 6}, "bureau": {"accounts": 0}}
    headers = {**account.headers, "Idempotency-Key": "dec-replay-1"}
    first = await client.post("/v3/credit/decision", json=body, headers=headers)
    again = await client.post("/v3/credit/decision", json=body, headers=headers)
    assert first.status_code == 200 and first.json()["billing"]["charged"] is True
    assert again.json() == first.json() and await debit_count(db, account.org_id) == 1
    changed = await client.post(
        "/v3/credit/decision", json={**body, "signals": {"pep": True}}, headers=headers
    )
    assert changed.status_code == 409
    broke = await client.post("/v3/credit/decision", json=body, headers=account.headers)
    assert broke.status_code == 402 and await debit_count(db, account.org_id) == 1


async def test_reports_past_retention_are_purged(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    body = pull_body("KE", "national_id", "12345670")
    fresh = (await pull(client, account.headers, body)).json()["reference"]
    old = (await pull(client, account.headers, body)).json()["reference"]
    async with db.writer.begin() as conn:
        await conn.execute(
            credit_reports.update()
            .where(credit_reports.c.reference == old)
            .values(created_at=utcnow() - timedelta(days=91))
        )
    assert await purge_expired(db, 90) == 1
    decision = {"loan": {"amount": 5_000_000, "term_months": 6}}
    for reference, status in ((old, 404), (fresh, 200)):
        answer = await client.post(
            "/v3/credit/decision",
            json={**decision, "bureau_reference": reference},
            headers=account.headers,
        )
        assert answer.status_code == status
