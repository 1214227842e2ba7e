"""Nigeria's CAC with two providers (Prembly's Advance CAC, then Dojah's CAC advance look-up, as
the deployment orders them), each a local fake of its documented API with injected outages:
outage, slowness, garbage and refused credentials fall back to Dojah, which the answer and its
source name; a definite not-found never falls back; both down is free; the breaker opens and
half-opens; one charge per call. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.engines.kyb.numbers import parse_registration_number
from hakiki.kyb.providers.base import RegistryOutcome, RegistryQuery
from hakiki.kyb.providers.dojah_cac import DojahCac
from tests.conftest import AccountFactory, debit_count
from tests.identity.providers.fake_dojah import CAC_ONLY_AT_DOJAH, FakeDojah
from tests.identity.providers.fake_dojah import FaultMode as DojahFault
from tests.kyb.conftest import UseRegistries
from tests.kyb.fake_registries import NG_FOUND, FakeRegistries, FaultMode
from tests.kyb.helpers import post
from tests.support.breakers import COOL_DOWN, Clock, board

NG = {"country_code": "NG", "registration_number": NG_FOUND}


def with_dojah(fake_dojah: FakeDojah, **more: Any) -> dict[str, Any]:
    return {
        "dojah_app_id": fake_dojah.app_id,
        "dojah_secret_key": fake_dojah.secret_key,
        "dojah_base_url": fake_dojah.base_url,
        "provider_timeout_seconds": 0.5,
        **more,
    }


@pytest.fixture
async def dojah_cac(fake_dojah: FakeDojah) -> AsyncIterator[DojahCac]:
    provider = DojahCac(fake_dojah.app_id, fake_dojah.secret_key, fake_dojah.base_url, 0.5)
    yield provider
    await provider.aclose()


def cac(raw: str, *, ownership: bool = False) -> RegistryQuery:
    return RegistryQuery("NG", number=parse_registration_number("NG", raw), ownership=ownership)


# ---------------------------------------------------------------------- the Dojah adapter


async def test_dojah_reads_a_company_and_its_affiliates(
    dojah_cac: DojahCac, fake_dojah: FakeDojah
) -> None:
    result = await dojah_cac.lookup(cac(NG_FOUND, ownership=True))
    assert (result.outcome, result.provider) == (RegistryOutcome.FOUND, "dojah")
    company = result.company
    assert company is not None
    assert (company.name, company.number, company.entity_type) == (
        "ZARIA AGRO-ALLIED NIGERIA LIMITED", "RC1234567", "company",
    )  # fmt: skip
    assert (company.registration_date, company.registry_status) == ("2015-03-02", "ACTIVE")
    owners = result.ownership
    assert owners is not None
    assert [d.party.name for d in owners.directors] == ["Halima Bello"]
    assert [(s.party.name, s.percentage) for s in owners.shareholders] == [
        ("Halima Bello", 70.0), ("Emeka John Okafor", 30.0),
    ]  # fmt: skip
    assert owners.share_capital == "10,000,000"
    sent = fake_dojah.last_request
    assert sent.path == "/api/v1/kyc/cac/advance"
    assert sent.query == {"rc": "1234567", "class": "advance", "type": "co"}
    assert sent.headers["authorization"] == fake_dojah.secret_key
    await dojah_cac.lookup(cac("BN 2345678"))
    assert fake_dojah.last_request.query["type"] == "bn"
    missing = await dojah_cac.lookup(cac("RC 1111111"))
    assert missing.outcome is RegistryOutcome.NOT_FOUND


@pytest.mark.parametrize(
    ("fault", "outcome"),
    [
        (DojahFault.HTTP_503, RegistryOutcome.UNAVAILABLE),
        (DojahFault.FAILED_DEPENDENCY, RegistryOutcome.UNAVAILABLE),
        (DojahFault.SLOW, RegistryOutcome.UNAVAILABLE),
        (DojahFault.GARBAGE, RegistryOutcome.UNAVAILABLE),
        (DojahFault.UNEXPECTED_JSON, RegistryOutcome.UNAVAILABLE),
        (DojahFault.UNAUTHORIZED, RegistryOutcome.FAILED),
        (DojahFault.PAYMENT_REQUIRED, RegistryOutcome.FAILED),
    ],
)
async def test_dojah_failures_are_outcomes_never_exceptions(
    dojah_cac: DojahCac, fake_dojah: FakeDojah, fault: DojahFault, outcome: RegistryOutcome
) -> None:
    fake_dojah.set_mode(fault, slow_seconds=1.5)
    result = await dojah_cac.lookup(cac(NG_FOUND))
    assert result.outcome is outcome and result.company is None


# ---------------------------------------------------------------------- the chain, live


@pytest.mark.parametrize(
    "fault",
    [
        FaultMode.HTTP_503,
        FaultMode.SERVICE_DOWN,  # the CAC behind Prembly: response_code 02
        FaultMode.SLOW,
        FaultMode.GARBAGE,
        FaultMode.UNAUTHORIZED,
    ],
)
async def test_a_prembly_failure_falls_back_to_dojah_and_is_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    fake_dojah: FakeDojah,
    fault: FaultMode,
) -> None:
    use_registries(**with_dojah(fake_dojah))
    account = await make_account("live", balance=20_000)
    fake_registries.set_mode(fault, slow_seconds=1.5)
    body = (await post(client, "ownership", account.headers, **NG)).json()
    assert (body["status"], body["provider"]) == ("VERIFIED", "dojah"), body
    assert body["data"]["source"]["registry"] == "CAC (Nigeria) via Dojah"
    assert body["data"]["company"]["name"] == "ZARIA AGRO-ALLIED NIGERIA LIMITED"
    assert [b["name"] for b in body["data"]["ownership"]["beneficial_owners"]] == [
        "Halima Bello", "Emeka John Okafor",
    ]  # fmt: skip
    assert len(fake_registries.calls("prembly")) == 1 and len(fake_dojah.requests) == 1
    assert body["billing"]["charged"] is True
    assert await debit_count(db, account.org_id) == 1


async def test_not_found_never_falls_back_and_both_down_is_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    fake_dojah: FakeDojah,
) -> None:
    use_registries(**with_dojah(fake_dojah))
    account = await make_account("live", balance=20_000)
    only_at_dojah = {"country_code": "NG", "registration_number": f"RC {CAC_ONLY_AT_DOJAH}"}
    body = (await post(client, "business", account.headers, **only_at_dojah)).json()
    assert (body["status"], body["provider"]) == ("NOT_FOUND", "prembly")
    assert fake_dojah.requests == []
    assert await debit_count(db, account.org_id) == 1
    fake_registries.set_mode(FaultMode.HTTP_503)
    fake_dojah.set_mode(DojahFault.HTTP_503)
    body = (await post(client, "business", account.headers, **NG)).json()
    assert (body["status"], body["response_code"], body["provider"]) == (
        "SOURCE_UNAVAILABLE", "02", "dojah",
    )  # fmt: skip
    assert body["billing"]["charged"] is False
    assert await debit_count(db, account.org_id) == 1


async def test_the_order_and_the_breaker(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
    fake_dojah: FakeDojah,
) -> None:
    registries = use_registries(**with_dojah(fake_dojah, provider_order={"kyb:NG": ["dojah"]}))
    account = await make_account("live", balance=50_000)
    body = (await post(client, "business", account.headers, **NG)).json()
    assert body["provider"] == "dojah" and fake_registries.calls("prembly") == []

    registries = use_registries(**with_dojah(fake_dojah))
    clock = Clock()
    registries.breakers = board(clock, 2)
    fake_registries.set_mode(FaultMode.HTTP_503)
    for _ in range(2):
        assert (await post(client, "business", account.headers, **NG)).json()["provider"] == "dojah"
    ready = (await client.get("/readyz")).json()
    assert ready["providers"]["kyb"]["prembly"]["state"] == "open"
    channels = (await client.get("/v3/screening/channels", headers=account.headers)).json()
    (ng,) = [
        c for c in channels["registry_checks"] if c["category"] == "kyb" and c["country"] == "NG"
    ]
    assert [(p["name"], p["state"]) for p in ng["live_providers"]] == [
        ("prembly", "open"), ("dojah", "closed"),
    ]  # fmt: skip
    fake_registries.set_mode(FaultMode.NORMAL)
    assert (await post(client, "business", account.headers, **NG)).json()["provider"] == "dojah"
    assert len(fake_registries.calls("prembly")) == 2  # skipped while open
    clock.now += COOL_DOWN
    assert (await post(client, "business", account.headers, **NG)).json()["provider"] == "prembly"
    ready = (await client.get("/readyz")).json()
    assert ready["providers"]["kyb"]["prembly"]["state"] == "closed"  # the trial succeeded
    assert await debit_count(db, account.org_id) == 5
