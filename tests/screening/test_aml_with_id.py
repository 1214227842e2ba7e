"""The combined AML-with-ID screening, through the ASGI app, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from hakiki.core.database import Database
from hakiki.screening.aml_with_id import _sandbox_list
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_prembly import (
    BVN_FOUND,
    BVN_SANCTIONED,
    CAC_FOUND,
    NOT_FOUND_BVN,
    PASSPORT_FOUND,
    PASSPORT_LAST_NAME,
    FakePrembly,
    FaultMode,
)

URL = "/v3/screening/aml-with-id"
PRICE = 5000


async def post(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(URL, json=body, headers=headers)


# --- sandbox ----------------------------------------------------------------------------------


async def test_sandbox_verified_with_spec_fields(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await post(client, account.headers, channel="bvn", number="22222222200")
    assert response.status_code == 200
    body = response.json()
    for field in (
        "request_id", "live", "ok", "response_code", "status", "found", "soft_error",
        "async_pending", "reference", "message", "data", "provider",
    ):  # fmt: skip
        assert field in body, field
    assert body["live"] is False
    assert (body["ok"], body["response_code"], body["status"], body["found"]) == (
        True, "00", "VERIFIED", True,
    )  # fmt: skip
    assert body["soft_error"] is False and body["async_pending"] is False
    assert body["data"]["status"] == "FOUND"
    assert body["data"]["identity"]["first_name"] == "Adaeze"
    assert body["data"]["identity"]["last_name"] == "Okafor"
    assert body["data"]["aml"]["hits"] == []
    assert body["data"]["aml"]["checks"] == ["sanction", "pep"]
    assert body["billing"]["charged"] is False
    assert response.headers["x-request-id"] == body["request_id"]


async def test_sandbox_is_deterministic_bar_request_id(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    one = await make_account("sandbox")
    two = await make_account("sandbox")
    body = {"channel": "nin", "number": "70123456730", "adverse_media": True}
    first = (await post(client, one.headers, **body)).json()
    second = (await post(client, two.headers, **body)).json()
    assert first.pop("request_id") != second.pop("request_id")
    assert first == second


@pytest.mark.parametrize(
    ("number", "code", "status", "ok", "found", "soft", "pending", "data_status"),
    [
        ("22212345673", "00", "VERIFIED", True, True, False, False, "FOUND"),
        ("22212345675", "01", "NOT_FOUND", True, False, False, False, "NOT_FOUND"),
        ("22212345677", "05", "PENDING", True, False, False, True, "PENDING"),
        ("22212345678", "02", "SOURCE_UNAVAILABLE", False, False, True, False, "NOT_FOUND"),
        ("22212345679", "09", "FAILED", False, False, True, False, "NOT_FOUND"),
    ],
)
async def test_sandbox_outcomes_follow_the_last_digit(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    number: str,
    code: str,
    status: str,
    ok: bool,
    found: bool,
    soft: bool,
    pending: bool,
    data_status: str,
) -> None:
    account = await make_account("sandbox")
    body = (await post(client, account.headers, channel="bvn", number=number)).json()
    assert body["response_code"] == code
    assert body["status"] == status
    assert (body["ok"], body["found"], body["soft_error"], body["async_pending"]) == (
        ok, found, soft, pending,
    )  # fmt: skip
    assert body["data"]["status"] == data_status
    if not found:
        assert body["data"]["identity"] is None
        assert body["data"]["aml"] is None  # nothing was screened: no empty "no hits" claim


async def test_sandbox_aml_bitmask_gives_hits_for_requested_checks(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = (await post(client, account.headers, channel="bvn", number="22212345630")).json()
    checks = sorted(h["check"] for h in body["data"]["aml"]["hits"])
    assert checks == ["pep", "sanction"]
    body = (await post(client, account.headers, channel="bvn", number="22212345670")).json()
    checks = sorted(h["check"] for h in body["data"]["aml"]["hits"])
    assert checks == ["pep", "sanction"]  # bit 4 (adverse media) only when asked for
    body = (
        await post(client, account.headers, channel="bvn", number="22212345670", adverse_media=True)
    ).json()
    hits = body["data"]["aml"]["hits"]
    assert sorted(h["check"] for h in hits) == ["adverse_media", "pep", "sanction"]
    for hit in hits:
        assert hit["list_code"] and hit["entity_id"] and hit["matched_name"]
        assert 0 < hit["score"] <= 1 and hit["explanation"]["name"]["reason"]
    body = (
        await post(client, account.headers, channel="bvn", number="22212345620", checks=["pep"])
    ).json()
    assert body["data"]["aml"]["hits"] == []  # sanctions bit set, but only pep was asked


async def test_sandbox_compare_matches_on_verified_and_mismatches_on_six(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    names = {"compare": True, "first_name": "Grace", "last_name": "Wanjiru"}
    body = (
        await post(client, account.headers, channel="national_id", number="23456780", **names)
    ).json()
    assert body["status"] == "VERIFIED"
    assert body["data"]["comparison"]["match"] is True
    assert body["data"]["identity"]["first_name"] == "Grace"
    body = (
        await post(client, account.headers, channel="national_id", number="23456786", **names)
    ).json()
    assert (body["status"], body["response_code"], body["ok"]) == ("MISMATCH", "04", True)
    assert body["data"]["comparison"]["match"] is False
    assert body["data"]["comparison"]["reason"]
    # Without compare there is nothing to mismatch.
    body = (await post(client, account.headers, channel="national_id", number="23456786")).json()
    assert body["status"] == "VERIFIED"
    assert "comparison" not in body["data"] or body["data"]["comparison"] is None


async def test_compare_requires_both_names(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await post(
        client, account.headers, channel="bvn", number="22212345670", compare=True, first_name="A"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_request"
    assert [d["field"] for d in body["details"]] == ["last_name"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"number": "22212345670"}, "channel"),
        ({"channel": "bvn"}, "number"),
        ({}, "channel"),
        ({"channel": "bvn", "number": 22212345670}, "number"),
        ({"channel": "bvn", "number": "22212345670", "checks": ["sanctions"]}, "checks.0"),
        ({"channel": "bvn", "number": "22212345670", "checks": []}, "checks"),
        ({"channel": "bvn", "number": "22212345670", "compare": "yes"}, "compare"),
        ({"channel": "bvn", "number": "22212345670", "colour": "red"}, "colour"),
        ({"channel": "bvn", "number": "12345"}, "number"),
        ({"channel": "smartcard", "number": "12345"}, "channel"),
        ({"channel": "nin", "country_code": "UG", "number": "70123456780"}, "number"),
    ],
)
async def test_bad_requests_are_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory, body: dict[str, Any], field: str
) -> None:
    account = await make_account("sandbox")
    response = await client.post(URL, json=body, headers=account.headers)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "invalid_request"
    assert field in [d["field"] for d in error["details"]], error
    assert error["message"]


async def test_format_error_says_which_format_was_expected(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await post(client, account.headers, channel="nida", number="1234")
    assert response.status_code == 400
    assert "20 digits" in response.json()["message"]


async def test_invalid_json_is_400(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    response = await client.post(
        URL, content=b"{not json", headers={**account.headers, "content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


async def test_channels_endpoint_lists_formats_and_test_values(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await client.get("/v3/screening/channels", headers=account.headers)
    assert response.status_code == 200
    body = response.json()
    by_key = {(c["country"], c["code"]): c for c in body["data"]}
    assert by_key[("NG", "cac")]["subject"] == "business"
    assert by_key[("NG", "bvn")]["live"] is True  # the fake Prembly is configured
    assert by_key[("NG", "bvn")]["live_provider"] == "prembly"
    assert by_key[("KE", "national_id")]["live_provider"] == "smile_id"  # the fake Smile ID
    assert by_key[("TZ", "drivers_license")]["live"] is False
    assert all(c["sandbox"] for c in body["data"])
    assert by_key[("TZ", "nida")]["test_values"]
    assert body["pagination"]["total_items"] == len(body["data"])
    assert "last_digit" in body["sandbox_rules"]


# --- live ---------------------------------------------------------------------------------------


async def test_live_verified_clean_identity_is_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    account = await make_account("live", balance=PRICE * 3)
    response = await post(
        client,
        account.headers,
        channel="bvn",
        number=BVN_FOUND,
        compare=True,
        first_name="Chiamaka",
        last_name="Okafor-Nwosu",
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["live"] is True and body["provider"] == "prembly"
    assert body["status"] == "VERIFIED" and body["response_code"] == "00"
    assert body["data"]["identity"]["first_name"] == "Chiamaka"
    assert body["data"]["comparison"]["match"] is True
    aml = body["data"]["aml"]
    assert aml["hits"] == []
    assert {lst["code"] for lst in aml["lists"]} >= {"us_ofac_sdn", "un_sc_consolidated"}
    assert all(lst["version"] for lst in aml["lists"])
    assert [u["check"] for u in aml["unavailable"]] == ["pep"]  # no PEP list is bundled yet
    # The verification and the sanctions check ran, the PEP check did not: 2 of 3 parts.
    charged = PRICE * 2 // 3
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == charged
    assert await debit_count(db, account.org_id) == 1
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["balance"] == PRICE * 3 - charged and wallet["reserved"] == 0
    assert fake_prembly.last_request.path.endswith("/verification/bvn")


async def test_live_sanctioned_identity_gives_explained_hits(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=PRICE)
    body = (await post(client, account.headers, channel="bvn", number=BVN_SANCTIONED)).json()
    assert body["status"] == "VERIFIED"
    hits = body["data"]["aml"]["hits"]
    assert hits, body["data"]["aml"]
    lists = {h["list_code"] for h in hits}
    assert lists & {"us_ofac_sdn", "un_sc_consolidated"}
    top = hits[0]
    assert "SHEKAU" in top["entity_name"].upper()
    assert top["check"] == "sanction" and top["score"] >= 0.8
    assert top["programs"] and top["list_version"]
    assert "name" in top["explanation"] and top["explanation"]["name"]["reason"]


async def test_live_not_found_is_billed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    account = await make_account("live", balance=PRICE)
    body = (await post(client, account.headers, channel="bvn", number=NOT_FOUND_BVN)).json()
    assert (body["status"], body["response_code"], body["found"]) == ("NOT_FOUND", "01", False)
    assert body["data"]["aml"] is None
    assert await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize("mode", [FaultMode.HTTP_503, FaultMode.SLOW, FaultMode.GARBAGE])
async def test_live_upstream_outage_is_soft_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
    mode: FaultMode,
) -> None:
    account = await make_account("live", balance=PRICE)
    fake_prembly.set_mode(mode, slow_seconds=3.0)
    body = (await post(client, account.headers, channel="bvn", number=BVN_FOUND)).json()
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert body["ok"] is False and body["soft_error"] is True
    assert body["billing"]["charged"] is False
    assert await debit_count(db, account.org_id) == 0
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (wallet["balance"], wallet["reserved"]) == (PRICE, 0)


async def test_live_provider_refusal_is_failed_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    account = await make_account("live", balance=PRICE)
    fake_prembly.set_mode(FaultMode.UNAUTHORIZED)
    body = (await post(client, account.headers, channel="bvn", number=BVN_FOUND)).json()
    assert (body["status"], body["response_code"], body["ok"]) == ("FAILED", "09", False)
    assert await debit_count(db, account.org_id) == 0


async def test_live_business_channel(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=PRICE)
    body = (await post(client, account.headers, channel="cac", number=CAC_FOUND)).json()
    assert body["status"] == "VERIFIED"
    assert body["data"]["identity"]["business_name"] == "HAKIKI TEST VENTURES LIMITED"
    assert body["data"]["aml"]["hits"] == []


async def test_live_channel_without_provider_is_503_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    db: Database,
) -> None:
    account = await make_account("live", balance=PRICE)
    response = await post(
        client, account.headers, channel="drivers_license", country_code="UG", number="100123450"
    )
    assert response.status_code == 503
    assert response.json()["error"] == "channel_unavailable"
    assert await debit_count(db, account.org_id) == 0
    assert fake_prembly.requests == []


async def test_live_short_wallet_is_402_before_any_upstream_call(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=PRICE - 1)
    response = await post(client, account.headers, channel="bvn", number=BVN_FOUND)
    assert response.status_code == 402
    assert response.json()["error"] == "insufficient_funds"
    assert fake_prembly.requests == []


async def test_sandbox_never_charges(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox", balance=PRICE)
    for number in ("22212345670", "22212345675", "22212345676"):
        assert (
            await post(client, account.headers, channel="bvn", number=number)
        ).status_code == 200
    assert await debit_count(db, account.org_id) == 0


async def test_nigerian_passport_needs_the_surname(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: FakePrembly
) -> None:
    account = await make_account("live", balance=PRICE)
    response = await post(client, account.headers, channel="passport", number=PASSPORT_FOUND)
    assert response.status_code == 400
    assert [d["field"] for d in response.json()["details"]] == ["last_name"]
    assert fake_prembly.requests == []
    body = (
        await post(
            client,
            account.headers,
            channel="passport",
            number=PASSPORT_FOUND,
            last_name=PASSPORT_LAST_NAME,
        )
    ).json()
    assert body["status"] == "VERIFIED" and body["data"]["identity"]["last_name"] == "Bello"


def test_the_sandbox_lists_are_shared_and_cannot_be_changed() -> None:
    assert _sandbox_list("pep") is _sandbox_list("pep")
    with pytest.raises(ValidationError):
        _sandbox_list("pep").version = "changed"  # type: ignore[misc]
