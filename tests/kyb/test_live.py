"""The KYB endpoints with live keys against fake registries speaking Prembly's, GLEIF's and
OpenCorporates' APIs: found, not found, outages, refused credentials, rate limits, slow
registries (PENDING, then the webhook), owner screening on the bundled lists, idempotency; on
SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory, debit_count
from tests.kyb.conftest import UseRegistries
from tests.kyb.fake_registries import (
    GB_NUMBER,
    KE_DISSOLVED,
    KE_FOUND,
    LEI,
    PARENT_LEI,
    ULTIMATE_LEI,
    FakeRegistries,
    FaultMode,
)
from tests.kyb.helpers import ledger_kinds, post
from tests.support.registry_checks import wait_event

KE = {"country_code": "KE", "registration_number": KE_FOUND}
FREE_LEDGER = {"credit": 1}
MISSING_LEI = "HAKIKIMISSING0000127"  # valid check digits, not in the fake


async def test_kenyan_ownership_is_found_screened_and_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    body = (await post(client, "ownership", account.headers, **KE)).json()
    assert (body["status"], body["response_code"], body["provider"]) == (
        "VERIFIED",
        "00",
        "prembly",
    )
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == 5000
    data = body["data"]
    assert data["company"]["name"] == "MLIMA AGRO EXPORTERS LIMITED"
    assert data["company"]["registration_date"] == "2016-03-02"
    assert data["company"]["status"] == "registered"
    owners = data["ownership"]
    assert [d["name"] for d in owners["directors"]] == [
        "John Kamau Mwangi", "Abubakar Mohammed Shekau", "Mary Wanjiku",
    ]  # fmt: skip
    assert owners["directors"][2]["role"] == "secretary"
    assert [(s["shares"], s["percentage"]) for s in owners["shareholders"]] == [
        (700, 70.0), (300, 30.0),
    ]  # fmt: skip
    assert len(owners["beneficial_owners"]) == 2
    # A real list hit on the bundled OFAC/UN lists, explained as in AML.
    hits = owners["directors"][1]["aml"]["hits"]
    assert {h["list_code"] for h in hits} & {"un_sc_consolidated", "us_ofac_sdn"}
    assert hits[0]["explanation"]["name"]["score"] >= 0.8
    assert owners["shareholders"][1]["aml"] == owners["directors"][1]["aml"]  # screened once
    assert data["screening"]["status"] == "POTENTIAL_MATCH"
    assert data["screening"]["parties_with_hits"] == ["Abubakar Mohammed Shekau"]
    assert {u["check"] for u in data["screening"]["unavailable"]} == {"pep"}  # no PEP list
    assert not owners["directors"][0]["aml"]["hits"]
    # BODS: the company, three people, then one relationship per person.
    kinds = [s["recordType"] for s in data["bods"]]
    assert kinds == ["entity", "person", "person", "person", "relationship", "relationship",
                     "relationship"]  # fmt: skip
    assert await debit_count(db, account.org_id) == 1
    (call,) = fake_registries.calls("prembly")
    assert call[1] == "/prembly/verification/ke/brs/search/advanced"


async def test_the_prembly_request_follows_the_documentation(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    dissolved = await post(
        client, "business", account.headers, country_code="KE", registration_number="cpr/2009/12345"
    )
    body = dissolved.json()
    assert body["status"] == "VERIFIED" and body["data"]["company"]["status"] == "dissolved"
    assert body["data"]["company"]["registration_number"] == KE_DISSOLVED
    assert "ownership" not in body["data"]
    missing = await post(
        client, "business", account.headers, country_code="KE", registration_number="BN-ZZZZ9999"
    )
    assert (missing.json()["status"], missing.json()["billing"]["charged"]) == ("NOT_FOUND", True)


@pytest.mark.parametrize(
    "mode",
    [FaultMode.HTTP_503, FaultMode.GARBAGE, FaultMode.UNEXPECTED_JSON, FaultMode.SERVICE_DOWN],
)
async def test_an_outage_or_garbage_is_02_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    mode: FaultMode,
) -> None:
    account = await make_account("live", balance=20_000)
    fake_registries.set_mode(mode)
    body = (await post(client, "ownership", account.headers, **KE)).json()
    assert (body["response_code"], body["status"], body["soft_error"], body["ok"]) == (
        "02", "SOURCE_UNAVAILABLE", True, False,
    )  # fmt: skip
    assert body["billing"]["charged"] is False and body["data"]["state"] == "failed"
    assert body["data"]["source"]["detail"]
    assert await ledger_kinds(db, account.org_id) == FREE_LEDGER


async def test_refused_credentials_are_09_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    fake_registries.set_mode(FaultMode.UNAUTHORIZED)
    body = (await post(client, "business", account.headers, **KE)).json()
    assert (body["response_code"], body["status"]) == ("09", "FAILED")
    assert "HAKIKI_PREMBLY_API_KEY" in body["data"]["source"]["detail"]
    assert await ledger_kinds(db, account.org_id) == FREE_LEDGER


async def test_no_kenyan_registry_configured_is_503_before_any_charge(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
) -> None:
    use_registries(prembly=False)
    account = await make_account("live", balance=20_000)
    response = await post(client, "business", account.headers, **KE)
    assert response.status_code == 503 and response.json()["error"] == "channel_unavailable"
    assert await ledger_kinds(db, account.org_id) == FREE_LEDGER


async def test_a_slow_registry_answers_pending_then_the_webhook_carries_the_result(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyb_sync_seconds", 0.1)
    fake_registries.set_mode(FaultMode.SLOW, slow_seconds=0.5)  # within the 1 s timeout
    account = await make_account("live", balance=20_000)
    body = (await post(client, "ownership", account.headers, **KE)).json()
    assert (body["status"], body["response_code"], body["async_pending"]) == ("PENDING", "05", True)
    assert body["data"]["state"] == "pending" and body["data"]["company"] is None
    assert body["billing"]["charged"] is True
    event = await wait_event(db, account.org_id, body["reference"])
    assert event["type"] == "verification.completed"
    data = event["data"]
    assert (data["status"], data["state"]) == ("VERIFIED", "completed")
    assert data["company"]["name"] == "MLIMA AGRO EXPORTERS LIMITED"
    assert data["screening"] == {
        "status": "POTENTIAL_MATCH", "parties_screened": 3, "hits": data["screening"]["hits"],
        "parties_with_hits": 1,
    }  # fmt: skip
    assert "Shekau" not in str(event["data"]).title()  # events are stored in clear
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_registries.calls("prembly")) == 1  # finished by the look-up under way


async def test_a_slow_registry_that_then_fails_is_refunded(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyb_sync_seconds", 0.1)
    fake_registries.set_mode(FaultMode.SLOW, slow_seconds=0.4)
    account = await make_account("live", balance=20_000)
    first = post(client, "business", account.headers, **KE)
    body = (await first).json()
    assert body["status"] == "PENDING"
    fake_registries.set_mode(FaultMode.UNAUTHORIZED)  # the slow answer is a refusal
    event = await wait_event(db, account.org_id, body["reference"])
    assert (event["type"], event["data"]["status"]) == ("verification.failed", "FAILED")
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}


async def test_gleif_lei_with_its_parents(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    body = (await post(client, "ownership", account.headers, country_code="GB", lei=LEI)).json()
    assert (body["status"], body["provider"]) == ("VERIFIED", "gleif")
    company = body["data"]["company"]
    assert company["name"] == "Example Holdings UK Limited"
    assert company["identifiers"] == [{"scheme": "XI-LEI", "id": LEI}]
    assert company["registration_date"] == "2001-02-03"
    parents = body["data"]["ownership"]["parents"]
    assert [(p["identifiers"][0]["id"], p["ultimate"]) for p in parents] == [
        (PARENT_LEI, False), (ULTIMATE_LEI, True),
    ]  # fmt: skip
    assert parents[0]["aml"]["checks"] == ["sanction"]  # entities: sanctions only
    relationships = [s for s in body["data"]["bods"] if s["recordType"] == "relationship"]
    interest = relationships[1]["recordDetails"]["interests"][0]
    assert (interest["type"], interest["directOrIndirect"]) == (
        "otherInfluenceOrControl",
        "indirect",
    )
    assert interest["beneficialOwnershipOrControl"] is False


async def test_gleif_by_registration_number_and_not_found(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    found = await post(
        client, "business", account.headers, country_code="gb", registration_number=GB_NUMBER
    )
    assert found.json()["data"]["company"]["identifiers"][0]["id"] == LEI
    (call,) = fake_registries.calls("gleif")
    assert call[2]["filter[entity.registeredAs]"] == GB_NUMBER
    assert call[2]["filter[entity.legalAddress.country]"] == "GB"
    missing = await post(
        client, "business", account.headers, country_code="FR", registration_number="552100554"
    )
    assert missing.json()["status"] == "NOT_FOUND"
    parent = await post(client, "business", account.headers, country_code="GB", lei=PARENT_LEI)
    assert parent.json()["data"]["company"]["name"] == "Example Group Plc"
    unknown_lei = await post(
        client,
        "business",
        account.headers,
        country_code="GB",
        lei="HAKIKIULTIMATE000175"[:18] + "XX",
    )
    assert unknown_lei.status_code == 400  # check digits fail: never sent
    absent = await post(client, "business", account.headers, country_code="GB", lei=MISSING_LEI)
    assert absent.json()["status"] == "NOT_FOUND"
    assert await debit_count(db, account.org_id) == 4


async def test_gleif_rate_limit_is_02_with_its_retry(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    fake_registries.set_mode(FaultMode.TOO_FAST)
    body = (await post(client, "business", account.headers, country_code="GB", lei=LEI)).json()
    assert body["response_code"] == "02"
    assert body["data"]["source"]["detail"] == "GLEIF rate-limited the look-up (retry after 30 s)"
    assert await ledger_kinds(db, account.org_id) == FREE_LEDGER


async def test_opencorporates_company_with_its_officers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    use_registries(opencorporates=True)
    account = await make_account("live", balance=20_000)
    body = (
        await post(
            client, "ownership", account.headers, country_code="GB", registration_number=GB_NUMBER
        )
    ).json()
    assert (body["status"], body["provider"]) == ("VERIFIED", "opencorporates")
    assert body["data"]["company"]["source_url"].endswith(f"/gb/{GB_NUMBER}")
    assert [d["name"] for d in body["data"]["ownership"]["directors"]] == ["JANE EXAMPLE"]
    (call,) = fake_registries.calls("opencorporates")
    assert call[1] == f"/oc/v0.4/companies/gb/{GB_NUMBER}" and call[2]["api_token"]
    by_name = await post(
        client, "business", account.headers, country_code="GB", name="Example Holdings"
    )
    assert by_name.json()["data"]["company"]["registration_number"] == GB_NUMBER


@pytest.mark.parametrize(
    ("mode", "code", "words"),
    [
        (FaultMode.RATE_LIMITED, "02", "exceeded your daily API call limit"),
        (FaultMode.TOO_FAST, "02", "retry after 30 s"),
        (FaultMode.UNAUTHORIZED, "09", "Invalid Api Token"),
    ],
)
async def test_opencorporates_limits_and_refusals_are_honest_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    mode: FaultMode,
    code: str,
    words: str,
) -> None:
    use_registries(opencorporates=True)
    account = await make_account("live", balance=20_000)
    fake_registries.set_mode(mode)
    for _ in range(2):  # asked again, it asks again: no cached answer
        body = (
            await post(
                client,
                "business",
                account.headers,
                country_code="GB",
                registration_number=GB_NUMBER,
            )
        ).json()
        assert body["response_code"] == code and words in body["data"]["source"]["detail"]
    assert len(fake_registries.calls("opencorporates")) == 2
    assert await ledger_kinds(db, account.org_id) == FREE_LEDGER


async def test_an_idempotent_retry_is_replayed_and_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    headers = {**account.headers, "Idempotency-Key": "kyb-retry-1"}
    first = await client.post("/v3/kyb/ownership", json=KE, headers=headers)
    again = await client.post("/v3/kyb/ownership", json=KE, headers=headers)
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.content == first.content
    other = await client.post(
        "/v3/kyb/ownership", json={**KE, "screen_owners": False}, headers=headers
    )
    assert other.status_code == 409
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_registries.calls("prembly")) == 1


async def test_a_short_wallet_is_402_before_the_registry(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=100)
    response = await post(client, "business", account.headers, **KE)
    assert response.status_code == 402
    assert fake_registries.calls("prembly") == []
