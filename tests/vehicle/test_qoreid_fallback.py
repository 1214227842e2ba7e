"""Nigerian plates with two providers: Prembly, then QoreID ("License Plate (Basic)"), each a
local fake of its documented API with injected faults. QoreID is asked only with the owner's
first and last names; without them it is "not asked" (never a failure of QoreID). Outage,
slowness, garbage and refused credentials fall back, a definite not-found stops, both down is a
free 02 naming what each did, one charge, the answer names the provider and says which fields
QoreID does not give. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.vehicle.providers import build_vehicle_registries
from hakiki.vehicle.qoreid import NOT_GIVEN
from hakiki.vehicle.registry import VehicleRegistries
from tests.conftest import AccountFactory, debit_count
from tests.console.conftest import UserFactory
from tests.console.conftest import make_user as make_user  # a fixture, shared
from tests.console.helpers import browser, signed_in
from tests.support.breakers import Clock, board
from tests.vehicle.fake_aggregator import FakeAggregator
from tests.vehicle.fake_aggregator import Mode as PremblyFault
from tests.vehicle.fake_qoreid import CLIENT_ID, FIRST, LAST, SECRET, FakeQoreId, run_fake_qoreid
from tests.vehicle.fake_qoreid import Mode as QoreIdFault
from tests.vehicle.helpers import verify

UseVehicle = Callable[..., VehicleRegistries]
NAMES = {"owner_first_name": FIRST, "owner_last_name": LAST}
ONLY_AT_QOREID = "KJA-123AB"  # the fake Prembly holds it too (its documented NG example)
NOWHERE = "LSR-456CD"


@pytest.fixture(scope="module")
def fake_qoreid_server() -> Iterator[FakeQoreId]:
    with run_fake_qoreid() as fake:
        yield fake


@pytest.fixture
def fake_qoreid(fake_qoreid_server: FakeQoreId) -> Iterator[FakeQoreId]:
    fake_qoreid_server.reset()
    yield fake_qoreid_server
    fake_qoreid_server.reset()


@pytest_asyncio.fixture
async def use_vehicle(
    runtime: Runtime, fake_vehicle: FakeAggregator, fake_qoreid: FakeQoreId
) -> AsyncIterator[UseVehicle]:
    """``use(order={...})``: the app's vehicle registries built from its settings with QoreID
    pointed at its fake, breaking after 2 failures in a row."""
    original = runtime.part(VehicleRegistries)
    built: list[VehicleRegistries] = []

    def use(order: dict[str, list[str]] | None = None) -> VehicleRegistries:
        settings = runtime.settings.model_copy(
            update={
                "qoreid_client_id": CLIENT_ID,
                "qoreid_secret": SECRET,
                "qoreid_base_url": fake_qoreid.base_url,
                "provider_order": order or {},
                "provider_timeout_seconds": 0.5,
            }
        )
        registries = VehicleRegistries(
            build_vehicle_registries(settings), order or {}, breakers=board(Clock(), 2)
        )
        built.append(registries)
        runtime.add_part(registries)
        return registries

    use()
    yield use
    runtime.add_part(original)
    for registries in built:
        await registries.aclose()


async def check(
    client: httpx.AsyncClient, headers: dict[str, str], plate: str, **names: str
) -> dict[str, Any]:
    response = await verify(client, headers, country_code="NG", registration_number=plate, **names)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def plate_channels(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, list]:
    body = (
        await client.get("/v3/screening/channels", params={"page_size": 100}, headers=headers)
    ).json()
    return {
        c["country"]: [(p["name"], p["state"]) for p in c["live_providers"]]
        for c in body["registry_checks"]
        if c["category"] == "vehicle"
    }


@pytest.mark.parametrize(
    "fault",
    [PremblyFault.HTTP_503, PremblyFault.SLOW, PremblyFault.GARBAGE, PremblyFault.UNAUTHORIZED],
)
async def test_a_prembly_failure_falls_back_to_qoreid_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    fake_qoreid: FakeQoreId,
    use_vehicle: UseVehicle,
    fault: PremblyFault,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_vehicle.set_mode(fault, slow_seconds=1.5)
    body = await check(client, account.headers, ONLY_AT_QOREID, **NAMES)
    assert (body["status"], body["response_code"], body["provider"]) == ("VERIFIED", "00", "qoreid")
    vehicle = body["data"]["vehicle"]
    assert (vehicle["registration_number"], vehicle["make"], vehicle["model"]) == (
        "KJA123AB", "Toyota", "Camry",
    )  # fmt: skip
    assert vehicle["chassis_number"] == "JTDBR32E540012345"
    assert [o["name"] for o in vehicle["owners"]] == ["Adaeze Ngozi Okafor"]
    assert vehicle["engine_number"] is None and vehicle["colour"] is None
    assert body["data"]["fields_not_given"] == list(NOT_GIVEN)
    assert body["data"]["owner_comparison"]["match"] is True  # the first and last names
    assert body["billing"]["charged"] is True
    assert await debit_count(db, account.org_id) == 1
    (token,) = fake_qoreid.token_requests
    assert token["json"] == {"clientId": CLIENT_ID, "secret": SECRET}
    (sent,) = fake_qoreid.requests
    assert sent["plate"] == "KJA123AB"
    assert sent["json"] == {"firstname": FIRST, "lastname": LAST}
    assert (sent["authorization"] or "").startswith("Bearer ")


async def test_without_both_names_qoreid_is_not_asked_and_not_blamed(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    fake_qoreid: FakeQoreId,
    use_vehicle: UseVehicle,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_vehicle.set_mode(PremblyFault.HTTP_503)
    for names in ({}, {"owner_first_name": FIRST}):
        body = await check(client, account.headers, ONLY_AT_QOREID, **names)
        assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
        assert body["billing"]["charged"] is False
        assert (
            "(no provider answered for NG vehicle registry (prembly: Prembly answered "
            in (body["message"])
        )
        assert (
            "; qoreid: not asked, QoreID needs the owner's owner_first_name and "
            in (body["message"])
        )
    assert fake_qoreid.requests == [] and fake_qoreid.token_requests == []
    ready = (await client.get("/readyz")).json()["providers"]["vehicle"]
    assert ready["prembly"]["state"] == "open"  # two failures: the threshold
    assert (ready["qoreid"]["state"], ready["qoreid"]["consecutive_failures"]) == ("closed", 0)
    assert await debit_count(db, account.org_id) == 0


@pytest.mark.parametrize(
    "fault",
    [QoreIdFault.HTTP_503, QoreIdFault.SLOW, QoreIdFault.GARBAGE, QoreIdFault.UNAUTHORIZED],
)
async def test_both_down_is_a_free_02_naming_what_each_did(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    fake_qoreid: FakeQoreId,
    use_vehicle: UseVehicle,
    fault: QoreIdFault,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_vehicle.set_mode(PremblyFault.HTTP_503)
    fake_qoreid.set_mode(fault, slow_seconds=1.5)
    body = await check(client, account.headers, ONLY_AT_QOREID, **NAMES)
    assert (body["status"], body["response_code"]) == ("SOURCE_UNAVAILABLE", "02")
    assert body["provider"] == "qoreid" and body["billing"]["charged"] is False
    assert await debit_count(db, account.org_id) == 0
    said = body["message"]
    assert "for NG vehicle registry (prembly: Prembly answered HTTP 503; " in (said)
    assert "; qoreid: " in said and "not asked" not in said
    polled = await client.get(f"/v3/vehicle/status/{body['reference']}", headers=account.headers)
    assert polled.json()["message"] == said


async def test_a_definite_not_found_stops_the_chain(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    fake_vehicle: FakeAggregator,
    fake_qoreid: FakeQoreId,
    use_vehicle: UseVehicle,
) -> None:
    account = await make_account("live", balance=10_000)
    body = await check(client, account.headers, NOWHERE, **NAMES)  # Prembly: "01"
    assert (body["status"], body["provider"]) == ("NOT_FOUND", "prembly")
    assert fake_qoreid.requests == []
    use_vehicle(order={"vehicle": ["qoreid", "prembly"]})
    seen = len(fake_vehicle.requests)
    body = await check(client, account.headers, NOWHERE, **NAMES)  # QoreID: 404
    assert (body["status"], body["provider"]) == ("NOT_FOUND", "qoreid")
    assert len(fake_vehicle.requests) == seen
    body = await check(client, account.headers, ONLY_AT_QOREID, **NAMES)
    assert (body["status"], body["provider"]) == ("VERIFIED", "qoreid")
    assert len(fake_qoreid.token_requests) == 1  # the token is kept until it expires
    assert await debit_count(db, account.org_id) == 3


async def test_channels_and_readiness_list_qoreid_for_ng_plates_only(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_vehicle: UseVehicle,
) -> None:
    account = await make_account("live", balance=10_000)
    assert await plate_channels(client, account.headers) == {
        "KE": [("prembly", "closed")],
        "NG": [("prembly", "closed"), ("qoreid", "closed")],
    }
    ready = (await client.get("/readyz")).json()["providers"]["vehicle"]
    assert set(ready) == {"prembly", "qoreid"}
    use_vehicle(order={"vehicle": ["qoreid"]})
    assert await plate_channels(client, account.headers) == {"KE": [], "NG": [("qoreid", "closed")]}


async def test_the_console_lists_qoreid_second_for_ng_plates(
    app: FastAPI, make_user: UserFactory, use_vehicle: UseVehicle
) -> None:
    user = await make_user("viewer")
    async with browser(app) as http:
        await signed_in(http, user)
        page = await http.get("/console/providers")
    assert page.status_code == 200
    rows = [row for row in page.text.split("<tr")[1:] if "<td>" in row]
    ng = [r for r in rows if "<td>vehicle</td><td>NG</td><td>plate</td>" in r]
    assert ["<td>2</td><td>qoreid</td><td>closed</td>" in r for r in ng] == [False, True]
    ke = [r for r in rows if "<td>vehicle</td><td>KE</td><td>plate</td>" in r]
    assert len(ke) == 1 and "qoreid" not in ke[0]


def test_qoreid_is_a_known_vehicle_provider() -> None:
    VehicleRegistries(None, {"vehicle": ["qoreid", "prembly"]})
    with pytest.raises(ValueError, match=r"known for vehicle: \['prembly', 'qoreid'\]"):
        VehicleRegistries(None, {"vehicle": ["dojah"]})
