"""country_code on every endpoint that takes one: a country Hakiki does not cover is a 400
naming the field and listing KE, NG, TZ and UG, checked with the request body (never a 500 in
the phone engine); and a Ugandan NIN sent on `nin` without a country_code is a 400 saying to add
`"country_code": "UG"` (without it, `nin` means Nigeria's)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.engines.address import COUNTRIES as ADDRESS_COUNTRIES
from hakiki.engines.phone import SUPPORTED_REGIONS
from hakiki.identity.channels import CHANNELS, countries_fitting
from hakiki.identity.schemas import SUPPORTED_COUNTRIES
from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import csv_bytes, post_file

UG_NIN = "CM90012345670A"


def refused(response: httpx.Response, field: str) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == "invalid_request"
    assert [d["field"] for d in body["details"]] == [field], body
    return body


def test_one_list_of_countries_everywhere() -> None:
    assert set(SUPPORTED_COUNTRIES) == {c.country for c in CHANNELS}
    assert set(SUPPORTED_COUNTRIES) == set(SUPPORTED_REGIONS) == set(ADDRESS_COUNTRIES)


ENDPOINTS = [
    ("/v3/fraud/phone", {"phone": "0712 345678"}, "country_code"),
    ("/v3/fraud/id-scan", {"channel": "national_id", "number": "20000000"}, "country_code"),
    ("/v3/fraud/address", {"address": "Moi Avenue, Nairobi"}, "country_code"),
    ("/v3/fraud/identity-risk", {"phones": ["0712 345678"]}, "country_code"),
    ("/v3/kyc/national-id", {"number": "20000000"}, "country_code"),
    ("/v3/screening/aml-with-id", {"channel": "national_id", "number": "20000000"},
     "country_code"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "body", "field"), ENDPOINTS)
async def test_an_unsupported_country_is_a_400_listing_the_supported_ones(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    body: dict[str, Any],
    field: str,
) -> None:
    account = await make_account("sandbox")
    for country in ("GH", "gh", "ZZ", "KEN", ""):
        response = await client.post(
            path, json={**body, "country_code": country}, headers=account.headers
        )
        error = refused(response, field)
        assert "KE, NG, TZ, UG" in error["details"][0]["problem"], error
        assert "country_code" in error["message"]
    for wrong_type in (254, True, ["KE"]):
        response = await client.post(
            path, json={**body, "country_code": wrong_type}, headers=account.headers
        )
        assert "KE, NG, TZ, UG" in refused(response, field)["details"][0]["problem"]
    for supported in ("KE", "ke", " Ke "):  # any case, as before
        response = await client.post(
            path, json={**body, "country_code": supported}, headers=account.headers
        )
        assert response.status_code == 200, response.text


async def test_an_identifier_country_in_identity_risk_names_its_place(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    item = {"channel": "bvn", "number": "22212345670", "country_code": "GH"}
    response = await client.post(
        "/v3/fraud/identity-risk", json={"identifiers": [item]}, headers=account.headers
    )
    refused(response, "identifiers.0.country_code")


async def test_a_bulk_phone_scan_in_an_unsupported_country_is_refused_with_the_file(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    sheet = csv_bytes([["phone", "country_code"], ["0712345678", "KE"], ["0244123456", "GH"]])
    response = await post_file(client, account.headers, sheet, "phone")
    assert response.status_code == 400, response.text
    [problem] = response.json()["details"]
    assert (problem["row"], problem["column"]) == (3, "country_code")
    assert "KE, NG, TZ, UG" in problem["problem"]


def test_which_countries_a_number_fits() -> None:
    assert countries_fitting("nin", UG_NIN) == ["UG"]
    assert countries_fitting("nin", "cf 9001234567 0a") == ["UG"]  # spaces and case ignored
    assert countries_fitting("nin", "70123456780") == []  # a Nigerian NIN
    assert countries_fitting("nin", "1234") == []  # nobody's
    assert countries_fitting("bvn", UG_NIN) == []  # a code of one country
    assert countries_fitting("passport", "AK1234560") == ["KE", "UG", "TZ"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v3/screening/aml-with-id", {"channel": "nin", "number": UG_NIN}, "country_code"),
        ("/v3/fraud/id-scan", {"channel": "nin", "number": UG_NIN}, "country_code"),
        (
            "/v3/fraud/identity-risk",
            {"identifiers": [{"channel": "nin", "number": UG_NIN}]},
            "identifiers.0.country_code",
        ),
    ],
)
async def test_a_ugandan_nin_without_its_country_asks_for_it(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    body: dict[str, Any],
    field: str,
) -> None:
    account = await make_account("sandbox")
    error = refused(await client.post(path, json=body, headers=account.headers), field)
    assert '"country_code": "UG"' in error["details"][0]["problem"]
    assert '"country_code": "UG"' in error["message"]
    with_country = {**body, "country_code": "UG"}
    if "identifiers" in body:
        with_country = {"identifiers": [{**body["identifiers"][0], "country_code": "UG"}]}
    answered = await client.post(path, json=with_country, headers=account.headers)
    assert answered.status_code == 200, answered.text


async def test_a_ugandan_nin_in_a_bulk_id_row_without_its_country_is_refused(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    sheet = csv_bytes([["number", "channel"], ["70123456780", "nin"], [UG_NIN, "nin"]])
    response = await post_file(client, account.headers, sheet, "id")
    assert response.status_code == 400, response.text
    [problem] = response.json()["details"]
    assert problem["row"] == 3 and "country_code UG" in problem["problem"]
    with_country = csv_bytes([["number", "channel", "country_code"], [UG_NIN, "nin", "UG"]])
    accepted = await post_file(client, account.headers, with_country, "id")
    assert accepted.status_code == 202, accepted.text
