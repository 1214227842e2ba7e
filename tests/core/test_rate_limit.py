"""Per-key rate limits, through the ASGI app on both databases, with memory and Redis counters."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI
from pydantic import ValidationError

from hakiki.account import service as accounts
from hakiki.core.database import Database
from hakiki.core.rate_limit import RateLimiter, WindowCounters
from hakiki.core.settings import Settings
from tests.conftest import REDIS_URL, Account, AccountFactory, debit_count, require_redis
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly

CHANNELS = "/v3/screening/channels"
AML_WITH_ID = "/v3/screening/aml-with-id"
PRICE = 5000

Install = Callable[..., RateLimiter]


@pytest_asyncio.fixture
async def limit(app: FastAPI, settings: Settings) -> AsyncIterator[Install]:
    """``limit("3/minute", rate_limits=..., redis_url=...)`` swaps the app's limiter for one
    built from those settings, for the duration of the test."""
    runtime = app.state.runtime
    original = runtime.rate_limiter
    installed: list[RateLimiter] = []

    def install(rate_limit: str = "3/minute", **overrides: Any) -> RateLimiter:
        configured = settings.model_copy(update={"rate_limit": rate_limit, **overrides})
        runtime.rate_limiter = RateLimiter.from_settings(configured)
        installed.append(runtime.rate_limiter)
        return runtime.rate_limiter

    yield install
    runtime.rate_limiter = original
    for limiter in installed:
        await limiter.aclose()


def quota(response: httpx.Response) -> tuple[int, int, int]:
    headers = response.headers
    return (
        int(headers["ratelimit-limit"]),
        int(headers["ratelimit-remaining"]),
        int(headers["ratelimit-reset"]),
    )


def assert_rate_limited(response: httpx.Response, limit: int) -> None:
    assert response.status_code == 429, response.text
    assert set(response.json()) == {"error", "message"}
    assert response.json()["error"] == "rate_limited"
    assert response.headers["x-request-id"].startswith("req_")
    retry_after = int(response.headers["retry-after"])
    assert 1 <= retry_after <= 60
    assert quota(response) == (limit, 0, retry_after)


async def channels(client: httpx.AsyncClient, account: Account) -> httpx.Response:
    return await client.get(CHANNELS, headers=account.headers)


async def test_default_limit_is_on_every_authenticated_response(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    limit, remaining, reset = quota(await channels(client, account))
    assert (limit, reset) == (100, 1) and remaining < limit


async def test_remaining_decreases_then_429_with_retry_after(
    client: httpx.AsyncClient, make_account: AccountFactory, limit: Install
) -> None:
    limit("3/minute")
    account = await make_account("sandbox")
    seen = [quota(await channels(client, account)) for _ in range(3)]
    assert [(lim, rem) for lim, rem, _ in seen] == [(3, 2), (3, 1), (3, 0)]
    assert all(1 <= reset <= 60 for _, _, reset in seen)
    assert_rate_limited(await channels(client, account), 3)
    assert_rate_limited(await client.get("/v3/account/wallet", headers=account.headers), 3)


async def test_error_responses_after_authentication_carry_the_headers(
    client: httpx.AsyncClient, make_account: AccountFactory, limit: Install
) -> None:
    limit("10/minute")
    account = await make_account("sandbox")
    invalid = await client.post(AML_WITH_ID, json={"channel": "bvn"}, headers=account.headers)
    assert invalid.status_code == 400 and quota(invalid)[:2] == (10, 9)
    broke = await make_account("live", balance=0)
    unpaid = await client.post(
        AML_WITH_ID, json={"channel": "bvn", "number": BVN_FOUND}, headers=broke.headers
    )
    assert unpaid.status_code == 402 and quota(unpaid)[:2] == (10, 9)
    scoped = await make_account("sandbox", scopes=["fraud:read"])
    forbidden = await channels(client, scoped)
    assert forbidden.status_code == 403 and quota(forbidden)[:2] == (10, 9)


async def test_unauthenticated_responses_have_no_rate_limit_headers(
    client: httpx.AsyncClient, limit: Install
) -> None:
    limit("1/minute")
    for _ in range(3):
        response = await client.get(CHANNELS, headers={"Authorization": "Bearer x:y"})
        assert response.status_code == 401
        assert not any(name.startswith("ratelimit-") for name in response.headers)


async def test_organisation_override(
    client: httpx.AsyncClient, make_account: AccountFactory, limit: Install
) -> None:
    special = await make_account("sandbox")
    ordinary = await make_account("sandbox")
    limit("5/minute", rate_limits={special.org_id: "2/minute"})
    assert quota(await channels(client, ordinary))[:2] == (5, 4)
    assert quota(await channels(client, special))[:2] == (2, 1)
    assert quota(await channels(client, special))[:2] == (2, 0)
    assert_rate_limited(await channels(client, special), 2)
    assert (await channels(client, ordinary)).status_code == 200


async def test_each_key_has_its_own_counter(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, limit: Install
) -> None:
    limit("1/minute")
    first = await make_account("sandbox")
    key = await accounts.create_key(db, first.org_name, "sandbox")
    second = Account(first.org_id, first.org_name, key.client_id, key.secret, "sandbox")
    assert (await channels(client, first)).status_code == 200
    assert_rate_limited(await channels(client, first), 1)
    assert quota(await channels(client, second))[:2] == (1, 0)


async def test_429_does_no_work_no_charge_no_idempotency_claim_no_upstream(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_prembly: FakePrembly,
    limit: Install,
) -> None:
    limit("1/minute")
    account = await make_account("live", balance=PRICE * 3)
    body = {"channel": "bvn", "number": BVN_FOUND}

    def call(key: str, payload: dict[str, Any]) -> Any:
        headers = {**account.headers, "Idempotency-Key": key}
        return client.post(AML_WITH_ID, json=payload, headers=headers)

    assert (await call("first", body)).status_code == 200
    upstream_calls = len(fake_prembly.requests)
    assert_rate_limited(await call("second", body), 1)
    assert await debit_count(db, account.org_id) == 1
    assert len(fake_prembly.requests) == upstream_calls
    # "second" was never claimed: in a fresh window it runs (and is charged) as a new call.
    limit("1/minute")
    assert (await call("second", body)).status_code == 200
    assert await debit_count(db, account.org_id) == 2


async def test_redis_counters_are_shared_between_processes(
    client: httpx.AsyncClient, make_account: AccountFactory, limit: Install
) -> None:
    require_redis()
    account = await make_account("sandbox")
    limit("2/minute", redis_url=REDIS_URL)
    assert quota(await channels(client, account))[:2] == (2, 1)
    limit("2/minute", redis_url=REDIS_URL)  # another process: its own connections, same counts
    assert quota(await channels(client, account))[:2] == (2, 0)
    assert_rate_limited(await channels(client, account), 2)


async def test_unreachable_redis_lets_calls_through_without_headers(
    client: httpx.AsyncClient, make_account: AccountFactory, limit: Install
) -> None:
    limit("1/minute", redis_url="redis://127.0.0.1:1/0")
    account = await make_account("sandbox")
    for _ in range(2):
        response = await channels(client, account)
        assert response.status_code == 200
        assert "ratelimit-limit" not in response.headers


async def test_memory_windows_reset_and_expired_ones_are_swept() -> None:
    now = [1000.0]
    counters = WindowCounters(clock=lambda: now[0])
    assert [await counters.incr("a", 60) for _ in range(3)] == [1, 2, 3]
    assert await counters.incr("b", 1) == 1
    assert await counters.get_expiry("a") == 1060.0
    now[0] = 1060.0
    assert await counters.get("a") == 0
    assert await counters.incr("a", 60) == 1 and await counters.get_expiry("a") == 1120.0
    assert await counters.reset() == 1  # "b" was swept


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAKIKI_RATE_LIMIT", "20 per 5 seconds")
    monkeypatch.setenv("HAKIKI_RATE_LIMITS", '{"org_a": "7/minute"}')
    configured = Settings()
    assert configured.rate_limit == "20 per 5 seconds"
    assert configured.rate_limits == {"org_a": "7/minute"}
    assert Settings.model_fields["rate_limit"].default == "100/second"
    for bad in ("100", "5/fortnight", "1/second;10/minute"):
        monkeypatch.setenv("HAKIKI_RATE_LIMIT", bad)
        with pytest.raises(ValidationError):
            Settings()
    monkeypatch.setenv("HAKIKI_RATE_LIMIT", "1/second")
    monkeypatch.setenv("HAKIKI_RATE_LIMITS", '{"org_a": "lots"}')
    with pytest.raises(ValidationError):
        Settings()
