"""The composite identity-risk scan over HTTP on both databases: every item checked with its own
scan's rules, the signals combined (a rule once, every reason kept)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import AccountFactory

URL = "/v3/fraud/identity-risk"


def codes(result: dict[str, Any]) -> list[str]:
    return [signal["code"] for signal in result["data"]["risk"]["signals"]]


async def test_sandbox_combines_the_single_scans_test_values(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = {
        "identifiers": [
            {"channel": "bvn", "number": "22222222225"},  # reported
            {"channel": "nin", "number": "12345678905"},  # reported too: counted once
        ],
        "phones": ["+254 712 345676"],  # seen with 4 identity numbers
        "address": "Xqzv Wplk", "country_code": "KE",
        "ip": "10.0.0.7",
    }  # fmt: skip
    response = await client.post(URL, json=body, headers=account.headers)
    assert response.status_code == 200, response.text
    result = response.json()
    assert codes(result) == [
        "reported", "phone_shared", "address_not_found", "ip_not_public",
    ]  # fmt: skip
    assert result["data"]["risk"]["score"] == 100 and result["data"]["risk"]["level"] == "CRITICAL"
    reported = result["data"]["risk"]["signals"][0]
    assert reported["weight"] == 40 and reported["reason"].count("fraud report") == 1
    assert result["data"]["checked"] == {
        "identifiers": 2, "phones": 1, "emails": 0, "addresses": 1, "ips": 1,
    }  # fmt: skip
    clean = await client.post(
        URL, json={"identifiers": [{"channel": "bvn", "number": "22222222220"}],
                   "ip": "102.89.1.20"}, headers=account.headers,
    )  # fmt: skip
    assert clean.json()["data"]["risk"] == {"score": 0, "level": "LOW", "signals": []}


async def test_bad_payloads_name_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    for body, field in (
        ({}, "identifiers"),
        ({"ip": "999.1.1.1"}, "ip"),
        ({"address": "Nairobi"}, "country_code"),
        ({"identifiers": [{"channel": "ssn", "number": "1"}]}, "identifiers.0"),
    ):
        response = await client.post(URL, json=body, headers=account.headers)
        assert response.status_code == 400, response.text
        assert response.json()["details"][0]["field"] == field


async def test_live_reads_the_shared_database(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    reporter, lender = await make_account("live"), await make_account("live", balance=10_000)
    report = {
        "subject": {"last_name": "Banda", "emails": ["Fraudster@Example.com"]},
        "incident": {"category": "impersonation", "date": "2026-07-07",
                     "description": "Posed as the account holder over e-mail."},
    }  # fmt: skip
    assert (
        await client.post("/v3/fraud/reports", json=report, headers=reporter.headers)
    ).status_code == 201
    response = await client.post(
        URL, json={"emails": [" fraudster@example.com"]}, headers=lender.headers
    )
    assert response.status_code == 200, response.text
    assert codes(response.json()) == ["email_reported"]
    assert response.json()["billing"]["charged"] is True
