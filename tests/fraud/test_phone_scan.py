"""The phone fraud scan over HTTP on both databases: real parsing in both modes, sandbox test
values, and live signals from reports, identity scans and other organisations' checks."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import AccountFactory, debit_count

URL = "/v3/fraud/phone"
PRICE = 200


async def scan(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = await client.post(URL, json=body, headers=headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_sandbox_parses_for_real_and_mocks_the_database(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    clean = await scan(client, account.headers, phone="0712 345678", country_code="KE")
    assert (
        clean["data"]["phone"]["valid"] is True
        and clean["data"]["phone"]["e164"] == "+254712345678"
    )
    assert (
        clean["data"]["phone"]["line_type"] == "mobile" and clean["data"]["phone"]["region"] == "KE"
    )
    assert clean["data"]["phone"]["original_carrier"] == "Safaricom"
    assert clean["data"]["risk"] == {"score": 0, "level": "LOW", "signals": []}
    reported = await scan(client, account.headers, phone="+234 803 123 4565")
    assert [s["code"] for s in reported["data"]["risk"]["signals"]] == ["phone_reported"]
    assert reported["data"]["fraud_reports"]["categories"] == {"sim_swap": 1}
    busy = await scan(client, account.headers, phone="+256 772 123457")
    assert [s["code"] for s in busy["data"]["risk"]["signals"]] == [
        "phone_reported", "phone_shared", "checked_often",
    ]  # fmt: skip
    bad = await scan(client, account.headers, phone="0712", country_code="KE")
    assert bad["data"]["phone"]["valid"] is False and bad["data"]["phone"]["reason"]
    assert [s["code"] for s in bad["data"]["risk"]["signals"]] == ["invalid_phone"]
    assert clean["billing"]["charged"] is False


async def test_live_signals_across_organisations(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Any
) -> None:
    phone = "+254 733 900 111"
    lenders = [await make_account("live", balance=10_000) for _ in range(4)]
    scanner = await make_account("live", balance=10_000)
    # Four different identity numbers gave this phone, at four lenders...
    numbers = ("20000101", "20000102", "20000103", "20000104")
    for lender, number in zip(lenders, numbers, strict=True):
        response = await client.post(
            "/v3/fraud/id-scan",
            json={"channel": "national_id", "number": number, "phone": "0733900111"},
            headers=lender.headers,
        )
        assert response.status_code == 200, response.text
    # ... three checked it, and one reported it.
    for lender in lenders[:3]:
        await scan(client, lender.headers, phone=phone)
    report = {
        "subject": {"country": "KE", "phones": ["0733 900111"]},
        "incident": {"category": "sim_swap", "date": "2026-11-01",
                     "description": "SIM swapped the day before the loan was taken."},
    }  # fmt: skip
    report["subject"]["last_name"] = "Otieno"
    created = await client.post("/v3/fraud/reports", json=report, headers=lenders[0].headers)
    assert created.status_code == 201, created.text

    result = await scan(client, scanner.headers, phone=phone)
    assert result["live"] is True and result["data"]["phone"]["original_carrier"] == "Airtel"
    assert result["data"]["fraud_reports"] == {
        "count": 1,
        "organisations": 1,
        "categories": {"sim_swap": 1},
    }
    # Four numbers from four organisations: three whichever one is left out (no single
    # organisation's sightings carry the count).
    assert result["data"]["links"] == {
        "identities": 3, "checks_last_7_days": 3, "checking_organisations_last_7_days": 3,
    }  # fmt: skip
    assert [s["code"] for s in result["data"]["risk"]["signals"]] == [
        "phone_reported", "phone_shared", "checked_often",
    ]  # fmt: skip
    assert result["billing"]["charged"] is True and result["billing"]["amount"] == PRICE
    assert await debit_count(db, lenders[1].org_id) == 2  # an ID scan and a phone scan
    assert await debit_count(db, scanner.org_id) == 1
