"""Nigeria's TIN with two providers (Prembly, then Dojah, as the deployment orders them), each a
local fake of its documented API with injected outages: outage, slowness, garbage and refused
credentials fall back to Dojah, which the answer names; a definite not-found never falls back;
both down is a free 02; the breaker opens, skips, half-opens and closes, on /readyz, the
channels endpoint and the console; the wallet is charged once per call. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import pytest_asyncio

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.tax.providers.base import LookupOutcome, TaxpayerRecord, TaxQuery
from hakiki.tax.providers.dojah_tin import DojahTinProvider
from hakiki.tax.providers.registry import TaxProviders
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_dojah import TIN_COMPANY, TIN_ONLY_AT_DOJAH, FakeDojah
from tests.identity.providers.fake_dojah import FaultMode as DojahFault
from tests.support.breakers import COOL_DOWN, Clock, board
from tests.tax.fake_prembly_tin import API_KEY, APP_ID, COMPANY_NAME, FakePremblyTin, Mode
from tests.tax.helpers import post, status, wait_final

UseTax = Callable[..., TaxProviders]


@pytest_asyncio.fixture
async def use_tax(
    runtime: Runtime, fake_tin: FakePremblyTin, fake_dojah: FakeDojah
) -> AsyncIterator[tuple[UseTax, Clock]]:
    """``use(order={...}, failures=2)``: the app's tax providers built from its settings with
    Prembly and Dojah pointed at their fakes, the order and breaker given, on a test clock."""
    original = runtime.part(TaxProviders)
    built: list[TaxProviders] = []
    clock = Clock()

    def use(order: dict[str, list[str]] | None = None, failures: int = 2) -> TaxProviders:
        settings = runtime.settings.model_copy(
            update={
                "prembly_app_id": APP_ID,
                "prembly_api_key": API_KEY,
                "prembly_base_url": fake_tin.base_url,
                "dojah_app_id": fake_dojah.app_id,
                "dojah_secret_key": fake_dojah.secret_key,
                "dojah_base_url": fake_dojah.base_url,
                "provider_order": order or {},
                "provider_timeout_seconds": 0.5,
            }
        )
        providers = TaxProviders.from_settings(settings)
        providers.breakers = board(clock, failures)
        built.append(providers)
        runtime.add_part(providers)
        return providers

    use()
    yield use, clock
    runtime.add_part(original)
    for providers in built:
        await providers.aclose()


async def check(client: httpx.AsyncClient, headers: dict[str, str], tin: str) -> dict[str, Any]:
    response = await post(client, "pin", headers, country_code="NG", pin=tin)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def ng_tin_providers(client: httpx.AsyncClient, headers: dict[str, str]) -> list[dict]:
    body = (
        await client.get("/v3/screening/channels", params={"page_size": 100}, headers=headers)
    ).json()
    (tin,) = [
        c
        for c in body["registry_checks"]
        if (c["category"], c["country"], c["check"]) == ("tax", "NG", "pin")
    ]
    providers: list[dict] = tin["live_providers"]
    return providers


# ---------------------------------------------------------------------- the Dojah adapter


@pytest.fixture
async def dojah_tin(fake_dojah: FakeDojah) -> AsyncIterator[DojahTinProvider]:
    provider = DojahTinProvider(fake_dojah.app_id, fake_dojah.secret_key, fake_dojah.base_url, 0.5)
    yield provider
    await provider.aclose()


def tin(number: str) -> TaxQuery:
    return TaxQuery("pin", "NG", pin="".join(ch for ch in number if ch.isdigit()))


async def test_dojah_finds_a_tin_as_documented(
    dojah_tin: DojahTinProvider, fake_dojah: FakeDojah
) -> None:
    result = await dojah_tin.lookup(tin(TIN_COMPANY))
    assert (result.outcome, result.provider) == (LookupOutcome.FOUND, "dojah")
    assert result.record == TaxpayerRecord("203047530001", COMPANY_NAME, "Non Individual", None)
    sent = fake_dojah.last_request
    assert (sent.path, sent.query) == ("/api/v1/kyc/tin", {"tin": TIN_COMPANY})
    assert sent.headers["appid"] == fake_dojah.app_id
    assert sent.headers["authorization"] == fake_dojah.secret_key  # the key itself, no Bearer
    person = await dojah_tin.lookup(tin(TIN_ONLY_AT_DOJAH))
    assert person.record is not None and person.record.taxpayer_type is None  # CAC_Reg_No N/A
    missing = await dojah_tin.lookup(tin("1111111111"))
    assert missing.outcome is LookupOutcome.NOT_FOUND


@pytest.mark.parametrize(
    ("fault", "outcome"),
    [
        (DojahFault.HTTP_503, LookupOutcome.UNAVAILABLE),
        (DojahFault.FAILED_DEPENDENCY, LookupOutcome.UNAVAILABLE),
        (DojahFault.SLOW, LookupOutcome.UNAVAILABLE),
        (DojahFault.GARBAGE, LookupOutcome.UNAVAILABLE),
        (DojahFault.UNEXPECTED_JSON, LookupOutcome.UNAVAILABLE),
        (DojahFault.UNAUTHORIZED, LookupOutcome.FAILED),
        (DojahFault.PAYMENT_REQUIRED, LookupOutcome.FAILED),
    ],
)
async def test_dojah_failures_are_outcomes_never_exceptions(
    dojah_tin: DojahTinProvider,
    fake_dojah: FakeDojah,
    fault: DojahFault,
    outcome: LookupOutcome,
) -> None:
    fake_dojah.set_mode(fault, slow_seconds=1.5)
    result = await dojah_tin.lookup(tin(TIN_COMPANY))
    assert result.outcome is outcome and result.record is None
    assert "203047530001" not in result.message and TIN_COMPANY not in result.message


# ---------------------------------------------------------------------- the chain, live


@pytest.mark.parametrize(
    "fault",
    [
        Mode.HTTP_503,  # outage
        Mode.SERVICE_DOWN,  # FIRS behind Prembly: response_code 02
        Mode.SLOW,  # past the timeout
        Mode.GARBAGE,  # HTTP 200, not JSON
        Mode.UNAUTHORIZED,  # refused credentials
        Mode.INSUFFICIENT_BALANCE,  # refused: Prembly wallet empty
    ],
)
async def test_a_prembly_failure_falls_back_to_dojah_and_is_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_tin: FakePremblyTin,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
    fault: Mode,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_tin.set_mode(fault, slow_seconds=1.5)
    body = await check(client, account.headers, TIN_COMPANY)
    assert (body["status"], body["response_code"], body["provider"]) == ("VERIFIED", "00", "dojah")
    assert body["data"]["taxpayer"]["name"] == COMPANY_NAME
    assert len(fake_tin.requests) == 1 and len(fake_dojah.requests) == 1
    assert body["billing"]["charged"] is True
    assert await debit_count(db, account.org_id) == 1
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["provider"] == "dojah"


async def test_not_found_is_an_answer_and_never_falls_back(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
) -> None:
    account = await make_account("live", balance=10_000)
    # Dojah holds a TIN Prembly says does not exist: still Prembly's answer, no second call.
    body = await check(client, account.headers, TIN_ONLY_AT_DOJAH)
    assert (body["status"], body["provider"]) == ("NOT_FOUND", "prembly")
    assert fake_dojah.requests == []
    assert await debit_count(db, account.org_id) == 1


async def test_both_down_is_free_and_says_what_each_did(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_tin: FakePremblyTin,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
) -> None:
    account = await make_account("live", balance=10_000)
    fake_tin.set_mode(Mode.HTTP_503)
    fake_dojah.set_mode(DojahFault.UNAUTHORIZED)
    body = await check(client, account.headers, TIN_COMPANY)
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert body["provider"] == "dojah" and body["billing"]["charged"] is False
    assert await debit_count(db, account.org_id) == 0
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (wallet["balance"], wallet["reserved"]) == (10_000, 0)


async def test_the_deployment_orders_the_providers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_tin: FakePremblyTin,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
) -> None:
    use, _ = use_tax
    account = await make_account("live", balance=10_000)
    assert [p["name"] for p in await ng_tin_providers(client, account.headers)] == [
        "prembly",
        "dojah",
    ]
    use(order={"tax:NG": ["dojah", "prembly"]})
    body = await check(client, account.headers, TIN_COMPANY)
    assert body["provider"] == "dojah" and fake_tin.requests == []
    assert [
        (p["name"], p["position"]) for p in await ng_tin_providers(client, account.headers)
    ] == [
        ("dojah", 1),
        ("prembly", 2),
    ]
    use(order={"tax": ["prembly"]})  # one provider: no fallback
    fake_tin.set_mode(Mode.HTTP_503)
    body = await check(client, account.headers, TIN_COMPANY)
    assert (body["status"], body["provider"]) == ("SOURCE_UNAVAILABLE", "prembly")
    assert len(fake_dojah.requests) == 1  # the first call only


async def test_the_breaker_opens_skips_half_opens_and_closes(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_tin: FakePremblyTin,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
) -> None:
    _, clock = use_tax
    account = await make_account("live", balance=20_000)
    fake_tin.set_mode(Mode.HTTP_503)
    for _ in range(2):  # the threshold
        assert (await check(client, account.headers, TIN_COMPANY))["provider"] == "dojah"
    ready = (await client.get("/readyz")).json()
    assert ready["providers"]["tax"]["prembly"]["state"] == "open"
    assert ready["providers"]["tax"]["prembly"]["retry_in_seconds"] == COOL_DOWN
    assert ready["providers"]["tax"]["dojah"]["state"] == "closed"
    assert ready["providers"]["identity"]["prembly"]["state"] == "closed"  # its own breaker
    states = await ng_tin_providers(client, account.headers)
    assert [(p["name"], p["state"]) for p in states] == [("prembly", "open"), ("dojah", "closed")]

    fake_tin.set_mode(Mode.NORMAL)  # back, but the breaker skips it until the cool-down ends
    assert (await check(client, account.headers, TIN_COMPANY))["provider"] == "dojah"
    assert len(fake_tin.requests) == 2

    clock.now += COOL_DOWN
    assert (await ng_tin_providers(client, account.headers))[0]["state"] == "half_open"
    assert (await check(client, account.headers, TIN_COMPANY))["provider"] == "prembly"
    assert (await ng_tin_providers(client, account.headers))[0]["state"] == "closed"
    assert await debit_count(db, account.org_id) == 4  # four calls, four answers, four debits


async def test_every_breaker_open_is_a_free_02_without_a_call(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_tin: FakePremblyTin,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
) -> None:
    use, _ = use_tax
    use(failures=1)
    account = await make_account("live", balance=10_000)
    fake_tin.set_mode(Mode.GARBAGE)
    fake_dojah.set_mode(DojahFault.SLOW, slow_seconds=1.5)
    await check(client, account.headers, TIN_COMPANY)
    body = await check(client, account.headers, TIN_COMPANY)
    assert (body["status"], body["response_code"], body["provider"]) == (
        "SOURCE_UNAVAILABLE", "02", "prembly",
    )  # fmt: skip
    assert "circuit open" in body["message"] or body["data"]
    assert len(fake_tin.requests) == 1 and len(fake_dojah.requests) == 1
    assert await debit_count(db, account.org_id) == 0


async def test_a_pending_check_finished_by_the_fallback_names_it(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    fake_tin: FakePremblyTin,
    fake_dojah: FakeDojah,
    use_tax: tuple[UseTax, Clock],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "tax_sync_seconds", 0.1)
    account = await make_account("live", balance=10_000)
    fake_tin.set_mode(Mode.SLOW, slow_seconds=1.5)  # past the 0.5 s provider timeout
    body = await check(client, account.headers, TIN_COMPANY)
    assert (body["status"], body["provider"]) == ("PENDING", "prembly")  # the one expected
    final = await wait_final(client, account.headers, body["reference"])
    assert (final["status"], final["provider"]) == ("VERIFIED", "dojah")
    assert final["data"]["taxpayer"]["name"] == COMPANY_NAME
    assert await debit_count(db, account.org_id) == 1
