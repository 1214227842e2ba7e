"""The credit bureau check: available where a bureau answers (sandbox keys: KE and NG;
live keys: where the server has the bureau's credentials; UG and TZ never), run against the
sandbox bureau and the fake Metropol and FirstCentral servers, charged once per check that
the bureau answered, its evidence counts without personal data; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.credit.providers.registry import CreditBureaus
from tests.background.helpers import (
    candidate,
    invite,
    open_form,
    post_form,
    status_becomes,
    wallet_of,
)
from tests.conftest import AccountFactory, debit_count
from tests.credit.fake_bureaus import (
    KE_CLEAN,
    KE_NPA,
    KE_UNKNOWN,
    NG_CLEAN,
    NG_LOST,
    FakeBureau,
    Mode,
)

BASE = "/v3/background"


def package(country: str = "KE", *codes: str) -> dict[str, Any]:
    return {
        "name": f"Credit {country} {'+'.join(codes)}",
        "country_code": country,
        "check_types": list(codes) or ["credit_bureau"],
    }


async def _credit_type(
    client: httpx.AsyncClient, headers: dict[str, str], country: str | None
) -> dict[str, Any]:
    params = {"country_code": country} if country else {}
    listed = await client.get(f"{BASE}/check-types", params=params, headers=headers)
    assert listed.status_code == 200, listed.text
    found: dict[str, Any] = next(c for c in listed.json()["data"] if c["code"] == "credit_bureau")
    return found


async def _run(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    headers: dict[str, str],
    id_number: str,
    country: str = "KE",
) -> dict[str, Any]:
    """A package of the credit check alone, one candidate who submits ``id_number``; the
    request once completed."""
    made = await client.post(f"{BASE}/packages", json=package(country), headers=headers)
    assert made.status_code == 201, made.text
    invited = await invite(client, headers, made.json()["id"], candidate())
    assert invited.status_code == 201, invited.text
    request = invited.json()["data"]["requests"][0]
    page, csrf = await open_form(visitor, request["invitation_url"])
    bureau = {"KE": "Metropol CRB", "NG": "FirstCentral Credit Bureau"}[country]
    assert f"Credit bureau: {bureau}" in page.text and "credit reference bureau" in page.text
    form = {"id_number": id_number, "consent": "yes"}
    sent = await post_form(visitor, request["invitation_url"], csrf, form)
    assert sent.status_code == 200, sent.text
    return await status_becomes(client, headers, request["reference"], "completed")


SUMMARY_KEYS = {
    "bureau",
    "found",
    "file",
    "accounts",
    "open_accounts",
    "non_performing_accounts",
    "max_days_past_due",
    "legal_cases",
    "fraud_flag",
    "flags",
    "retrieved_at",
}


def _no_personal_data(check: dict[str, Any], *secrets: str) -> None:
    """Counts and flags only: no number, amount, bureau score or lender."""
    evidence = check["evidence"]
    assert set(evidence) == SUMMARY_KEYS
    text = json.dumps(evidence)
    for secret in secrets:
        assert secret not in text


async def test_availability_per_country_and_key(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime: Runtime
) -> None:
    sandbox = (await make_account()).headers
    for country in ("KE", "NG"):
        credit = await _credit_type(client, sandbox, country)
        assert credit["available"] is True and credit["unavailable_reason"] is None
        assert credit["price"] == 5000 and credit["needs"] == ["id_number"]
    assert "Metropol" in (await _credit_type(client, sandbox, "KE"))["name"]
    for country in ("UG", "TZ"):
        credit = await _credit_type(client, sandbox, country)
        assert credit["available"] is False
        assert f"no credit bureau channel in {country}" in credit["unavailable_reason"]
        refused = await client.post(
            f"{BASE}/packages", json=package(country, "identity", "credit_bureau"), headers=sandbox
        )
        assert refused.status_code == 400
        assert refused.json()["details"][0]["field"] == "check_types.1"
    made = await client.post(f"{BASE}/packages", json=package("NG"), headers=sandbox)
    assert made.status_code == 201, made.text

    # Live, no bureau credentials on this server: listed unavailable, a package is a 400.
    assert runtime.part(CreditBureaus).items == []
    live = (await make_account("live", balance=10_000)).headers
    for country in ("KE", None):
        credit = await _credit_type(client, live, country)
        assert credit["available"] is False
        assert "no Metropol credentials" in credit["unavailable_reason"]
    refused = await client.post(f"{BASE}/packages", json=package("KE"), headers=live)
    assert refused.status_code == 400
    assert refused.json()["details"][0]["field"] == "check_types.0"
    assert "credit_bureau is unavailable" in refused.json()["details"][0]["problem"]
    made = await client.post(f"{BASE}/packages", json=package("KE", "identity"), headers=live)
    assert made.status_code == 201, made.text
    changed = await client.put(
        f"{BASE}/packages/{made.json()['id']}",
        json=package("KE", "identity", "credit_bureau"),
        headers=live,
    )
    assert changed.status_code == 400
    assert changed.json()["details"][0]["field"] == "check_types.1"


async def test_live_availability_follows_the_configured_bureaus(
    client: httpx.AsyncClient, make_account: AccountFactory, bureaus: CreditBureaus
) -> None:
    live = (await make_account("live", balance=10_000)).headers
    for country in ("KE", "NG", None):
        assert (await _credit_type(client, live, country))["available"] is True
    assert (await _credit_type(client, live, "UG"))["available"] is False
    made = await client.post(f"{BASE}/packages", json=package("KE"), headers=live)
    assert made.status_code == 201, made.text


@pytest.mark.parametrize(
    ("email", "result"),
    [("wanjiru+complete@example.com", "clear"), ("wanjiru+consider@example.com", "consider")],
)
async def test_sandbox_paths_run_with_the_credit_check(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    email: str,
    result: str,
) -> None:
    headers = (await make_account()).headers
    body = package("KE", "identity", "credit_bureau", "criminal_record")
    made = await client.post(f"{BASE}/packages", json=body, headers=headers)
    assert made.status_code == 201, made.text
    invited = await invite(client, headers, made.json()["id"], candidate(email))
    reference = invited.json()["data"]["requests"][0]["reference"]
    done = await status_becomes(client, headers, reference, "completed")
    assert done["result"] == result
    assert {c["code"] for c in done["checks"]} == {"identity", "credit_bureau", "criminal_record"}
    assert all(c["status"] == "completed" for c in done["checks"])
    assert done["charged_amount"] == 0


@pytest.mark.parametrize(
    ("number", "result", "flags"),
    [
        ("12345670", "clear", []),
        ("12345673", "clear", []),  # a thin file: nothing against the candidate
        ("12345674", "clear", []),  # 45 days past due: not yet 90
        (
            "12345676",
            "consider",
            ["non_performing_accounts", "arrears_over_90_days", "legal_cases"],
        ),
    ],
)
async def test_sandbox_bureau_files_map_to_results(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    number: str,
    result: str,
    flags: list[str],
) -> None:
    headers = (await make_account()).headers
    done = await _run(client, visitor, headers, number)
    credit = done["checks"][0]
    assert credit["result"] == result and done["result"] == result
    assert credit["evidence"]["bureau"] == "sandbox" and credit["evidence"]["flags"] == flags
    assert credit["charged"] is False
    _no_personal_data(credit, number)


@pytest.mark.parametrize("number", ["12345675", "12345678", "12345679", "ABC-12"])
async def test_sandbox_not_found_down_refused_or_bad_number_is_unverifiable(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    number: str,
) -> None:
    headers = (await make_account()).headers
    done = await _run(client, visitor, headers, number)
    assert done["checks"][0]["result"] == "unverifiable" and done["result"] == "unverifiable"


async def test_live_metropol_clean_file_is_clear_and_charged_once(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
) -> None:
    account = await make_account("live", balance=10_000)
    done = await _run(client, visitor, account.headers, KE_CLEAN)
    credit = done["checks"][0]
    assert credit["result"] == "clear" and credit["charged"] is True
    assert credit["evidence"]["bureau"] == "metropol"
    assert credit["evidence"]["accounts"] == 3 and credit["evidence"]["flags"] == []
    _no_personal_data(credit, KE_CLEAN)
    sent = [r for r in fake_metropol.state.requests if r["path"] == "/report/credit_info"]
    assert len(sent) == 1 and json.loads(sent[0]["body"])["identity_number"] == KE_CLEAN
    assert await debit_count(db, account.org_id) == 1
    wallet = await wallet_of(db, account.org_id)
    assert wallet["balance"] == 5_000 and wallet["reserved"] == 0
    assert done["charged_amount"] == 5_000


async def test_live_metropol_non_performing_and_fraud_is_consider(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
) -> None:
    account = await make_account("live", balance=10_000)
    done = await _run(client, visitor, account.headers, KE_NPA)
    credit = done["checks"][0]
    assert credit["result"] == "consider" and done["result"] == "consider"
    assert credit["evidence"]["flags"] == [
        "non_performing_accounts",
        "arrears_over_90_days",
        "fraud_flag",
    ]
    assert credit["evidence"]["non_performing_accounts"] == 1
    assert credit["evidence"]["max_days_past_due"] == 120
    _no_personal_data(credit, KE_NPA)
    assert await debit_count(db, account.org_id) == 1


async def test_live_metropol_unknown_number_is_unverifiable_and_charged(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
) -> None:
    account = await make_account("live", balance=10_000)
    done = await _run(client, visitor, account.headers, KE_UNKNOWN)
    credit = done["checks"][0]
    assert credit["result"] == "unverifiable" and credit["evidence"]["found"] is False
    assert credit["charged"] is True  # the bureau answered the enquiry, as POST /credit/bureau
    assert await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize("mode", [Mode.HTTP_503, Mode.GARBAGE, Mode.SLOW])
async def test_live_metropol_outage_is_unverifiable_and_free(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    bureaus: CreditBureaus,
    fake_metropol: FakeBureau,
    mode: Mode,
) -> None:
    fake_metropol.state.mode = mode
    account = await make_account("live", balance=10_000)
    done = await _run(client, visitor, account.headers, KE_CLEAN)
    credit = done["checks"][0]
    assert credit["result"] == "unverifiable" and credit["charged"] is False
    assert "reason" in credit["evidence"]
    assert done["charged_amount"] == 0 and await debit_count(db, account.org_id) == 0
    wallet = await wallet_of(db, account.org_id)
    assert wallet["balance"] == 10_000 and wallet["reserved"] == 0


async def test_live_bureau_gone_before_the_run_is_unverifiable_and_free(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    bureaus: CreditBureaus,
) -> None:
    account = await make_account("live", balance=10_000)
    made = await client.post(f"{BASE}/packages", json=package("KE"), headers=account.headers)
    assert made.status_code == 201
    invited = await invite(client, account.headers, made.json()["id"], candidate())
    request = invited.json()["data"]["requests"][0]
    _page, csrf = await open_form(visitor, request["invitation_url"])
    held = runtime.part(CreditBureaus)
    runtime.add_part(CreditBureaus([]))
    try:
        form = {"id_number": KE_CLEAN, "consent": "yes"}
        await post_form(visitor, request["invitation_url"], csrf, form)
        done = await status_becomes(client, account.headers, request["reference"], "completed")
    finally:
        runtime.add_part(held)
    credit = done["checks"][0]
    assert credit["result"] == "unverifiable" and credit["charged"] is False
    assert "no Metropol credentials" in credit["evidence"]["reason"]
    assert await debit_count(db, account.org_id) == 0


@pytest.mark.parametrize(("number", "result"), [(NG_CLEAN, "clear"), (NG_LOST, "consider")])
async def test_live_firstcentral_in_nigeria(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    bureaus: CreditBureaus,
    fake_firstcentral: FakeBureau,
    number: str,
    result: str,
) -> None:
    account = await make_account("live", balance=10_000)
    done = await _run(client, visitor, account.headers, number, country="NG")
    credit = done["checks"][0]
    assert credit["result"] == result and credit["evidence"]["bureau"] == "firstcentral"
    assert credit["charged"] is True and await debit_count(db, account.org_id) == 1
    _no_personal_data(credit, number)
