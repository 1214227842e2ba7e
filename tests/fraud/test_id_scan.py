"""The identity-number fraud scan over HTTP on both databases: sandbox test values, and live
signals from the shared fraud database and from what other organisations saw with the number."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.settings import Settings
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_prembly import NIN_FOUND, FakePrembly

URL = "/v3/fraud/id-scan"
PRICE = 500


async def scan(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = await client.post(URL, json=body, headers=headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


@pytest.mark.parametrize(
    ("number", "level", "codes"),
    [
        ("22222222220", "LOW", []),
        ("22222222225", "MEDIUM", ["reported"]),
        ("22222222226", "HIGH", ["several_names", "several_birth_dates", "several_phones"]),
        (
            "22222222227",
            "CRITICAL",
            ["reported", "reported_by_several", "several_names", "several_faces"],
        ),
    ],
)
async def test_sandbox_test_values(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    number: str,
    level: str,
    codes: list[str],
) -> None:
    account = await make_account("sandbox")
    result = await scan(client, account.headers, channel="bvn", number=number)
    assert result["live"] is False and result["data"]["number_valid"] is True
    assert result["data"]["risk"]["level"] == level
    assert [s["code"] for s in result["data"]["risk"]["signals"]] == codes
    assert all(s["reason"] and s["weight"] > 0 for s in result["data"]["risk"]["signals"])
    assert result["billing"]["charged"] is False
    again = await scan(client, account.headers, channel="bvn", number=number)
    assert again["data"]["risk"] == result["data"]["risk"]  # deterministic


async def test_an_invalid_number_is_a_signal_and_an_unknown_channel_a_400(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    result = await scan(client, account.headers, channel="bvn", number="1234")
    assert (
        result["data"]["number_valid"] is False and "11 digits" in result["data"]["format_problem"]
    )
    assert [s["code"] for s in result["data"]["risk"]["signals"]] == ["invalid_format"]
    kenyan = await scan(client, account.headers, channel="national_id", number="20000000")
    assert (kenyan["data"]["country"], kenyan["data"]["channel"]) == ("KE", "national_id")
    unknown = await client.post(
        URL, json={"channel": "ssn", "number": "1"}, headers=account.headers
    )
    assert unknown.status_code == 400 and unknown.json()["details"][0]["field"] == "channel"


async def test_live_signals_come_from_every_organisation_and_never_name_them(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Any
) -> None:
    number = "22987650011"
    lenders = [await make_account("live", balance=10 * PRICE) for _ in range(5)]
    # Four organisations saw two different people behind one BVN, each person at two...
    for lender, (first, last, born) in zip(
        lenders,
        [("Musa", "Okonkwo", "1991-04-12"), ("Okonkwo", "Musa", "1991-04-12"),
         ("Grace", "Adeyemi", "1988-01-30"), ("ADEYEMI", "grace", "1988-01-30")],
        strict=False,
    ):  # fmt: skip
        await scan(client, lender.headers, channel="bvn", number=number,
                   first_name=first, last_name=last, date_of_birth=born)  # fmt: skip
    # ... and one reported it.
    report = {
        "subject": {"last_name": "Okonkwo", "identifiers": [{"type": "bvn", "value": number}]},
        "incident": {"category": "loan_stacking", "date": "2026-09-01",
                     "description": "Three loans in one week from three lenders."},
    }  # fmt: skip
    created = await client.post("/v3/fraud/reports", json=report, headers=lenders[0].headers)
    assert created.status_code == 201, created.text

    result = await scan(client, lenders[4].headers, channel="bvn", number=number)
    assert result["live"] is True and result["data"]["number_valid"] is True
    assert result["data"]["fraud_reports"] == {
        "count": 1, "organisations": 1, "categories": {"loan_stacking": 1},
    }  # fmt: skip
    # "Musa Okonkwo" and "Okonkwo Musa" are one name; the first lender's report ("Okonkwo")
    # adds a name only that lender gave: an organisation vouches for one name, so two.
    assert result["data"]["identity_links"]["names"] == 2
    assert result["data"]["identity_links"]["birth_dates"] == 2
    assert result["data"]["identity_links"]["organisations"] == 4
    codes = [s["code"] for s in result["data"]["risk"]["signals"]]
    assert codes == ["reported", "several_names", "several_birth_dates"]
    assert result["billing"]["charged"] is True and result["billing"]["amount"] == PRICE
    assert await debit_count(db, lenders[4].org_id) == 1
    assert "org_" not in str(result["data"]["fraud_reports"]) + str(
        result["data"]["identity_links"]
    )
    # One of the four does not count itself: the dates of birth it sees differ only by what a
    # single other organisation said, which is not enough.
    own = await scan(client, lenders[3].headers, channel="bvn", number=number)
    assert own["data"]["identity_links"]["organisations"] == 3
    assert own["data"]["identity_links"]["birth_dates"] == 1
    assert "several_birth_dates" not in [s["code"] for s in own["data"]["risk"]["signals"]]


async def test_live_scan_needs_funds(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    broke = await make_account("live")
    response = await client.post(
        URL, json={"channel": "bvn", "number": "22222222220"}, headers=broke.headers
    )
    assert response.status_code == 402


def test_unknown_fraud_weights_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown fraud signals"):
        Settings(fraud_weights={"looks_shifty": 10})


async def test_names_given_with_kyc_calls_count_as_sightings(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: FakePrembly
) -> None:
    lenders = [await make_account("live", balance=10_000) for _ in range(5)]
    given = [("Emeka", "Obi"), ("Obi", "Emeka"), ("John", "Smith"), ("John", "Smith")]
    for lender, (first, last) in zip(lenders, given, strict=False):
        response = await client.post(
            "/v3/kyc/national-id",
            json={"country_code": "NG", "number": NIN_FOUND, "compare": True,
                  "first_name": first, "last_name": last},
            headers=lender.headers,
        )  # fmt: skip
        assert response.status_code == 200, response.text
    result = await scan(client, lenders[4].headers, channel="nin", number=NIN_FOUND)
    assert result["data"]["identity_links"]["names"] == 2
    assert result["data"]["identity_links"]["organisations"] == 4
    assert "several_names" in [s["code"] for s in result["data"]["risk"]["signals"]]
