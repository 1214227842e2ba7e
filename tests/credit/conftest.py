"""Fixtures of the credit tests: the fake bureaus (one server each for the session, reset
around each test) and the app's bureaus swapped for adapters pointed at them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from hakiki.core.runtime import Runtime
from hakiki.credit.providers.firstcentral import FirstCentralProvider
from hakiki.credit.providers.metropol import MetropolProvider
from hakiki.credit.providers.registry import CreditBureaus
from tests.credit.fake_bureaus import (
    FC_PASSWORD,
    FC_USER,
    METROPOL_PRIVATE,
    METROPOL_PUBLIC,
    FakeBureau,
    firstcentral_app,
    metropol_app,
    run_fake_bureau,
)

TIMEOUT_SECONDS = 1.0


@pytest.fixture(scope="session")
def metropol_server() -> Iterator[FakeBureau]:
    with run_fake_bureau(metropol_app) as fake:
        yield fake


@pytest.fixture(scope="session")
def firstcentral_server() -> Iterator[FakeBureau]:
    with run_fake_bureau(firstcentral_app) as fake:
        yield fake


@pytest.fixture
def fake_metropol(metropol_server: FakeBureau) -> Iterator[FakeBureau]:
    metropol_server.reset()
    yield metropol_server
    metropol_server.reset()


@pytest.fixture
def fake_firstcentral(firstcentral_server: FakeBureau) -> Iterator[FakeBureau]:
    firstcentral_server.reset()
    yield firstcentral_server
    firstcentral_server.reset()


@pytest.fixture
async def bureaus(
    runtime: Runtime, fake_metropol: FakeBureau, fake_firstcentral: FakeBureau
) -> AsyncIterator[CreditBureaus]:
    """The app's bureaus swapped for adapters pointed at the fakes; put back afterwards."""
    held = runtime.part(CreditBureaus)
    swapped = CreditBureaus(
        [
            MetropolProvider(
                fake_metropol.base_url, METROPOL_PUBLIC, METROPOL_PRIVATE, TIMEOUT_SECONDS
            ),
            FirstCentralProvider(fake_firstcentral.base_url, FC_USER, FC_PASSWORD, TIMEOUT_SECONDS),
        ]
    )
    runtime.add_part(swapped)
    yield swapped
    runtime.add_part(held)
    await swapped.aclose()
