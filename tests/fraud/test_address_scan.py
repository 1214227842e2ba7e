"""The address check over HTTP on both databases: real parsing against the shipped gazetteer,
GPS against the stated area, reports giving the same address."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import AccountFactory

URL = "/v3/fraud/address"


async def check(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = await client.post(URL, json=body, headers=headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def codes(result: dict[str, Any]) -> list[str]:
    return [signal["code"] for signal in result["data"]["risk"]["signals"]]


async def test_a_good_address_with_coordinates_in_its_area(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    result = await check(
        client, account.headers, address="P.O. Box 30126-00100, Moi Avenue, Nairobi",
        country_code="KE", latitude=-1.2833, longitude=36.8167,
    )  # fmt: skip
    parsed = result["data"]["address"]
    assert parsed["po_box"] == "30126" and parsed["postal_code"] == "00100"
    assert parsed["area"]["name"] == "Nairobi" and parsed["match"] == "exact"
    assert result["data"]["gps"]["verdict"] == "inside"
    assert codes(result) == [] and result["data"]["risk"]["level"] == "LOW"


async def test_far_coordinates_typos_and_unknown_places(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    far = await check(
        client, account.headers, address="Plot 5 Kampala Road, Kampala", country_code="UG",
        latitude=6.5244, longitude=3.3792,  # Lagos
    )  # fmt: skip
    assert far["data"]["gps"]["verdict"] == "outside" and "gps_outside_area" in codes(far)
    typo = await check(client, account.headers, address="Kisumo", country_code="KE")
    assert (
        typo["data"]["address"]["corrections"]
        and typo["data"]["address"]["area"]["name"] == "Kisumu"
    )
    nowhere = await check(client, account.headers, address="Xqzv Wplk", country_code="TZ")
    assert nowhere["data"]["address"]["match"] == "none" and codes(nowhere) == ["address_not_found"]
    half = await client.post(
        URL, json={"address": "Nairobi", "country_code": "KE", "latitude": 1.0},
        headers=account.headers,
    )  # fmt: skip
    assert half.status_code == 400 and half.json()["details"][0]["field"] == "longitude"
    wrong = await client.post(
        URL, json={"address": "Accra", "country_code": "GH"}, headers=account.headers
    )
    assert wrong.status_code == 400


async def test_live_counts_reports_giving_the_same_address(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    reporter, lender = await make_account("live"), await make_account("live", balance=10_000)
    report = {
        "subject": {"last_name": "Mwangi", "country": "KE",
                    "address": "House 12, Kilimani Road, Nairobi"},
        "incident": {"category": "first_party_fraud", "date": "2026-08-08",
                     "description": "Same address on twelve applications in a week."},
    }  # fmt: skip
    created = await client.post("/v3/fraud/reports", json=report, headers=reporter.headers)
    assert created.status_code == 201, created.text
    result = await check(
        client, lender.headers, address="nairobi, kilimani road, HOUSE 12", country_code="KE"
    )
    assert result["data"]["fraud_reports"] == {
        "count": 1, "organisations": 1, "categories": {"first_party_fraud": 1},
    }  # fmt: skip
    assert "address_reported" in codes(result)
    assert result["billing"]["charged"] is True
