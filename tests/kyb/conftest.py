"""The KYB tests' fake registries, and the app's registries pointed at them through the settings
(as an operator would configure them), swapped into the running app for one test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio

from hakiki.core.runtime import Runtime
from hakiki.kyb.providers.registry import Registries
from tests.kyb.fake_registries import API_KEY, APP_ID, OC_TOKEN, FakeRegistries, run_fake_registries

UseRegistries = Callable[..., Registries]


@pytest.fixture(scope="session")
def fake_registries_server() -> Iterator[FakeRegistries]:
    with run_fake_registries() as fake:
        yield fake


@pytest.fixture
def fake_registries(fake_registries_server: FakeRegistries) -> Iterator[FakeRegistries]:
    fake_registries_server.reset()
    yield fake_registries_server
    fake_registries_server.reset()


@pytest_asyncio.fixture
async def use_registries(
    runtime: Runtime, fake_registries: FakeRegistries
) -> AsyncIterator[UseRegistries]:
    """``use_registries(opencorporates=True, prembly=True, timeout=1.0)``: the app's registries
    built from its settings with the fake's addresses and credentials."""
    original = runtime.part(Registries)
    built: list[Registries] = []

    def use(*, prembly: bool = True, opencorporates: bool = False, **more: Any) -> Registries:
        settings = runtime.settings.model_copy(
            update={
                "prembly_app_id": APP_ID if prembly else None,
                "prembly_api_key": API_KEY,
                "prembly_base_url": fake_registries.prembly_url,
                "gleif_base_url": fake_registries.gleif_url,
                "opencorporates_api_token": OC_TOKEN if opencorporates else None,
                "opencorporates_base_url": fake_registries.opencorporates_url,
                "provider_timeout_seconds": 1.0,
                **more,
            }
        )
        registries = Registries.from_settings(settings)
        built.append(registries)
        runtime.add_part(registries)
        return registries

    use()
    yield use
    runtime.add_part(original)
    for registries in built:
        await registries.aclose()
