"""Live automated checks against the identity provider's fake (a local server speaking
Prembly's API): a found identity is clear and charged once; an outage or garbage is
`unverifiable` and not charged, and the request still completes."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.background.helpers import (
    candidate,
    invite,
    open_form,
    post_form,
    status_becomes,
    wallet_of,
)
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_prembly import NIN_FOUND, FakePrembly

PACKAGE = {"name": "NG identity", "country_code": "NG", "check_types": ["identity"]}
FORM = {"id_number": NIN_FOUND, "date_of_birth": "1985-05-15", "consent": "yes"}


async def _submitted_request(
    client: httpx.AsyncClient, visitor: httpx.AsyncClient, headers: dict[str, str]
) -> str:
    made = await client.post("/v3/background/packages", json=PACKAGE, headers=headers)
    assert made.status_code == 201, made.text
    person = candidate("emeka@example.com", first_name="Emeka", last_name="Okonkwo")
    invited = await invite(client, headers, made.json()["id"], person)
    request = invited.json()["data"]["requests"][0]
    _page, csrf = await open_form(visitor, request["invitation_url"])
    sent = await post_form(visitor, request["invitation_url"], csrf, FORM)
    assert sent.status_code == 200, sent.text
    reference: str = request["reference"]
    return reference


async def test_a_found_identity_is_clear_and_charged_once(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    fake_prembly: FakePrembly,
) -> None:
    account = await make_account("live", balance=10_000)
    reference = await _submitted_request(client, visitor, account.headers)
    done = await status_becomes(client, account.headers, reference, "completed")
    identity = done["checks"][0]
    assert identity["result"] == "clear" and identity["charged"] is True
    assert identity["evidence"]["provider"] == "prembly"
    assert identity["evidence"]["name_match"] is True
    assert fake_prembly.last_request.path.endswith("/verification/vnin")
    assert await debit_count(db, account.org_id) == 1
    wallet = await wallet_of(db, account.org_id)
    assert wallet["balance"] == 8_000 and wallet["reserved"] == 0


@pytest.mark.parametrize("fault", ["http_503", "garbage", "service_down"])
async def test_an_upstream_fault_is_unverifiable_and_free(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
    fake_prembly: FakePrembly,
    fault: str,
) -> None:
    fake_prembly.set_mode(fault)
    account = await make_account("live", balance=10_000)
    reference = await _submitted_request(client, visitor, account.headers)
    done = await status_becomes(client, account.headers, reference, "completed")
    identity = done["checks"][0]
    assert identity["result"] == "unverifiable" and identity["charged"] is False
    assert done["result"] == "unverifiable" and done["charged_amount"] == 0
    assert await debit_count(db, account.org_id) == 0
    wallet = await wallet_of(db, account.org_id)
    assert wallet["balance"] == 10_000 and wallet["reserved"] == 0


async def test_sanctions_and_pep_without_a_pep_list_is_unverifiable_never_clear(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
) -> None:
    """The bundled lists hold no PEP list: the sanctions and PEP check did not run in full, so
    it is not reported clear (issue 34, honest outcomes)."""
    account = await make_account("live", balance=10_000)
    package = {**PACKAGE, "name": "NG sanctions and PEP", "check_types": ["sanctions_pep"]}
    made = await client.post("/v3/background/packages", json=package, headers=account.headers)
    assert made.status_code == 201, made.text
    person = candidate("amina@example.com", first_name="Amina", last_name="Wanjiku")
    invited = await invite(client, account.headers, made.json()["id"], person)
    request = invited.json()["data"]["requests"][0]
    _page, csrf = await open_form(visitor, request["invitation_url"])
    sent = await post_form(visitor, request["invitation_url"], csrf, FORM)
    assert sent.status_code == 200, sent.text
    done = await status_becomes(client, account.headers, request["reference"], "completed")
    [check] = done["checks"]
    assert check["code"] == "sanctions_pep"
    assert check["result"] == "unverifiable" and check["charged"] is False
    assert "No pep list is loaded" in check["evidence"]["reason"]
    assert await debit_count(db, account.org_id) == 0
