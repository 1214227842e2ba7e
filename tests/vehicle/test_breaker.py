"""The vehicle registry behind its circuit breaker (one documented provider today: Prembly, for
Kenyan and Nigerian plates), against the fake aggregator with injected outages: the breaker
opens after the threshold, then answers a free 02 without calling the provider, half-opens after
the cool-down and closes on success; its state shows on /readyz and in the channels endpoint's
``registry_checks``; the deployment's order may name only known providers. SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.vehicle.prembly import build_registry
from hakiki.vehicle.registry import VehicleRegistries
from tests.conftest import AccountFactory, debit_count
from tests.support.breakers import COOL_DOWN, Clock, board
from tests.vehicle import fake_aggregator
from tests.vehicle.fake_aggregator import FakeAggregator, Mode
from tests.vehicle.helpers import verify

FOUND = {"registration_number": fake_aggregator.PLATE_FOUND}


@pytest_asyncio.fixture
async def breaking(runtime: Runtime, fake_vehicle: FakeAggregator) -> AsyncIterator[Clock]:
    """The app's vehicle registries rebuilt from its settings, breaking after 2 failures on a
    clock the test moves."""
    original = runtime.part(VehicleRegistries)
    clock = Clock()
    registries = VehicleRegistries(build_registry(runtime.settings), breakers=board(clock, 2))
    runtime.add_part(registries)
    yield clock
    runtime.add_part(original)
    await registries.aclose()


async def test_the_breaker_opens_answers_free_02_then_half_opens(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    breaking: Clock,
) -> None:
    account = await make_account("live", balance=20_000)
    fake_vehicle.set_mode(Mode.HTTP_503)
    for _ in range(2):
        body = (await verify(client, account.headers, **FOUND)).json()
        assert (body["status"], body["provider"]) == ("SOURCE_UNAVAILABLE", "prembly")
    ready = (await client.get("/readyz")).json()
    assert ready["providers"]["vehicle"]["prembly"]["state"] == "open"
    channels = (await client.get("/v3/screening/channels", headers=account.headers)).json()
    plates = [c for c in channels["registry_checks"] if c["category"] == "vehicle"]
    assert [(c["country"], c["live_providers"][0]["state"]) for c in plates] == [
        ("KE", "open"), ("NG", "open"),
    ]  # fmt: skip
    fake_vehicle.set_mode(Mode.NORMAL)
    seen = len(fake_vehicle.requests)
    body = (await verify(client, account.headers, **FOUND)).json()
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert len(fake_vehicle.requests) == seen  # not called while open
    assert await debit_count(db, account.org_id) == 0
    breaking.now += COOL_DOWN
    body = (await verify(client, account.headers, **FOUND)).json()
    assert (body["status"], body["provider"]) == ("VERIFIED", "prembly")
    ready = (await client.get("/readyz")).json()
    assert ready["providers"]["vehicle"]["prembly"]["state"] == "closed"
    assert await debit_count(db, account.org_id) == 1


def test_an_unknown_vehicle_provider_stops_the_start() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        VehicleRegistries(None, {"vehicle": ["dojah"]})
