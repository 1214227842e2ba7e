"""Fixtures of the tax tests: an adapter pointed at the fake GavaConnect (``fake_gava``, from
tests/conftest.py, reset around each test), and the fake Prembly TIN server for Nigeria
(``fake_tin``; ``nigerian_tax`` points the app's providers at it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from hakiki.core.runtime import Runtime
from hakiki.tax.providers.gavaconnect import Credentials, GavaConnectProvider
from hakiki.tax.providers.prembly_tin import PremblyTinProvider
from hakiki.tax.providers.registry import TaxProviders, build_tax_providers
from tests.tax.fake_gavaconnect import (
    CONSUMER_KEY,
    CONSUMER_SECRET,
    WITHHOLDING_PATH,
    FakeGavaConnect,
)
from tests.tax.fake_prembly_tin import API_KEY as TIN_API_KEY
from tests.tax.fake_prembly_tin import APP_ID as TIN_APP_ID
from tests.tax.fake_prembly_tin import FakePremblyTin, run_fake_prembly_tin

#: Adapter timeout against the fake; FaultMode.SLOW answers well after it.
TIMEOUT_SECONDS = 0.5


@pytest.fixture
async def gava(fake_gava: FakeGavaConnect) -> AsyncIterator[GavaConnectProvider]:
    provider = GavaConnectProvider(
        fake_gava.base_url,
        TIMEOUT_SECONDS,
        credentials=Credentials(CONSUMER_KEY, CONSUMER_SECRET),
        withholding_path=WITHHOLDING_PATH,
    )
    yield provider
    await provider.aclose()


@pytest.fixture(scope="session")
def fake_prembly_tin_server() -> Iterator[FakePremblyTin]:
    with run_fake_prembly_tin() as fake:
        yield fake


@pytest.fixture
def fake_tin(fake_prembly_tin_server: FakePremblyTin) -> Iterator[FakePremblyTin]:
    fake_prembly_tin_server.reset()
    yield fake_prembly_tin_server
    fake_prembly_tin_server.reset()


@pytest.fixture
async def prembly_tin(fake_tin: FakePremblyTin) -> AsyncIterator[PremblyTinProvider]:
    provider = PremblyTinProvider(TIN_APP_ID, TIN_API_KEY, fake_tin.base_url, TIMEOUT_SECONDS)
    yield provider
    await provider.aclose()


@pytest.fixture
async def nigerian_tax(runtime: Runtime, fake_tin: FakePremblyTin) -> AsyncIterator[TaxProviders]:
    """The app's tax providers built from its settings with Prembly pointed at the fake TIN
    server, as an operator would configure it; put back afterwards."""
    original = runtime.part(TaxProviders)
    settings = runtime.settings.model_copy(
        update={
            "prembly_app_id": TIN_APP_ID,
            "prembly_api_key": TIN_API_KEY,
            "prembly_base_url": fake_tin.base_url,
            "provider_timeout_seconds": TIMEOUT_SECONDS,
        }
    )
    providers = TaxProviders(build_tax_providers(settings))
    runtime.add_part(providers)
    yield providers
    runtime.add_part(original)
    await providers.aclose()


@pytest.fixture
async def runtime_without_prembly(runtime: Runtime) -> AsyncIterator[None]:
    """The app's tax providers as a deployment without Prembly credentials builds them."""
    original = runtime.part(TaxProviders)
    settings = runtime.settings.model_copy(update={"prembly_app_id": None})
    providers = TaxProviders(build_tax_providers(settings))
    runtime.add_part(providers)
    yield
    runtime.add_part(original)
    await providers.aclose()
