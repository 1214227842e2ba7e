"""The Prembly vehicle adapter against the fake aggregator: shapes sent and read, and every
failure mode mapped without raising."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from hakiki.vehicle.prembly import PremblyVehicleRegistry, record_from
from hakiki.vehicle.registry import RegistryOutcome
from tests.vehicle import fake_aggregator
from tests.vehicle.fake_aggregator import FakeAggregator, Mode


@pytest.fixture
async def adapter(fake_vehicle: FakeAggregator) -> AsyncIterator[PremblyVehicleRegistry]:
    registry = PremblyVehicleRegistry(
        fake_aggregator.APP_ID, fake_aggregator.API_KEY, fake_vehicle.base_url,
        fake_aggregator.PATH, timeout=0.5,
    )  # fmt: skip
    yield registry
    await registry.aclose()


async def test_a_plate_is_found_with_its_copy_of_records(
    adapter: PremblyVehicleRegistry, fake_vehicle: FakeAggregator
) -> None:
    result = await adapter.lookup("registration_number", fake_aggregator.PLATE_FOUND)
    assert result.outcome is RegistryOutcome.FOUND and result.provider_reference
    record = result.record
    assert record is not None
    assert (record.make, record.model, record.colour) == ("TOYOTA", "COROLLA FIELDER", "SILVER")
    assert (record.year_of_manufacture, record.registration_date) == (2012, "2018-06-14")
    assert record.owners[0].name == fake_aggregator.OWNER and record.caveats == ()
    [sent] = fake_vehicle.requests
    assert sent["json"] == {"vehicle_number": fake_aggregator.PLATE_FOUND}
    assert sent["headers"]["app-id"] == fake_aggregator.APP_ID
    assert sent["headers"]["x-api-key"] == fake_aggregator.API_KEY


async def test_joint_owners_and_caveats(adapter: PremblyVehicleRegistry) -> None:
    result = await adapter.lookup("registration_number", fake_aggregator.PLATE_FINANCED)
    assert result.record is not None
    assert [o.name for o in result.record.owners] == [
        "MUCHIRI BANK LIMITED", "GRACE WANJIKU NJOROGE",
    ]  # fmt: skip
    [caveat] = result.record.caveats
    assert (caveat.kind, caveat.holder, caveat.date) == (
        "FINANCIER", "MUCHIRI BANK LIMITED", "2021-03-12",
    )  # fmt: skip


async def test_a_chassis_number_is_searched_as_such(
    adapter: PremblyVehicleRegistry, fake_vehicle: FakeAggregator
) -> None:
    result = await adapter.lookup("chassis_number", fake_aggregator.CHASSIS_FOUND)
    assert result.outcome is RegistryOutcome.FOUND
    assert fake_vehicle.requests[-1]["json"] == {"chassis_number": fake_aggregator.CHASSIS_FOUND}


async def test_not_found(adapter: PremblyVehicleRegistry) -> None:
    result = await adapter.lookup("registration_number", "KZZ 999Z")
    assert result.outcome is RegistryOutcome.NOT_FOUND and result.record is None


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [
        (Mode.HTTP_503, RegistryOutcome.UNAVAILABLE),
        (Mode.GARBAGE, RegistryOutcome.UNAVAILABLE),
        (Mode.UNEXPECTED_JSON, RegistryOutcome.UNAVAILABLE),
        (Mode.FOUND_WITHOUT_VEHICLE, RegistryOutcome.UNAVAILABLE),
        (Mode.SERVICE_DOWN, RegistryOutcome.UNAVAILABLE),
        (Mode.SLOW, RegistryOutcome.UNAVAILABLE),
        (Mode.UNAUTHORIZED, RegistryOutcome.FAILED),
        (Mode.INSUFFICIENT_BALANCE, RegistryOutcome.FAILED),
    ],
)
async def test_failure_modes_never_raise(
    adapter: PremblyVehicleRegistry, fake_vehicle: FakeAggregator, mode: Mode,
    outcome: RegistryOutcome,
) -> None:  # fmt: skip
    fake_vehicle.set_mode(mode, slow_seconds=1.5)
    result = await adapter.lookup("registration_number", fake_aggregator.PLATE_FOUND)
    assert result.outcome is outcome and result.record is None
    assert fake_aggregator.PLATE_FOUND not in result.message


async def test_an_unreachable_upstream_is_unavailable() -> None:
    registry = PremblyVehicleRegistry("a", "b", "http://127.0.0.1:9", "/v", timeout=0.5)
    try:
        result = await registry.lookup("registration_number", "KCA 100A")
    finally:
        await registry.aclose()
    assert result.outcome is RegistryOutcome.UNAVAILABLE


def test_reading_is_lenient_but_needs_a_vehicle() -> None:
    assert record_from({"owner_name": "X Y"}) is None
    record = record_from(
        {"vehicle_number": "KCA 1A", "vehicle_name": "Toyota", "vehicle_color": "BLUE",
         "year_of_manufacture": "twenty", "registration_date": "garbage", "caveat": "No caveat",
         "owners": ["A B", 7, {"name": ""}]}
    )  # fmt: skip
    assert record is not None
    assert (record.make, record.colour, record.year_of_manufacture) == ("Toyota", "BLUE", None)
    assert record.registration_date is None and record.caveats == ()
    assert [o.name for o in record.owners] == ["A B"]
