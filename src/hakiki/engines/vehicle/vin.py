"""17-character VINs (ISO 3779), decoded with `vininfo` (BSD-3-Clause).

The check digit (position 9) is mandatory in North America (WMI 1-5) and China (WMI L) and
computed there; elsewhere manufacturers need not use it, so it is reported "not applicable"
rather than failed. The model-year letter (position 10) cycles every 30 years, so a code gives
candidate years, most recent first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from vininfo import Vin
from vininfo.exceptions import ValidationError

from hakiki.engines.vehicle.errors import IdentifierError

CheckDigit = Literal["valid", "invalid", "not_applicable"]

_SEPARATORS = re.compile(r"[\s\-]")
_ALLOWED = re.compile(r"^[A-HJ-NPR-Z0-9]{17}$")
_YEAR_LETTERS = "ABCDEFGHJKLMNPRSTVWXY123456789"
_CHECK_DIGIT_REGIONS = ("1", "2", "3", "4", "5", "L")  # North America, China


@dataclass(frozen=True)
class VinDecoded:
    vin: str
    wmi: str
    manufacturer: str | None
    region: str | None
    country: str | None
    model_years: tuple[int, ...]
    plant_code: str
    plant: str | None
    models: tuple[str, ...]
    serial: str
    check_digit: CheckDigit
    check_digit_expected: str | None


def normalise_vin(raw: str) -> str:
    return _SEPARATORS.sub("", raw).upper()


def looks_like_vin(raw: str) -> bool:
    return bool(_ALLOWED.match(normalise_vin(raw)))


def _problem(vin: str) -> str | None:
    if len(vin) != 17:
        return f"a VIN has 17 characters, not {len(vin)}"
    bad = sorted({c for c in vin if c in "IOQ"})
    if bad:
        return f"a VIN never contains I, O or Q (found {', '.join(bad)})"
    if not _ALLOWED.match(vin):
        return "a VIN has only the letters A-Z (but I, O, Q) and digits"
    return None


def expected_check_digit(vin: str) -> str:
    """The ISO 3779 / 49 CFR 565 check digit of ``vin`` (position 9 is ignored)."""
    values = {c: i % 9 + 1 for i, c in enumerate("ABCDEFGHI")}
    values |= {c: i % 9 + 1 for i, c in enumerate("JKLMN", start=0)}
    values |= {"P": 7, "R": 9}
    values |= {c: i + 2 for i, c in enumerate("STUVWXYZ")}
    weights = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
    total = sum(
        (int(c) if c.isdigit() else values[c]) * w for c, w in zip(vin, weights, strict=True)
    )
    remainder = total % 11
    return "X" if remainder == 10 else str(remainder)


def _model_years(code: str, this_year: int) -> tuple[int, ...]:
    if code not in _YEAR_LETTERS:
        return ()
    year = 1980 + _YEAR_LETTERS.index(code)
    years = []
    while year <= this_year + 1:
        years.append(year)
        year += 30
    return tuple(sorted(years, reverse=True))


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,) if value else ()
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value if v)
    return ()


def decode_vin(raw: str, *, this_year: int | None = None) -> VinDecoded:
    """Decode a VIN; `IdentifierError` when it is not one (length, I/O/Q, characters)."""
    vin = normalise_vin(raw)
    problem = _problem(vin)
    if problem:
        raise IdentifierError(problem)
    try:
        info = Vin(vin)
    except ValidationError as error:  # the checks above mirror vininfo's; kept as a guard
        raise IdentifierError(str(error)) from None
    details = info.details
    plant = models = None
    serial = vin[11:]
    if details is not None:
        plant = (
            details.plant.name if details.plant and isinstance(details.plant.name, str) else None
        )
        models = _names(details.model.name) if details.model else ()
        serial = details.serial.code if details.serial and details.serial.code else serial
    manufacturer = info.manufacturer
    applies = vin[0] in _CHECK_DIGIT_REGIONS
    expected = expected_check_digit(vin) if applies else None
    check: CheckDigit = "not_applicable"
    if applies:
        check = "valid" if info.verify_checksum(check_year=False) else "invalid"
    year = this_year if this_year is not None else datetime.now(UTC).year
    return VinDecoded(
        vin=vin,
        wmi=vin[:3],
        manufacturer=manufacturer if manufacturer and manufacturer != "Unsupported" else None,
        region=info.region,
        country=info.country,
        model_years=_model_years(vin[9], year),
        plant_code=vin[10],
        plant=plant,
        models=models or (),
        serial=serial,
        check_digit=check,
        check_digit_expected=expected,
    )
