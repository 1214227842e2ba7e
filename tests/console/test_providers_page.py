"""The console's providers page: every live channel (identity, tax, KYB, vehicle) with its
providers in order and each breaker's state, failures, opening time and next trial, said to be
this process's own; any console user may view it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from fastapi import FastAPI

from hakiki.core.runtime import Runtime
from hakiki.tax.providers.registry import TaxProviders
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in
from tests.identity.providers.fake_dojah import FakeDojah
from tests.support.breakers import Clock, board


@pytest_asyncio.fixture
async def tax_with_dojah(runtime: Runtime, fake_dojah: FakeDojah) -> AsyncIterator[Clock]:
    original = runtime.part(TaxProviders)
    settings = runtime.settings.model_copy(
        update={
            "dojah_app_id": fake_dojah.app_id,
            "dojah_secret_key": fake_dojah.secret_key,
            "dojah_base_url": fake_dojah.base_url,
        }
    )
    providers = TaxProviders.from_settings(settings)
    providers.breakers = board(clock := Clock(), 1)
    runtime.add_part(providers)
    yield clock
    runtime.add_part(original)
    await providers.aclose()


@pytest.mark.parametrize("role", ["viewer", "analyst", "owner"])
async def test_any_user_sees_each_channels_providers_and_breakers(
    app: FastAPI, make_user: UserFactory, runtime: Runtime, tax_with_dojah: Clock, role: str
) -> None:
    chain = runtime.part(TaxProviders).breakers
    breaker = chain.breaker("prembly")
    assert breaker.acquire()
    breaker.failed()  # one failure: the threshold here; open for 60 s
    tax_with_dojah.now += 15
    user = await make_user(role)
    async with browser(app) as http:
        await signed_in(http, user)
        page = await http.get("/console/providers")
    assert page.status_code == 200
    html = page.text
    assert "this server process" in html and 'id="per-process"' in html
    assert '<a href="/console/providers" aria-current="page">Providers</a>' in html
    rows = [row for row in html.split("<tr")[1:] if "<td>" in row]
    tin = [r for r in rows if "<td>tax</td><td>NG</td><td>pin</td>" in r]
    assert len(tin) == 2
    assert "<td>1</td><td>prembly</td><td>open</td><td>0</td><td>1</td>" in tin[0]
    assert "in 45.0 s" in tin[0] and 'class="breaker-open"' in tin[0]
    assert "<td>2</td><td>dojah</td><td>closed</td>" in tin[1]
    bvn = [r for r in rows if "<td>identity</td><td>NG</td><td>bvn</td>" in r]
    assert bvn and "prembly" in bvn[0]
    assert any("<td>kyb</td><td>NG</td><td>CAC</td>" in r for r in rows)
    assert any("<td>vehicle</td><td>NG</td><td>plate</td>" in r for r in rows)
    assert any("no provider configured" in r for r in rows)  # e.g. KE tax withholding


async def test_signed_out_is_sent_to_sign_in(app: FastAPI) -> None:
    async with browser(app) as http:
        page = await http.get("/console/providers")
    assert page.status_code in (302, 303) and "/console/login" in page.headers["location"]
