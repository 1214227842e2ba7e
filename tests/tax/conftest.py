"""Fixtures of the tax tests: the session's fake GavaConnect (reset around each test), an
adapter pointed at it, and the app's runtime."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from hakiki.core.runtime import Runtime
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
def fake_gava(fake_gavaconnect_server: FakeGavaConnect) -> Iterator[FakeGavaConnect]:
    fake_gavaconnect_server.reset()
    yield fake_gavaconnect_server
    fake_gavaconnect_server.reset()


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


@pytest.fixture
def runtime(app: Any) -> Runtime:
    value: Runtime = app.state.runtime
    return value
