"""Japanese chassis (frame) numbers: model code, maker and family from the table, serial."""

from __future__ import annotations

import pytest

from hakiki.engines.vehicle import IdentifierError, decode, parse_chassis
from hakiki.engines.vehicle.chassis import model_codes


@pytest.mark.parametrize(
    ("raw", "maker", "family"),
    [
        ("NZE121-1234567", "Toyota", "Corolla (sedan, Fielder, Runx, Allex)"),
        ("ZRE142-0012345", "Toyota", "Corolla Axio / Fielder"),
        ("KDH201-0123456", "Toyota", "HiAce / Regius Ace (diesel)"),
        ("GRJ120-0012345", "Toyota", "Land Cruiser Prado"),
        ("TRH200-0100001", "Toyota", "HiAce / Regius Ace (petrol)"),
        ("AZR60-3012345", "Toyota", "Noah / Voxy"),
        ("ACA21-0123456", "Toyota", "RAV4"),
        ("NCP51-0123456", "Toyota", "Probox / Succeed"),
        ("NCP100-0123456", "Toyota", "Ractis"),
        ("NT31-012345", "Nissan", "X-Trail"),
        ("E11-123456", "Nissan", "Note"),
        ("GE6-1234567", "Honda", "Fit"),
        ("DE3FS-123456", "Mazda", "Demio"),
        ("SH5-012345", "Subaru", "Forester"),
        ("CW5W-0123456", "Mitsubishi", "Outlander"),
        ("NKR85-7012345", "Isuzu", "Elf (truck)"),
    ],
)
def test_common_kenyan_imports(raw: str, maker: str, family: str) -> None:
    chassis = parse_chassis(raw)
    assert (chassis.maker, chassis.family) == (maker, family)
    assert chassis.chassis_number == raw


def test_spaces_lowercase_and_a_missing_dash_after_a_letter() -> None:
    assert parse_chassis(" nze121 1234567 ").chassis_number == "NZE121-1234567"
    assert parse_chassis("de3fs123456").chassis_number == "DE3FS-123456"


def test_an_emission_class_prefix_is_set_apart() -> None:
    chassis = parse_chassis("DBA-NZE121-1234567")
    assert (chassis.emission_class, chassis.model_code) == ("DBA", "NZE121")


def test_an_unknown_code_is_still_parsed() -> None:
    chassis = parse_chassis("XYZ99-123456")
    assert (chassis.model_code, chassis.serial) == ("XYZ99", "123456")
    assert chassis.maker is None and chassis.candidates == ()


def test_a_code_two_makers_use_lists_both_and_names_neither() -> None:
    chassis = parse_chassis("GP7-1234567")
    assert chassis.maker is None
    assert {c.maker for c in chassis.candidates} == {"Honda", "Subaru"}


@pytest.mark.parametrize(
    "raw", ["NZE1211234567", "NZE121-12", "NZE121-12345678901", "1-1234567", "A-B-C-D", "-"]
)
def test_shapes_that_are_not_frame_numbers(raw: str) -> None:
    with pytest.raises(IdentifierError):
        parse_chassis(raw)


def test_a_chassis_number_may_be_a_vin() -> None:
    decoded = decode("chassis_number", "1HGCM82633A004352")
    assert decoded.kind == "vin" and decoded.vin is not None
    with pytest.raises(IdentifierError, match="never contains I, O or Q"):
        decode("chassis_number", "1HGCM82633AOO4352")


def test_the_table_is_well_formed() -> None:
    rows = model_codes()
    assert len(rows) > 150
    assert all(r.prefix == r.prefix.upper() and r.maker and r.family for r in rows)
    pairs = [(r.prefix, r.maker) for r in rows]
    assert len(pairs) == len(set(pairs)), "a prefix is listed twice for one maker"
