"""Provider fallback and circuit breakers through the app (aml-with-id and the KYC national-ID
endpoint for Nigeria), with two local fakes (Prembly, Dojah) and injected outages: outage,
slowness, garbage and refused credentials fall back; a definite not-found never does; the
breaker opens, short-circuits, half-opens after its cool-down and closes on success; the wallet
is charged once whatever the number of providers tried. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import pytest_asyncio

from hakiki.core.database import Database
from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy
from hakiki.core.runtime import Runtime
from hakiki.identity.providers.registry import Providers
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers import fake_prembly as prembly
from tests.identity.providers.fake_dojah import BVN_ONLY_AT_DOJAH, PHONE_FOUND, FakeDojah
from tests.identity.providers.fake_dojah import FaultMode as DojahFault
from tests.identity.providers.fake_prembly import BVN_FOUND, NOT_FOUND_BVN, FakePrembly
from tests.support.breakers import COOL_DOWN, Clock

URL = "/v3/screening/aml-with-id"
PRICE = 5000


UseChain = Callable[..., Providers]


@pytest_asyncio.fixture
async def use_chain(
    runtime: Runtime, fake_prembly: FakePrembly, fake_dojah: FakeDojah
) -> AsyncIterator[tuple[UseChain, Clock]]:
    """``use(order={...}, failures=2)``: the app's identity providers rebuilt from its settings
    with the fake Dojah added, the order and breaker given, and a clock the test moves."""
    original = runtime.part(Providers)
    built: list[Providers] = []
    clock = Clock()

    def use(order: dict[str, list[str]] | None = None, failures: int = 2) -> Providers:
        settings = runtime.settings.model_copy(
            update={
                "dojah_app_id": fake_dojah.app_id,
                "dojah_secret_key": fake_dojah.secret_key,
                "dojah_base_url": fake_dojah.base_url,
                "identity_provider_order": order or {},
                "provider_timeout_seconds": 0.5,
                "provider_breaker_failures": failures,
                "provider_breaker_cooldown_seconds": COOL_DOWN,
            }
        )
        providers = Providers.from_settings(settings)
        providers.breakers = BreakerBoard(
            BreakerPolicy(failures, COOL_DOWN), clock
        )  # the same policy, on the test's clock
        built.append(providers)
        runtime.add_part(providers)
        return providers

    use()
    yield use, clock
    runtime.add_part(original)
    for providers in built:
        await providers.aclose()


async def screen(client: httpx.AsyncClient, headers: dict[str, str], number: str) -> dict[str, Any]:
    response = await client.post(URL, json={"channel": "bvn", "number": number}, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def ng_bvn_providers(client: httpx.AsyncClient, headers: dict[str, str]) -> list[dict]:
    body = (
        await client.get("/v3/screening/channels", params={"page_size": 100}, headers=headers)
    ).json()
    (bvn,) = [c for c in body["data"] if (c["country"], c["code"]) == ("NG", "bvn")]
    providers: list[dict] = bvn["live_providers"]
    return providers


@pytest.mark.parametrize(
    "fault",
    [
        prembly.FaultMode.HTTP_503,  # outage
        prembly.FaultMode.SERVICE_DOWN,  # the registry behind Prembly: response_code 02
        prembly.FaultMode.SLOW,  # past the timeout
        prembly.FaultMode.GARBAGE,  # HTTP 200, not JSON
        prembly.FaultMode.UNAUTHORIZED,  # refused credentials
        prembly.FaultMode.INSUFFICIENT_BALANCE,  # refused: Prembly wallet empty
    ],
)
async def test_a_prembly_failure_falls_back_to_dojah_and_is_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
    fault: prembly.FaultMode,
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    fake_prembly.set_mode(fault, slow_seconds=1.5)
    body = await screen(client, account.headers, BVN_FOUND)
    assert (body["status"], body["response_code"], body["provider"]) == ("VERIFIED", "00", "dojah")
    assert body["data"]["identity"]["last_name"] == "Okafor-Nwosu"
    assert len(fake_prembly.requests) == 1 and len(fake_dojah.requests) == 1
    assert body["billing"]["charged"] is True
    assert await debit_count(db, account.org_id) == 1
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["reserved"] == 0 and wallet["balance"] == PRICE * 2 - body["billing"]["amount"]


async def test_not_found_is_an_answer_and_never_falls_back(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    account = await make_account("live", balance=PRICE * 2)
    body = await screen(client, account.headers, NOT_FOUND_BVN)
    assert (body["status"], body["provider"]) == ("NOT_FOUND", "prembly")
    # Dojah holds a record Prembly says does not exist: still Prembly's answer, no second call.
    body = await screen(client, account.headers, BVN_ONLY_AT_DOJAH)
    assert (body["status"], body["provider"]) == ("NOT_FOUND", "prembly")
    assert fake_dojah.requests == []
    assert await debit_count(db, account.org_id) == 2


async def test_a_refusal_of_the_number_itself_is_an_answer(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    account = await make_account("live", balance=PRICE)
    body = await screen(client, account.headers, prembly.BVN_BLOCKED)  # Prembly's 07
    assert (body["status"], body["response_code"], body["provider"]) == ("FAILED", "09", "prembly")
    assert fake_dojah.requests == []


async def test_when_every_provider_fails_nothing_is_charged(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    account = await make_account("live", balance=PRICE)
    fake_prembly.set_mode(prembly.FaultMode.HTTP_503)
    fake_dojah.set_mode(DojahFault.GARBAGE)
    body = await screen(client, account.headers, BVN_FOUND)
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert body["provider"] == "dojah"  # the last one tried
    assert body["billing"]["charged"] is False
    assert len(fake_prembly.requests) == 1 and len(fake_dojah.requests) == 1
    assert await debit_count(db, account.org_id) == 0
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert (wallet["balance"], wallet["reserved"]) == (PRICE, 0)


async def test_refused_everywhere_is_failed_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    account = await make_account("live", balance=PRICE)
    fake_prembly.set_mode(prembly.FaultMode.UNAUTHORIZED)
    fake_dojah.set_mode(DojahFault.UNAUTHORIZED)
    body = await screen(client, account.headers, BVN_FOUND)
    assert (body["status"], body["response_code"]) == ("FAILED", "09")
    assert await debit_count(db, account.org_id) == 0


async def test_the_deployment_orders_the_providers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    use, _ = use_chain
    use(order={"NG": ["dojah", "prembly"]})
    account = await make_account("live", balance=PRICE * 2)
    body = await screen(client, account.headers, BVN_FOUND)
    assert body["provider"] == "dojah" and fake_prembly.requests == []
    assert [
        (p["name"], p["position"]) for p in await ng_bvn_providers(client, account.headers)
    ] == [
        ("dojah", 1),
        ("prembly", 2),
    ]
    use(order={"NG:bvn": ["prembly"]})  # a channel's own list wins over its country's
    assert [p["name"] for p in await ng_bvn_providers(client, account.headers)] == ["prembly"]
    fake_prembly.set_mode(prembly.FaultMode.HTTP_503)
    body = await screen(client, account.headers, BVN_FOUND)
    assert (body["status"], body["provider"]) == ("SOURCE_UNAVAILABLE", "prembly")
    assert len(fake_dojah.requests) == 1  # only the first call, before the new order


async def test_breaker_opens_short_circuits_half_opens_and_closes(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    _, clock = use_chain
    account = await make_account("live", balance=PRICE * 10)
    fake_prembly.set_mode(prembly.FaultMode.HTTP_503)
    for _ in range(2):  # the threshold: 2 failures in a row
        assert (await screen(client, account.headers, BVN_FOUND))["provider"] == "dojah"
    assert len(fake_prembly.requests) == 2

    ready = (await client.get("/readyz")).json()
    assert ready["providers"]["identity"]["prembly"]["state"] == "open"
    assert ready["providers"]["identity"]["prembly"]["retry_in_seconds"] == COOL_DOWN
    assert ready["providers"]["identity"]["dojah"]["state"] == "closed"
    states = await ng_bvn_providers(client, account.headers)
    assert [(p["name"], p["state"]) for p in states] == [("prembly", "open"), ("dojah", "closed")]

    # Open: Prembly is not called at all, even once it is back.
    fake_prembly.set_mode(prembly.FaultMode.NORMAL)
    body = await screen(client, account.headers, BVN_FOUND)
    assert body["provider"] == "dojah" and len(fake_prembly.requests) == 2

    # Cool-down over: half-open; a failed trial opens it again for another cool-down.
    clock.now += COOL_DOWN
    assert (await ng_bvn_providers(client, account.headers))[0]["state"] == "half_open"
    fake_prembly.set_mode(prembly.FaultMode.HTTP_503)
    assert (await screen(client, account.headers, BVN_FOUND))["provider"] == "dojah"
    assert len(fake_prembly.requests) == 3
    assert (await ng_bvn_providers(client, account.headers))[0]["state"] == "open"
    assert (await screen(client, account.headers, BVN_FOUND))["provider"] == "dojah"
    assert len(fake_prembly.requests) == 3

    # Next cool-down: the trial succeeds and closes the breaker.
    clock.now += COOL_DOWN
    fake_prembly.set_mode(prembly.FaultMode.NORMAL)
    assert (await screen(client, account.headers, BVN_FOUND))["provider"] == "prembly"
    assert (await ng_bvn_providers(client, account.headers))[0]["state"] == "closed"
    ready = (await client.get("/readyz")).json()
    assert ready["status"] == "ready"
    assert ready["providers"]["identity"]["prembly"] == {
        "state": "closed",
        "consecutive_failures": 0,
        "times_opened": 2,
    }
    # Six calls, six answers, six debits: never two for one call.
    assert await debit_count(db, account.org_id) == 6


async def test_every_breaker_open_is_unavailable_without_a_call(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    use, _ = use_chain
    use(failures=1)
    account = await make_account("live", balance=PRICE)
    fake_prembly.set_mode(prembly.FaultMode.HTTP_503)
    fake_dojah.set_mode(DojahFault.HTTP_503)
    await screen(client, account.headers, BVN_FOUND)
    body = await screen(client, account.headers, BVN_FOUND)
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert body["provider"] == "prembly"  # the channel's first provider
    assert len(fake_prembly.requests) == 1 and len(fake_dojah.requests) == 1
    assert await debit_count(db, account.org_id) == 0


async def test_kyc_national_id_falls_back_and_stores_who_answered(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    use_chain: tuple[UseChain, Clock],
) -> None:
    account = await make_account("live", balance=10_000)
    fake_prembly.set_mode(prembly.FaultMode.SERVICE_DOWN)
    response = await client.post(
        "/v3/kyc/national-id",
        json={"country_code": "NG", "number": prembly.NIN_FOUND},
        headers=account.headers,
    )
    body = response.json()
    assert response.status_code == 200, body
    assert (body["status"], body["provider"]) == ("VERIFIED", "dojah")
    polled = (
        await client.get(f"/v3/kyc/status/{body['reference']}", headers=account.headers)
    ).json()
    assert polled["provider"] == "dojah"
    assert await debit_count(db, account.org_id) == 1


async def test_a_nigerian_phone_number_is_verified_through_dojah(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    fake_dojah: FakeDojah,
    use_chain: tuple[UseChain, Clock],
) -> None:
    account = await make_account("live", balance=PRICE)
    response = await client.post(
        URL, json={"channel": "phone", "number": "+234 805 123 4567"}, headers=account.headers
    )
    body = response.json()
    assert response.status_code == 200, body
    assert (body["status"], body["provider"]) == ("VERIFIED", "dojah")
    assert body["data"]["identity"]["last_name"] == "Okonkwo"
    assert fake_dojah.last_request.query == {"phone_number": PHONE_FOUND}  # the local form
    assert fake_prembly.requests == []  # Prembly's adapter has no phone look-up
    assert await debit_count(db, account.org_id) == 1
