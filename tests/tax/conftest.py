"""Fixtures of the tax tests: an adapter pointed at the fake GavaConnect (``fake_gava``, from
tests/conftest.py, reset around each test)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from hakiki.tax.providers.gavaconnect import Credentials, GavaConnectProvider
from tests.tax.fake_gavaconnect import (
    CONSUMER_KEY,
    CONSUMER_SECRET,
    WITHHOLDING_PATH,
    FakeGavaConnect,
)

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
