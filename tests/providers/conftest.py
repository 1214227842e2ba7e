"""Fixtures around the fake Prembly server.

Other test folders can reuse the fake without these fixtures:

    from tests.providers.fake_prembly import run_fake_prembly

    @pytest.fixture(scope="session")
    def fake_prembly():
        with run_fake_prembly() as fake:
            yield fake
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from hakiki.providers.prembly import PremblyProvider
from tests.providers.fake_prembly import FakePrembly

#: Adapter timeout used against the fake; `FaultMode.SLOW` answers well after it.
TEST_TIMEOUT_SECONDS = 0.5


@pytest.fixture
def fake_prembly_url(fake_prembly: FakePrembly) -> str:
    return fake_prembly.base_url


@pytest.fixture
async def prembly_provider(fake_prembly: FakePrembly) -> AsyncIterator[PremblyProvider]:
    """A `PremblyProvider` with its own HTTP client, pointed at the fake, with valid credentials."""
    provider = PremblyProvider(
        app_id=fake_prembly.app_id,
        api_key=fake_prembly.api_key,
        base_url=fake_prembly.base_url,
        timeout=TEST_TIMEOUT_SECONDS,
    )
    yield provider
    await provider.aclose()
