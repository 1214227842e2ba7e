"""GET /v3/kyb/status/{reference}: the KYB check a reference names, as it stands (sandbox and
live, a PENDING one until it is final, with what the webhook leaves out: the owners), 404 for
any other organisation's, environment's or category's reference, and odd references refused;
on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory
from tests.kyb.conftest import UseRegistries
from tests.kyb.fake_registries import KE_FOUND, FakeRegistries, FaultMode
from tests.kyb.helpers import ledger_kinds, post
from tests.support.registry_checks import check_row, get_status, wait_event, wait_final

KE = {"country_code": "KE", "registration_number": KE_FOUND}
TZ_PENDING = {"country_code": "TZ", "registration_number": "150000027"}  # last digit 7


def _same_answer(first: dict[str, Any], later: dict[str, Any]) -> bool:
    return {**first, "request_id": ""} == {**later, "request_id": ""}


async def test_a_sandbox_answer_is_served_again_as_it_was(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = {"country_code": "KE", "registration_number": "PVT-KYB00000"}
    for kind in ("business", "ownership"):
        answer = (await post(client, kind, account.headers, **body)).json()
        response = await get_status(client, "kyb", account.headers, answer["reference"])
        assert response.status_code == 200, response.text
        fetched = response.json()
        assert fetched["request_id"] != answer["request_id"]  # the status call's own
        assert _same_answer(answer, fetched), (kind, fetched)
        assert ("bods" in fetched["data"]) is (kind == "ownership")


async def test_a_sandbox_pending_check_is_fetched_completed_with_its_owners(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sandbox_pending_seconds", 0.2)
    account = await make_account("sandbox")
    first = (await post(client, "ownership", account.headers, **TZ_PENDING)).json()
    assert (first["status"], first["data"]["state"]) == ("PENDING", "pending")
    assert "/v3/kyb/status/" in first["message"]
    polled = (await get_status(client, "kyb", account.headers, first["reference"])).json()
    assert polled["status"] in ("PENDING", "VERIFIED")
    final = await wait_final(client, "kyb", account.headers, first["reference"])
    assert (final["status"], final["response_code"], final["async_pending"]) == (
        "VERIFIED", "00", False,
    )  # fmt: skip
    assert final["message"] == "Business found in the register."
    assert final["data"]["company"]["name"] == "Kilimanjaro Coffee Growers Limited"
    directors = [d["name"] for d in final["data"]["ownership"]["directors"]]
    assert "Sandbox Sanction Person" in directors  # the owners: in the status answer only
    event = await wait_event(db, account.org_id, first["reference"])
    assert "Sandbox Sanction Person" not in str(event["data"])
    assert final["billing"] == {
        "charged": False, "amount": 0, "currency": "KES", "transaction_id": None,
        "reversal_transaction_id": None,
    }  # fmt: skip
    row = await check_row(db, account.org_id, first["reference"])
    assert row is not None and (row["category"], row["endpoint"]) == ("kyb", "kyb.ownership")
    assert "Sandbox Sanction Person" not in row["data_encrypted"]
    assert "150000027" not in row["request_encrypted"]


async def test_a_live_pending_check_is_fetched_when_the_registry_answers(
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
    first = (await post(client, "ownership", account.headers, **KE)).json()
    assert first["status"] == "PENDING" and first["billing"]["charged"] is True
    final = await wait_final(client, "kyb", account.headers, first["reference"])
    assert (final["status"], final["live"], final["provider"]) == ("VERIFIED", True, "prembly")
    directors = [d["name"] for d in final["data"]["ownership"]["directors"]]
    assert "Abubakar Mohammed Shekau" in directors
    assert final["data"]["screening"]["status"] == "POTENTIAL_MATCH"
    billing = final["billing"]
    assert billing["transaction_id"] == first["billing"]["transaction_id"]
    assert (billing["amount"], billing["reversal_transaction_id"]) == (5000, None)
    assert len(fake_registries.calls("prembly")) == 1
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}  # status: free


async def test_a_live_pending_check_that_fails_shows_its_refund(
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
    first = (await post(client, "business", account.headers, **KE)).json()
    assert first["status"] == "PENDING"
    fake_registries.set_mode(FaultMode.UNAUTHORIZED)  # the slow answer is a refusal
    final = await wait_final(client, "kyb", account.headers, first["reference"])
    assert (final["status"], final["data"]["state"], final["ok"]) == ("FAILED", "failed", False)
    assert final["billing"]["charged"] is True
    assert final["billing"]["reversal_transaction_id"] is not None
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}


async def test_another_organisation_environment_or_category_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = (await post(client, "business", account.headers, **KE)).json()
    stranger = await make_account("sandbox")
    live = await make_account("live")
    for headers in (stranger.headers, live.headers):
        missing = await get_status(client, "kyb", headers, body["reference"])
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"
        assert "KYB check" in missing.json()["message"]
    tax = await client.post(
        "/v3/tax/pin", json={"country_code": "KE", "pin": "A000000000W"}, headers=account.headers
    )
    tax_reference = tax.json()["reference"]
    assert (await get_status(client, "tax", account.headers, tax_reference)).status_code == 200
    assert (await get_status(client, "kyb", account.headers, tax_reference)).status_code == 404
    vehicle = await get_status(client, "vehicle", account.headers, body["reference"])
    assert vehicle.status_code == 404


@pytest.mark.parametrize(
    ("reference", "status", "field"),
    [
        ("ref%00x", 400, "reference"),
        ("ref_%ED%A0%80", 404, None),  # an encoded surrogate: read as U+FFFD, so unknown
        ("ref_%FF%FE", 404, None),  # not UTF-8: likewise
        ("r" * 5000, 404, None),
        ("ref_%E2%9C%93", 404, None),
        ("%27%20OR%201%3D1--", 404, None),
        ("..%2F..%2Fv3%2Faccount%2Fwallet", 404, None),
    ],
)
async def test_odd_references_are_clear_4xxs(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    reference: str,
    status: int,
    field: str | None,
) -> None:
    account = await make_account("sandbox")
    response = await client.get(f"/v3/kyb/status/{reference}", headers=account.headers)
    assert response.status_code == status, response.text
    if field is not None:
        assert response.json()["details"][0]["field"] == field


async def test_the_scope_is_business_read(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    assert (await client.get("/v3/kyb/status/ref_x")).status_code == 401
    account = await make_account("sandbox", scopes=["tax:read"])
    response = await get_status(client, "kyb", account.headers, "ref_x")
    assert response.status_code == 403 and response.json()["error"] == "insufficient_scope"
