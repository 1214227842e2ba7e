"""Fixtures around the fake Prembly and Smile ID servers for the adapters' own tests.

The session's fake server itself (`fake_prembly_server`, reset per test as `fake_prembly`) comes
from tests/conftest.py, which also points the app's live settings at it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from hakiki.identity.providers.dojah import DojahProvider
from hakiki.identity.providers.prembly import PremblyProvider
from hakiki.identity.providers.smile_id import SmileIdProvider, id_types
from tests.conftest import SMILE_ID_TYPES
from tests.identity.providers.fake_dojah import FakeDojah
from tests.identity.providers.fake_prembly import FakePrembly
from tests.identity.providers.fake_smile_id import FakeSmileId

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


@pytest.fixture
async def smile_provider(fake_smile_id: FakeSmileId) -> AsyncIterator[SmileIdProvider]:
    """A `SmileIdProvider` pointed at the fake, with valid credentials and the tests' mapping."""
    provider = SmileIdProvider(
        partner_id=fake_smile_id.partner_id,
        api_key=fake_smile_id.api_key,
        base_url=fake_smile_id.base_url,
        timeout=TEST_TIMEOUT_SECONDS,
        id_type_map=id_types(SMILE_ID_TYPES),
    )
    yield provider
    await provider.aclose()


@pytest.fixture
async def dojah_provider(fake_dojah: FakeDojah) -> AsyncIterator[DojahProvider]:
    """A `DojahProvider` pointed at the fake, with valid credentials."""
    provider = DojahProvider(
        app_id=fake_dojah.app_id,
        secret_key=fake_dojah.secret_key,
        base_url=fake_dojah.base_url,
        timeout=TEST_TIMEOUT_SECONDS,
    )
    yield provider
    await provider.aclose()
