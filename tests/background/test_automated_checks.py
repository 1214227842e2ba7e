"""The automated checks run the other domains' own sandbox engines on what the candidate
gave: identity (KYC channel, names and date of birth), sanctions and PEP, adverse media
(screening), fraud database (id-scan's rules), tax compliance (the tax PIN check) and
directorships (KYB ownership). Both a clear candidate and one every check should question."""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.core.runtime import Runtime
from tests.background.helpers import PDF, candidate, invite, open_form, post_form, request_of, until
from tests.conftest import AccountFactory

BASE = "/v3/background/candidates"
FILES = {
    "police_clearance": ("pcc.pdf", PDF, "application/pdf"),
    "certificate": ("degree.pdf", PDF, "application/pdf"),
}
FORM = {
    "id_number": "20000000",
    "date_of_birth": "1990-08-23",
    "tax_pin": "A000000000W",
    "company_numbers": "PVT-KYB00000",
    "institution": "University of Nairobi, BCom",
    "employer": "Mlima Fresh Produce, finance officer",
    "consent": "yes",
}


async def _automated_results(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    headers: dict[str, str],
    person: dict[str, Any],
    form: dict[str, str],
) -> dict[str, dict[str, Any]]:
    made = await invite(client, headers, "spk_ke_financial_services_staff", person)
    request = made.json()["data"]["requests"][0]
    _page, csrf = await open_form(visitor, request["invitation_url"])
    sent = await post_form(visitor, request["invitation_url"], csrf, form, FILES)
    assert sent.status_code == 200, sent.text

    async def ran() -> dict[str, dict[str, Any]] | None:
        got = request_of(
            (await client.get(f"{BASE}/{request['reference']}", headers=headers)).json()
        )
        automated = {c["code"]: c for c in got["checks"] if c["kind"] == "automated"}
        done = all(c["status"] == "completed" for c in automated.values())
        return automated if done else None

    results: dict[str, dict[str, Any]] = await until(ran, what="the automated checks")
    return results


async def test_a_clear_candidate(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
) -> None:
    headers = (await make_account()).headers
    checks = await _automated_results(client, visitor, headers, candidate("c@example.com"), FORM)
    assert set(checks) == {
        "identity",
        "sanctions_pep",
        "adverse_media",
        "fraud_database",
        "tax_compliance",
        "directorships",
    }
    assert {code: c["result"] for code, c in checks.items()} == dict.fromkeys(checks, "clear")
    assert checks["identity"]["evidence"]["date_of_birth_match"] is True
    assert checks["tax_compliance"]["evidence"]["pin_status"] == "Active"
    company = checks["directorships"]["evidence"]["companies"][0]
    assert company["candidate_is_director"] is True
    assert company["company_name"] == "Mlima Fresh Produce Limited"
    assert checks["sanctions_pep"]["evidence"]["hits"] == []


async def test_a_candidate_every_check_questions(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
) -> None:
    headers = (await make_account()).headers
    person = candidate("q@example.com", first_name="Juma", last_name="Mwangi")
    form = {
        **FORM,
        "id_number": "20000005",  # last digit 5: not in the register
        "tax_pin": "A000000004W",  # last digit 4: registered but suspended
        "company_numbers": "PVT-KYB00000, PVT-KYB00005",  # not a director; not found
    }
    checks = await _automated_results(client, visitor, headers, person, form)
    assert checks["identity"]["result"] == "consider"
    assert checks["identity"]["evidence"]["found"] is False
    assert checks["tax_compliance"]["result"] == "consider"
    assert checks["tax_compliance"]["evidence"]["pin_status"] == "Suspended"
    companies = checks["directorships"]["evidence"]["companies"]
    assert checks["directorships"]["result"] == "consider"
    assert companies[0]["candidate_is_director"] is False and companies[1]["found"] is False
