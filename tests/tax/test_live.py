"""The tax endpoints with live keys against the fake GavaConnect, on SQLite and PostgreSQL:
verdicts and their charges, outages (02, not charged), refused credentials (09, not charged),
slow registries (PENDING, then the look-up or the job finishes it, with a webhook and, when it
ends without an answer, a refund), countries without a provider (503), idempotency."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.tax.providers.gavaconnect import Credentials, GavaConnectProvider
from hakiki.tax.providers.registry import TaxProviders
from tests.conftest import AccountFactory, debit_count
from tests.kyc.helpers import events_for, ledger_kinds, run_job_now
from tests.tax.fake_gavaconnect import (
    CONSUMER_KEY,
    ID_FOUND,
    PIN_ACTIVE,
    PIN_INDIVIDUAL,
    PIN_SUSPENDED,
    PIN_UNKNOWN,
    TCC_EXPIRED,
    TCC_OTHER_PIN,
    TCC_VALID,
    WHT_FOUND,
    FakeGavaConnect,
    FaultMode,
)
from tests.tax.helpers import completion_job, post, status, stored_rows, wait_final

PRICES = {"pin": 300, "tcc": 500, "withholding": 500}
WHT = {
    "country_code": "KE",
    "certificate_number": WHT_FOUND,
    "withholder_pin": PIN_ACTIVE,
    "payee_pin": PIN_INDIVIDUAL,
}


@pytest.fixture
def providers(runtime: Runtime) -> Iterator[TaxProviders]:
    """The app's tax providers, put back after a test that swaps them."""
    held = runtime.part(TaxProviders)
    yield held
    runtime.add_part(held)


async def test_pin_found_is_charged_once_and_pollable(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_gava: FakeGavaConnect,
) -> None:
    account = await make_account("live", balance=10_000)
    body = (await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)).json()
    assert (body["status"], body["response_code"], body["live"]) == ("VERIFIED", "00", True)
    assert body["provider"] == "kra-gavaconnect" and body["reference"].startswith("ref_")
    assert body["data"]["taxpayer"] == {
        "pin": PIN_ACTIVE,
        "name": "T. AN 052318TEST NA NA",
        "type": "non_individual",
        "pin_status": "active",
    }
    assert body["billing"]["charged"] is True and body["billing"]["amount"] == PRICES["pin"]
    assert await debit_count(db, account.org_id) == 1
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["billing"]["transaction_id"] == body["billing"]["transaction_id"]
    assert polled["data"] == body["data"]


async def test_verdicts_that_are_billed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_gava: FakeGavaConnect,
) -> None:
    account = await make_account("live", balance=10_000)
    cases = [
        ("pin", {"pin": PIN_SUSPENDED}, "VERIFIED", "inactive"),
        ("pin", {"pin": PIN_UNKNOWN}, "NOT_FOUND", "not_found"),
        ("pin", {"national_id": ID_FOUND, "pin": PIN_INDIVIDUAL}, "VERIFIED", "valid"),
        ("pin", {"national_id": ID_FOUND, "pin": PIN_ACTIVE}, "MISMATCH", "mismatch"),
        ("pin", {"national_id": "11111111"}, "NOT_FOUND", "not_found"),
        ("tcc", {"pin": PIN_INDIVIDUAL, "certificate_number": TCC_VALID}, "VERIFIED", "valid"),
        ("tcc", {"pin": PIN_ACTIVE, "certificate_number": TCC_EXPIRED}, "VERIFIED", "expired"),
        (
            "tcc",
            {"pin": PIN_INDIVIDUAL, "certificate_number": TCC_OTHER_PIN},
            "MISMATCH",
            "mismatch",
        ),
        (
            "tcc",
            {"pin": PIN_INDIVIDUAL, "certificate_number": "KRAEON0000000099"},
            "NOT_FOUND",
            "not_found",
        ),
        ("withholding", WHT, "VERIFIED", "valid"),
        ("withholding", {**WHT, "payee_pin": PIN_SUSPENDED}, "MISMATCH", "mismatch"),
        ("withholding", {**WHT, "withholder_pin": PIN_SUSPENDED}, "NOT_FOUND", "not_found"),
    ]
    spent = 0
    for check, fields, outcome, verdict in cases:
        body = (
            await post(client, check, account.headers, **{"country_code": "KE", **fields})
        ).json()
        assert (body["status"], body["data"]["verdict"]) == (outcome, verdict), (fields, body)
        assert body["billing"] == {**body["billing"], "charged": True, "amount": PRICES[check]}
        spent += PRICES[check]
    assert await debit_count(db, account.org_id) == len(cases)
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["available"] == 10_000 - spent


async def test_expired_certificate_carries_its_expiry_date(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_gava: FakeGavaConnect
) -> None:
    account = await make_account("live", balance=10_000)
    body = (
        await post(
            client,
            "tcc",
            account.headers,
            country_code="KE",
            pin=PIN_ACTIVE,
            certificate_number=TCC_EXPIRED,
        )
    ).json()
    certificate = body["data"]["certificate"]
    # The fake wrote dd/mm/yyyy, 35 days ago; the answer carries it as an ISO date.
    assert date.fromisoformat(certificate["expiry_date"]) == date.today() - timedelta(days=35)
    assert body["message"] == f"The certificate expired on {certificate['expiry_date']}."
    withheld = (await post(client, "withholding", account.headers, **WHT)).json()
    assert withheld["data"]["certificate"]["gross_amount"] == 15_000_000
    assert withheld["data"]["certificate"]["currency"] == "KES"


@pytest.mark.parametrize(
    "mode",
    [FaultMode.HTTP_503, FaultMode.GARBAGE, FaultMode.UNEXPECTED_JSON, FaultMode.TOKEN_DOWN],
)
async def test_outages_are_free_soft_errors(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_gava: FakeGavaConnect,
    mode: FaultMode,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_gava.set_mode(mode)
    fake_gava.expire_tokens()  # so a new token is needed (the token endpoint may be the one down)
    body = (
        await post(
            client,
            "tcc",
            account.headers,
            country_code="KE",
            pin=PIN_INDIVIDUAL,
            certificate_number=TCC_VALID,
        )
    ).json()
    assert (body["response_code"], body["status"], body["soft_error"], body["ok"]) == (
        "02", "SOURCE_UNAVAILABLE", True, False,
    )  # fmt: skip
    assert body["billing"]["charged"] is False and body["data"]["state"] == "failed"
    assert body["data"]["verdict"] is None and body["data"]["certificate"] is None
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["available"] == 10_000  # the hold was released


async def test_refused_credentials_are_free_failures(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    providers: TaxProviders,
    fake_gava: FakeGavaConnect,
) -> None:
    refused = GavaConnectProvider(
        fake_gava.base_url, 1.0, credentials=Credentials(CONSUMER_KEY, "not-the-secret")
    )
    runtime.add_part(TaxProviders([refused]))
    account = await make_account("live", balance=10_000)
    try:
        body = (
            await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)
        ).json()
    finally:
        await refused.aclose()
    assert (body["response_code"], body["status"], body["billing"]["charged"]) == (
        "09",
        "FAILED",
        False,
    )
    assert fake_gava.requests == []  # the checker was never called
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}


async def test_an_expired_token_is_renewed_within_the_call(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_gava: FakeGavaConnect
) -> None:
    account = await make_account("live", balance=10_000)
    await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)
    fake_gava.expire_tokens()
    body = (await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)).json()
    assert body["status"] == "VERIFIED"
    assert fake_gava.token_requests >= 1


@pytest.mark.parametrize(
    ("check", "fields", "says"),
    [
        ("pin", {"country_code": "UG", "pin": "1000000000"}, "URA publishes no API"),
        ("pin", {"country_code": "TZ", "pin": "100-000-000"}, "TRA publishes no API"),
        (
            "tcc",
            {"country_code": "UG", "pin": "1000000000", "certificate_number": "URA0000001"},
            "URA",
        ),
    ],
)
async def test_countries_without_a_provider_are_503_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    check: str,
    fields: dict[str, str],
    says: str,
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(client, check, account.headers, **fields)
    assert response.status_code == 503 and response.json()["error"] == "channel_unavailable"
    assert (
        says in response.json()["message"] and "Nothing was charged" in response.json()["message"]
    )
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}


async def test_withholding_without_a_configured_checker_is_503(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    providers: TaxProviders,
    fake_gava: FakeGavaConnect,
) -> None:
    pathless = GavaConnectProvider(
        fake_gava.base_url, 1.0, credentials=Credentials(CONSUMER_KEY, "unused")
    )
    runtime.add_part(TaxProviders([pathless]))
    account = await make_account("live", balance=10_000)
    response = await post(client, "withholding", account.headers, **WHT)
    await pathless.aclose()
    assert response.status_code == 503
    assert "HAKIKI_GAVACONNECT_WITHHOLDING_PATH" in response.json()["message"]
    runtime.add_part(TaxProviders([]))
    unconfigured = await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)
    assert unconfigured.status_code == 503
    assert "no GavaConnect credentials" in unconfigured.json()["message"]


async def test_a_short_wallet_is_402_before_the_registry(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_gava: FakeGavaConnect
) -> None:
    account = await make_account("live", balance=100)
    response = await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)
    assert response.status_code == 402 and response.json()["error"] == "insufficient_funds"
    assert fake_gava.requests == []


async def test_an_idempotent_retry_is_never_charged_twice(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_gava: FakeGavaConnect,
) -> None:
    account = await make_account("live", balance=10_000)
    headers = {**account.headers, "Idempotency-Key": "tax-live-1"}
    body = {"country_code": "KE", "pin": PIN_INDIVIDUAL, "certificate_number": TCC_VALID}
    first = await client.post("/v3/tax/tcc", json=body, headers=headers)
    second = await client.post("/v3/tax/tcc", json=body, headers=headers)
    assert second.headers["idempotent-replayed"] == "true" and second.content == first.content
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_gava.requests) == 1  # the replay never reached the registry
    # A retry of a call that was not charged (an outage) may run again and be charged then.
    fake_gava.set_mode(FaultMode.HTTP_503)
    retry_headers = {**account.headers, "Idempotency-Key": "tax-live-2"}
    failed = (
        await client.post(
            "/v3/tax/pin", json={"country_code": "KE", "pin": PIN_ACTIVE}, headers=retry_headers
        )
    ).json()
    assert failed["response_code"] == "02"
    fake_gava.set_mode(FaultMode.NORMAL)
    replayed = await client.post(
        "/v3/tax/pin", json={"country_code": "KE", "pin": PIN_ACTIVE}, headers=retry_headers
    )
    assert replayed.json()["response_code"] == "02"  # a 200 answer is stored and replayed as is
    assert await debit_count(db, account.org_id) == 1


async def test_slow_registry_answers_pending_then_completes_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_gava: FakeGavaConnect,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "tax_sync_seconds", 0.1)
    account = await make_account("live", balance=10_000)
    await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)  # a token first
    fake_gava.set_mode(FaultMode.SLOW, slow_seconds=0.5)  # within the 1 s provider timeout
    body = (await post(client, "pin", account.headers, country_code="KE", pin=PIN_ACTIVE)).json()
    assert (body["status"], body["response_code"], body["async_pending"]) == ("PENDING", "05", True)
    assert body["data"]["state"] == "pending" and body["billing"]["charged"] is True
    final = await wait_final(client, account.headers, body["reference"])
    assert (final["status"], final["data"]["verdict"]) == ("VERIFIED", "valid")
    assert final["billing"]["transaction_id"] == body["billing"]["transaction_id"]
    job = await completion_job(db, account.org_id, body["reference"])
    assert (await run_job_now(db, job["id"]))["status"] == "succeeded"  # finds it final
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 2}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert (event["type"], event["data"]["status"], event["data"]["verdict"]) == (
        "verification.completed", "VERIFIED", "valid",
    )  # fmt: skip


async def test_the_job_finishes_what_the_timed_out_lookup_could_not(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_gava: FakeGavaConnect,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "tax_sync_seconds", 0.1)
    fake_gava.set_mode(FaultMode.SLOW, slow_seconds=1.5)  # beyond the 1 s provider timeout
    account = await make_account("live", balance=10_000)
    request = {"country_code": "KE", "pin": PIN_INDIVIDUAL, "certificate_number": TCC_VALID}
    body = (await post(client, "tcc", account.headers, **request)).json()
    assert body["status"] == "PENDING"
    job = await completion_job(db, account.org_id, body["reference"])
    fake_gava.set_mode(FaultMode.HTTP_503)
    assert (await run_job_now(db, job["id"]))["status"] == "queued"  # still down: retried later
    assert (await status(client, account.headers, body["reference"])).json()["status"] == "PENDING"
    fake_gava.set_mode(FaultMode.NORMAL)
    assert (await run_job_now(db, job["id"]))["status"] == "succeeded"
    final = (await status(client, account.headers, body["reference"])).json()
    assert (final["status"], final["data"]["verdict"], final["data"]["state"]) == (
        "VERIFIED", "valid", "completed",
    )  # fmt: skip
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert event["type"] == "verification.completed"


async def test_pending_that_ends_unavailable_is_refunded_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_gava: FakeGavaConnect,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "tax_sync_seconds", 0.1)
    fake_gava.set_mode(FaultMode.SLOW, slow_seconds=1.5)
    account = await make_account("live", balance=10_000)
    body = (
        await post(client, "pin", account.headers, country_code="KE", national_id=ID_FOUND)
    ).json()
    assert body["status"] == "PENDING" and body["billing"]["charged"] is True
    fake_gava.set_mode(FaultMode.HTTP_503)
    job = await completion_job(db, account.org_id, body["reference"])
    assert (await run_job_now(db, job["id"], last_attempt=True))["status"] == "succeeded"
    final = (await status(client, account.headers, body["reference"])).json()
    assert (final["status"], final["data"]["state"]) == ("SOURCE_UNAVAILABLE", "failed")
    assert final["billing"]["reversal_transaction_id"]
    assert await ledger_kinds(db, account.org_id) == {"credit": 1, "debit": 1, "reversal": 1}
    [event] = await events_for(db, account.org_id, body["reference"])
    assert event["type"] == "verification.failed"
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["available"] == 10_000


async def test_what_is_stored_is_encrypted(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_gava: FakeGavaConnect,
) -> None:
    account = await make_account("live", balance=10_000)
    await post(
        client, "pin", account.headers, country_code="KE", national_id=ID_FOUND, pin=PIN_INDIVIDUAL
    )
    [row] = await stored_rows(db, account.org_id)
    stored = " ".join(str(value) for value in row.values())
    for secret in (ID_FOUND, PIN_INDIVIDUAL, "BANYI02"):
        assert secret not in stored
