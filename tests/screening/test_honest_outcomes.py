"""Honest screening outcomes (issue 34, item 1), through the ASGI app on SQLite and PostgreSQL,
with the real bundled lists (OFAC SDN of 2024-05-03, UN; no PEP list): a requested check that
cannot run is never CLEAR, is named not_performed with its reason, and is not charged; every
list is dated and flagged stale."""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
import pytest

from hakiki.core.clock import utcnow
from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly

PRICE = 1000  # every name-screening endpoint
AML_WITH_ID_PRICE = 5000
OFAC_PUBLISHED = "2024-05-03"
CLEAN = {"name": "Grace Wanjiru Kamau", "birth_date": "1990-08-23", "countries": ["KE"]}


def outcomes(aml: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {o["check"]: (o["outcome"], o["reason"]) for o in aml["outcomes"]}


def ofac_age() -> int:
    return (utcnow().date() - date.fromisoformat(OFAC_PUBLISHED)).days


async def test_live_no_pep_list_is_incomplete_never_clear_and_charges_what_ran(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=PRICE)
    response = await client.post("/v3/screening/individual", json=CLEAN, headers=account.headers)
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["status"] == "INCOMPLETE" and result["ok"] is False
    aml = result["data"]["aml"]
    assert aml["status"] == "INCOMPLETE" and aml["complete"] is False
    found = outcomes(aml)
    assert found["sanction"] == ("clear", None)
    assert found["pep"][0] == "not_performed"
    assert "No pep list is loaded" in str(found["pep"][1])
    assert [o["check"] for o in aml["outcomes"]] == ["sanction", "pep"]
    sanction = next(o for o in aml["outcomes"] if o["check"] == "sanction")
    assert "us_ofac_sdn" in sanction["lists"]
    assert [u["check"] for u in aml["unavailable"]] == ["pep"]  # kept for existing clients
    # One of the two checks ran: half the price, one debit.
    assert result["billing"]["charged"] is True and result["billing"]["amount"] == PRICE // 2
    assert await debit_count(db, account.org_id) == 1
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["balance"] == PRICE - PRICE // 2 and wallet["reserved"] == 0


async def test_live_every_check_ran_is_clear_at_full_price(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=PRICE)
    result = (
        await client.post("/v3/screening/sanction", json=CLEAN, headers=account.headers)
    ).json()
    assert result["data"]["aml"]["status"] == "CLEAR" and result["ok"] is True
    assert result["data"]["aml"]["complete"] is True
    assert outcomes(result["data"]["aml"]) == {"sanction": ("clear", None)}
    assert result["billing"]["amount"] == PRICE


async def test_live_hits_stay_potential_match_with_the_gap_named(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=PRICE)
    body = {"name": "Abubakar Shekau", "birth_date": "1969"}
    result = (
        await client.post("/v3/screening/pep-and-sanction", json=body, headers=account.headers)
    ).json()
    assert result["data"]["aml"]["status"] == "POTENTIAL_MATCH" and result["ok"] is False
    found = outcomes(result["data"]["aml"])
    assert found["sanction"] == ("hits", None) and found["pep"][0] == "not_performed"
    assert result["billing"]["amount"] == PRICE // 2


async def test_every_list_is_dated_and_an_old_one_flagged_stale(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=PRICE)
    result = (
        await client.post("/v3/screening/sanction", json=CLEAN, headers=account.headers)
    ).json()
    lists = {lst["code"]: lst for lst in result["data"]["aml"]["lists"]}
    ofac = lists["us_ofac_sdn"]
    assert ofac["published"] == OFAC_PUBLISHED
    assert ofac["age_days"] == ofac_age() and ofac["stale"] is True
    assert all(lst["published"] and lst["age_days"] is not None for lst in lists.values())
    assert "Stale list(s): us_ofac_sdn" in result["message"]
    assert result["data"]["aml"]["status"] == "CLEAR"  # stale is reported, not fatal, by default


async def test_stale_fatal_makes_the_check_not_performed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "list_stale_fatal", True)
    account = await make_account("live", balance=PRICE)
    # The only sanctions lists include a stale one: nothing can run, 503, nothing charged.
    response = await client.post("/v3/screening/sanction", json=CLEAN, headers=account.headers)
    assert response.status_code == 503, response.text
    message = response.json()["message"]
    assert "us_ofac_sdn" in message and "HAKIKI_LIST_STALE_FATAL" in message
    assert await debit_count(db, account.org_id) == 0
    # Lists young enough for the limit: the sanctions check runs again.
    monkeypatch.setattr(runtime.settings, "list_max_age_days", 100_000)
    result = (
        await client.post("/v3/screening/sanction", json=CLEAN, headers=account.headers)
    ).json()
    assert (
        result["data"]["aml"]["status"] == "CLEAR"
        and result["data"]["aml"]["lists"][0]["stale"] is False
    )


async def test_aml_with_id_names_the_gaps_and_charges_what_ran(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    runtime: Runtime,
    db: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    account = await make_account("live", balance=AML_WITH_ID_PRICE * 2)
    url = "/v3/screening/aml-with-id"
    body = {"channel": "bvn", "number": BVN_FOUND}
    result = (await client.post(url, json=body, headers=account.headers)).json()
    assert result["status"] == "VERIFIED"  # the verification's outcome
    aml = result["data"]["aml"]
    assert aml["status"] == "INCOMPLETE" and aml["complete"] is False
    found = outcomes(aml)
    assert found["sanction"] == ("clear", None) and found["pep"][0] == "not_performed"
    ofac = next(lst for lst in aml["lists"] if lst["code"] == "us_ofac_sdn")
    assert (ofac["published"], ofac["age_days"], ofac["stale"]) == (
        OFAC_PUBLISHED, ofac_age(), True,
    )  # fmt: skip
    assert "Screening INCOMPLETE" in result["message"] and "pep" in result["message"]
    # Three parts (verification, sanction, pep), two ran.
    assert result["billing"]["amount"] == AML_WITH_ID_PRICE * 2 // 3

    # Stale lists fatal: only the verification ran.
    monkeypatch.setattr(runtime.settings, "list_stale_fatal", True)
    result = (await client.post(url, json=body, headers=account.headers)).json()
    found = outcomes(result["data"]["aml"])
    assert found["sanction"][0] == "not_performed" and "us_ofac_sdn" in str(found["sanction"][1])
    assert result["data"]["aml"]["status"] == "INCOMPLETE"
    assert result["billing"]["amount"] == AML_WITH_ID_PRICE // 3
    assert await debit_count(db, account.org_id) == 2
