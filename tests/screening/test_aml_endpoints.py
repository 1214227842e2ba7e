"""The name-screening endpoints, through the ASGI app, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from tests.conftest import AccountFactory, debit_count

PRICE = 1000


async def screen(
    client: httpx.AsyncClient, path: str, headers: dict[str, str], **body: Any
) -> httpx.Response:
    return await client.post(f"/v3/screening/{path}", json=body, headers=headers)


# --- sandbox: the real matcher over the sandbox's fictional lists ------------------------------


@pytest.mark.parametrize(
    ("path", "body", "lists"),
    [
        ("sanction", {"name": "Sandbox Sanction Person"}, {"sandbox_sanction"}),
        ("sanction", {"name": "Sandbx Sanction Persn"}, {"sandbox_sanction"}),  # typos
        ("pep", {"first_name": "Sandbox", "last_name": "Politically Exposed"}, {"sandbox_pep"}),
        (
            "pep-and-sanction",
            {"name": "Sandbox Every List"},
            {"sandbox_pep", "sandbox_sanction"},
        ),
        (
            "individual",
            {"name": "Sandbox Every List", "adverse_media": True},
            {"sandbox_pep", "sandbox_sanction", "sandbox_adverse_media"},
        ),
        ("business", {"name": "Sandbox Sanction Trading Ltd"}, {"sandbox_sanction"}),
        (
            "aml",
            {"name": "Sandbox Adverse Media", "checks": ["adverse_media"]},
            {"sandbox_adverse_media"},
        ),
    ],
)
async def test_sandbox_test_names_hit(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    body: dict[str, Any],
    lists: set[str],
) -> None:
    account = await make_account("sandbox")
    response = await screen(client, path, account.headers, **body)
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["data"]["aml"]["status"] == "POTENTIAL_MATCH" and result["ok"] is True
    assert result["live"] is False and result["billing"]["charged"] is False
    assert {h["list_code"] for h in result["data"]["aml"]["hits"]} == lists
    for hit in result["data"]["aml"]["hits"]:
        assert hit["explanation"]["name"]["reason"] and hit["list_version"] == "sandbox"


async def test_sandbox_clean_name_is_clear_and_deterministic(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox", balance=PRICE)
    body = {"name": "Grace Wanjiru Kamau", "birth_date": "1990-08-23", "countries": ["KE"]}
    first = (await screen(client, "pep-and-sanction", account.headers, **body)).json()
    second = (await screen(client, "pep-and-sanction", account.headers, **body)).json()
    assert first["data"]["aml"]["status"] == "CLEAR" and first["data"]["aml"]["hits"] == []
    assert first["data"]["subject"]["countries"] == ["ke"]
    for result in (first, second):
        result.pop("request_id"), result.pop("reference")
    assert first == second
    assert await debit_count(db, account.org_id) == 0


# --- live: the official lists, one debit per call ---------------------------------------------


async def test_live_sanction_hit_is_explained_and_charged_once(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    response = await screen(
        client, "sanction", account.headers, name="Abubakar Shekau", birth_date="1969"
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["data"]["aml"]["status"] == "POTENTIAL_MATCH" and result["live"] is True
    top = result["data"]["aml"]["hits"][0]
    assert "SHEKAU" in top["entity_name"].upper()
    assert top["list_code"] in {"us_ofac_sdn", "un_sc_consolidated"}
    assert {"name", "birth_date"} <= set(top["explanation"])
    assert result["billing"] == {
        "charged": True,
        "amount": PRICE,
        "currency": "KES",
        "transaction_id": result["billing"]["transaction_id"],
    }
    assert await debit_count(db, account.org_id) == 1


async def test_live_business_screening(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=PRICE)
    result = (
        await screen(client, "business", account.headers, name="Mama Mboga Traders Limited")
    ).json()
    assert result["data"]["aml"]["status"] == "CLEAR"
    assert {lst["code"] for lst in result["data"]["aml"]["lists"]} >= {"us_ofac_sdn"}


async def test_live_check_without_any_list_is_refused_and_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=PRICE)
    response = await screen(client, "pep", account.headers, name="Grace Wanjiru")
    assert response.status_code == 503
    assert "pep" in response.json()["message"]
    assert await debit_count(db, account.org_id) == 0
    # With one check available the screening runs and says which check did not.
    result = (await screen(client, "individual", account.headers, name="Grace Wanjiru")).json()
    assert [u["check"] for u in result["data"]["aml"]["unavailable"]] == ["pep"]
    assert "Not performed: pep" in result["message"]


async def test_live_short_wallet_is_402(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=PRICE - 1)
    response = await screen(client, "sanction", account.headers, name="Abubakar Shekau")
    assert response.status_code == 402
    assert response.json()["error"] == "insufficient_funds"
    assert await debit_count(db, account.org_id) == 0


# --- validation and access ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("sanction", {}, "name"),
        ("pep", {"middle_name": "Ali"}, "name"),
        ("business", {}, "name"),
        ("aml", {"name": "X", "subject_type": "ship"}, "subject_type"),
        ("aml", {"name": "X", "checks": ["fraud"]}, "checks.0"),
        ("individual", {"name": "X", "birth_date": "12/05/1980"}, "birth_date"),
        ("pep", {"name": "X", "limit": 500}, "limit"),
        ("pep", {"name": "X", "nationality": "KE"}, "nationality"),
    ],
)
async def test_bad_requests_name_the_field(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    body: dict[str, Any],
    field: str,
) -> None:
    account = await make_account("sandbox")
    response = await screen(client, path, account.headers, **body)
    assert response.status_code == 400, response.text
    assert field in [d["field"] for d in response.json()["details"]]


async def test_screening_needs_its_scope(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["identity:read"])
    response = await screen(client, "aml", account.headers, name="Sandbox Sanction Person")
    assert response.status_code == 403
    assert response.json()["error"] == "insufficient_scope"
