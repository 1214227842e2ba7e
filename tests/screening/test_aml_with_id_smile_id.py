"""The combined AML-with-ID screening with live keys for Kenya, Uganda and Tanzania, through the
fake Smile ID, on SQLite and PostgreSQL: verified identities screened by the real engine, one
charge per billable call, outages and refusals free, replays never charged twice."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_smile_id import (
    KE_ALIEN_CARD,
    KE_KRA_PIN,
    KE_NATIONAL_ID,
    KE_NOT_FOUND,
    TZ_NIDA,
    UG_NIN,
    UG_NIN_SANCTIONED,
    FakeSmileId,
    FaultMode,
)

URL = "/v3/screening/aml-with-id"
PRICE = 5000


async def post(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(URL, json=body, headers=headers)


@pytest.mark.parametrize(
    ("channel", "country", "number", "id_type", "last_name"),
    [
        ("national_id", "KE", KE_NATIONAL_ID, "NATIONAL_ID", "Mwangi"),
        ("alien_card", "KE", KE_ALIEN_CARD, "ALIEN_CARD", "Girma"),
        ("kra_pin", "KE", KE_KRA_PIN, "KRA_PIN", "Otieno"),
        ("nin", "UG", UG_NIN, "NATIONAL_ID_NO_PHOTO", "Nakato"),
        ("nida", "TZ", TZ_NIDA, "NATIONAL_ID", "Massawe"),
    ],
)
async def test_live_verified_and_screened_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
    channel: str,
    country: str,
    number: str,
    id_type: str,
    last_name: str,
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    response = await post(
        client, account.headers, channel=channel, country_code=country, number=number
    )
    body = response.json()
    assert response.status_code == 200, body
    assert (body["status"], body["response_code"], body["provider"]) == (
        "VERIFIED", "00", "smile_id",
    )  # fmt: skip
    assert body["data"]["channel"] == {"code": channel, "country": country}
    assert body["data"]["identity"]["last_name"] == last_name
    aml = body["data"]["aml"]
    assert aml["hits"] == [] and aml["screened_name"].endswith(last_name)
    assert {lst["code"] for lst in aml["lists"]} >= {"us_ofac_sdn", "un_sc_consolidated"}
    # No PEP list is bundled: verification and sanctions ran, two thirds of the price.
    assert aml["status"] == "INCOMPLETE" and aml["complete"] is False
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == PRICE * 2 // 3
    assert await debit_count(db, account.org_id) == 1
    assert fake_smile_id.last_request.json["id_type"] == id_type


async def test_live_ugandan_on_the_un_list_gives_explained_hits(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_smile_id: FakeSmileId
) -> None:
    account = await make_account("live", balance=PRICE)
    body = (
        await post(
            client, account.headers, channel="nin", country_code="UG", number=UG_NIN_SANCTIONED
        )
    ).json()
    assert body["status"] == "VERIFIED", body
    hits = body["data"]["aml"]["hits"]
    assert hits, body["data"]["aml"]
    top = hits[0]
    assert "MUKULU" in top["entity_name"].upper()
    assert {h["list_code"] for h in hits} >= {"un_sc_consolidated"}  # OFAC lists him too
    assert top["check"] == "sanction" and top["explanation"]["name"]["reason"]


async def test_live_compare_with_smile_id_names(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_smile_id: FakeSmileId
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    common = {"channel": "national_id", "country_code": "KE", "number": KE_NATIONAL_ID}
    same = (
        await post(
            client, account.headers, **common, compare=True, first_name="John", last_name="Mwangi"
        )
    ).json()
    assert same["status"] == "VERIFIED" and same["data"]["comparison"]["match"] is True
    other = (
        await post(
            client, account.headers, **common, compare=True, first_name="Mary", last_name="Wairimu"
        )
    ).json()
    assert (other["status"], other["response_code"]) == ("MISMATCH", "04")


async def test_live_not_found_is_billed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
) -> None:
    account = await make_account("live", balance=PRICE)
    body = (
        await post(
            client, account.headers, channel="national_id", country_code="KE", number=KE_NOT_FOUND
        )
    ).json()
    assert (body["status"], body["response_code"], body["found"]) == ("NOT_FOUND", "01", False)
    assert body["data"]["aml"] is None
    assert await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize(
    "mode", [FaultMode.HTTP_503, FaultMode.SLOW, FaultMode.GARBAGE, FaultMode.AUTHORITY_DOWN]
)
async def test_live_outage_is_soft_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
    mode: FaultMode,
) -> None:
    account = await make_account("live", balance=PRICE)
    fake_smile_id.set_mode(mode, slow_seconds=3.0)  # beyond the 1 s provider timeout
    body = (
        await post(client, account.headers, channel="nin", country_code="UG", number=UG_NIN)
    ).json()
    # The combined screening has no status call: a slow registry ends 02, not PENDING.
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert body["ok"] is False and body["soft_error"] is True
    assert body["billing"]["charged"] is False
    assert await debit_count(db, account.org_id) == 0
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (wallet["balance"], wallet["reserved"]) == (PRICE, 0)


async def test_live_refused_credentials_are_failed_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
) -> None:
    account = await make_account("live", balance=PRICE)
    fake_smile_id.set_mode(FaultMode.UNAUTHORIZED)
    body = (
        await post(client, account.headers, channel="nida", country_code="TZ", number=TZ_NIDA)
    ).json()
    assert (body["status"], body["response_code"], body["ok"]) == ("FAILED", "09", False)
    assert await debit_count(db, account.org_id) == 0


async def test_live_idempotent_replay_is_not_charged_twice(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
) -> None:
    account = await make_account("live", balance=PRICE * 3)
    headers = {**account.headers, "Idempotency-Key": "live-smile-aml-1"}
    payload = {"channel": "national_id", "country_code": "KE", "number": KE_NATIONAL_ID}
    first = await client.post(URL, json=payload, headers=headers)
    second = await client.post(URL, json=payload, headers=headers)
    assert first.json()["status"] == "VERIFIED"
    assert second.content == first.content
    assert second.headers.get("idempotent-replayed") == "true"
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_smile_id.requests) == 1
    changed = await client.post(URL, json={**payload, "number": KE_NOT_FOUND}, headers=headers)
    assert changed.status_code == 409 and changed.json()["error"] == "idempotency_conflict"
    assert await debit_count(db, account.org_id) == 1


async def test_channels_listing_shows_smile_id_for_east_africa(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live")
    listed = (await client.get("/v3/screening/channels", headers=account.headers)).json()
    live = {(c["country"], c["code"]): c["live_provider"] for c in listed["data"] if c["live"]}
    assert {
        ("KE", "national_id"): "smile_id",
        ("KE", "alien_card"): "smile_id",
        ("KE", "passport"): "smile_id",
        ("KE", "kra_pin"): "smile_id",
        ("UG", "nin"): "smile_id",
        ("TZ", "nida"): "smile_id",  # mapped by the test settings, as an operator would
        ("NG", "bvn"): "prembly",
    }.items() <= live.items()
    assert ("TZ", "passport") not in live and ("UG", "drivers_license") not in live


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"channel": "kra_pin", "country_code": "KE", "number": "P051234567X"}, "number"),
        ({"channel": "alien_card", "country_code": "KE", "number": "12345"}, "number"),
        ({"channel": "alien_card", "country_code": "UG", "number": "1234567"}, "channel"),
        ({"channel": "nin", "country_code": "UG", "number": "CM9001234567\u0000A"}, "number"),
        ({"channel": "national_id", "country_code": "KE", "number": 28765432}, "number"),
    ],
)
async def test_live_bad_requests_are_400_naming_the_field_before_any_upstream_call(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_smile_id: FakeSmileId,
    body: dict[str, Any],
    field: str,
) -> None:
    account = await make_account("live", balance=PRICE)
    response = await post(client, account.headers, **body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "invalid_request"
    assert field in str(error.get("details")) or field in error["message"]
    assert fake_smile_id.requests == []
    assert await debit_count(db, account.org_id) == 0
