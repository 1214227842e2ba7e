"""The vehicle check's sandbox (docs/sandbox.md#vehicle): the local decode is real, the
registry's record is mock data derived from a hash of the identifier.

The last digit of the identifier's number (the plate's digits, the chassis serial, the VIN's
last character) picks the outcome as everywhere in the sandbox: 0-4 found, 5 not found, 6 found
with another owner (MISMATCH when owner_name is sent), 7 pending (completes a few seconds
later with a webhook), 8 source unavailable, 9 soft error. A second-to-last digit 1 puts a
financier's caveat on the logbook.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from hakiki.core.endpoints import TestValue
from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.engines.vehicle import Decoded
from hakiki.vehicle.compare import compare_owner
from hakiki.vehicle.lookup import Looked
from hakiki.vehicle.registry import Caveat, Owner, RegistryRecord

PROVIDER = "hakiki-sandbox"
_LAST_DIGIT = {
    "5": Outcome.NOT_FOUND,
    "7": Outcome.PENDING,
    "8": Outcome.SOURCE_UNAVAILABLE,
    "9": Outcome.FAILED,
}
_OWNERS = (
    "Wanjiru Akinyi Kamau",
    "Otieno Ochieng Odhiambo",
    "Mwangi Kariuki Njoroge",
    "Chebet Jepkosgei Koech",
)
_OTHER_OWNERS = ("Baraka Mutua Musyoka", "Amina Hassan Abdi")
# make, model, body, a model code of that car (for a chassis number on record)
_CARS = (
    ("Toyota", "Corolla Fielder", "Station wagon", "NZE141"),
    ("Toyota", "Probox", "Station wagon", "NCP51"),
    ("Nissan", "Note", "Hatchback", "E11"),
    ("Mazda", "Demio", "Hatchback", "DE3FS"),
    ("Subaru", "Forester", "Station wagon", "SH5"),
    ("Honda", "Fit", "Hatchback", "GE6"),
    ("Toyota", "HiAce", "Van", "KDH201"),
)
_COLOURS = ("White", "Silver", "Black", "Blue", "Grey", "Red", "Maroon")
_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
FINANCIER = "Hakiki Sandbox Bank Ltd"


@dataclass(frozen=True)
class VehicleQuery:
    decoded: Decoded
    owner_name: str | None


def _seed(decoded: Decoded) -> int:
    digest = hashlib.sha256(f"{decoded.kind}:{decoded.value}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def reference_for(decoded: Decoded) -> str:
    digest = hashlib.sha256(f"vehicle:{decoded.kind}:{decoded.value}".encode()).hexdigest()
    return f"ref_sbx_{digest[:24]}"


def outcome_for(decoded: Decoded) -> Outcome:
    digits = decoded.serial_digits
    return _LAST_DIGIT.get(digits[-1:], Outcome.VERIFIED) if digits else Outcome.VERIFIED


def _owner(decoded: Decoded, owner_name: str | None, seed: int) -> str:
    digits = decoded.serial_digits
    if digits.endswith("6"):  # someone else owns it
        return next(
            (n for n in _OTHER_OWNERS if not owner_name or not compare_owner(owner_name, n).match),
            _OTHER_OWNERS[0],
        )
    if owner_name:
        return " ".join(w.capitalize() for w in owner_name.split())
    return _OWNERS[seed % len(_OWNERS)]


def _make_model(decoded: Decoded, seed: int) -> tuple[str, str | None, str, str]:
    make, model, body, code = _CARS[(seed >> 8) % len(_CARS)]
    chassis = decoded.chassis
    if chassis is not None and chassis.candidates:  # the first, when makers share the code
        first = chassis.candidates[0]
        return first.maker, first.family, body, chassis.model_code
    vin = decoded.vin
    if vin is not None and vin.manufacturer:
        same_make = next((c[1] for c in _CARS if c[0] == vin.manufacturer), None)
        return vin.manufacturer, (vin.models[0] if vin.models else same_make), body, code
    return make, model, body, code


def record_for(decoded: Decoded, owner_name: str | None) -> RegistryRecord:
    """The sandbox's copy of records for an identifier (deterministic)."""
    seed = _seed(decoded)
    make, model, body, code = _make_model(decoded, seed)
    year = 2006 + (seed >> 16) % 12
    generation = decoded.chassis.generation if decoded.chassis else None
    span = re.search(r"(\d{4})-(\d{4})?", generation) if generation else None
    if span:  # a year the model code's generation was built in
        first = int(span.group(1))
        last = int(span.group(2)) if span.group(2) else first + 8
        year = first + (seed >> 16) % (last - first + 1)
    vin_years = [y for y in decoded.vin.model_years if y >= 1990] if decoded.vin else []
    if vin_years:
        year = min(vin_years)  # stable as the 30-year cycle comes round again
    registered = f"{year + 1}-{(seed >> 24) % 12 + 1:02d}-{(seed >> 28) % 28 + 1:02d}"
    number = f"{(seed >> 32) % 10_000_000:07d}"
    plate = decoded.plate.registration_number if decoded.plate else (
        f"KC{_LETTERS[(seed >> 40) % len(_LETTERS)]} {(seed >> 44) % 900 + 100}"
        f"{_LETTERS[(seed >> 52) % len(_LETTERS)]}"
    )  # fmt: skip
    chassis = decoded.value if decoded.plate is None else f"{code}-{number}"
    caveats: tuple[Caveat, ...] = ()
    if decoded.serial_digits[-2:-1] == "1":
        caveats = (Caveat("financier", FINANCIER, registered),)
    return RegistryRecord(
        registration_number=plate,
        chassis_number=chassis,
        engine_number=f"{_LETTERS[seed % 23]}{_LETTERS[(seed >> 5) % 23]}-{number[::-1]}",
        make=make,
        model=model,
        body_type=body,
        colour=_COLOURS[(seed >> 12) % len(_COLOURS)],
        year_of_manufacture=year,
        registration_date=registered,
        logbook_number=f"A{(seed >> 20) % 10_000_000:07d}",
        owners=(
            Owner(_owner(decoded, owner_name, seed), f"{(seed >> 36) % 90_000_000 + 10_000_000}"),
        ),
        caveats=caveats,
    )


@dataclass(frozen=True)
class VehicleSandbox:
    def answer(self, query: VehicleQuery) -> Looked:
        outcome = outcome_for(query.decoded)
        reference = reference_for(query.decoded)
        record = None
        if outcome is Outcome.VERIFIED:
            record = record_for(query.decoded, query.owner_name)
        return Looked(outcome, PROVIDER, reference, record)

    def completed(self, query: VehicleQuery) -> Looked:
        """What a pending sandbox check ends with: found."""
        record = record_for(query.decoded, query.owner_name)
        return Looked(Outcome.VERIFIED, PROVIDER, reference_for(query.decoded), record)

    def test_values(self) -> list[TestValue]:
        return test_values()


def _expect(outcome: Outcome, **more: object) -> dict[str, object]:
    row = OUTCOMES[outcome]
    return {"http_status": 200, "response_code": row.response_code, "status": outcome.value, **more}


INVALID = {"http_status": 400, "error": "invalid_request"}
GOLDEN_VIN = "1HGCM82633A004352"  # a North American VIN whose check digit (3) holds
BAD_CHECK_DIGIT_VIN = "1HGCM82643A004352"  # the same with position 9 changed: it fails


def _value(description: str, body: dict[str, object], expect: dict[str, object]) -> TestValue:
    return TestValue(description=description, expect=expect, body=body)


def test_values() -> list[TestValue]:
    plate = "registration_number"
    return [
        _value("a civilian plate, last digit 0: found", {plate: "KCA 100A"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.category": "civilian",
                                               "data.status": "FOUND"})),
        _value("owner_name matches the registered owner", {plate: "KCA 100A",
                  "owner_name": "Wanjiru Kamau"},
                  _expect(Outcome.VERIFIED, **{"data.owner_comparison.match": True})),
        _value("last digit 5: not found", {plate: "KCA 105A"},
                  _expect(Outcome.NOT_FOUND, **{"data.status": "NOT_FOUND"})),
        _value("last digit 6 with owner_name: another owner is registered (MISMATCH)",
                  {plate: "KCA 106A", "owner_name": "Wanjiru Kamau"},
                  _expect(Outcome.MISMATCH, **{"data.owner_comparison.match": False})),
        _value("last digit 7: pending, completes a few seconds later with a webhook",
                  {plate: "KCA 107A"}, _expect(Outcome.PENDING, **{"data.state": "pending"})),
        _value("last digit 8: the registry is unavailable (not charged live)",
                  {plate: "KCA 108A"},
                  _expect(Outcome.SOURCE_UNAVAILABLE, **{"data.state": "failed"})),
        _value("last digit 9: soft error", {plate: "KCA 109A"}, _expect(Outcome.FAILED)),
        _value("second-to-last digit 1: the logbook carries a financier's caveat",
                  {plate: "KCA 110A"},
                  _expect(Outcome.VERIFIED, **{"data.vehicle.caveats.0.holder": FINANCIER})),
        _value("a motorcycle plate", {plate: "KMDA 120A"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.category": "motorcycle"})),
        _value("a county government plate (47: Nairobi)", {plate: "47 CG 120A"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.county": "Nairobi"})),
        _value("a VIN: decoded locally, check digit valid", {"vin": GOLDEN_VIN},
                  _expect(Outcome.VERIFIED, **{"data.decoded.vin.manufacturer": "Honda",
                                               "data.decoded.vin.check_digit": "valid"})),
        _value("a VIN whose check digit fails: decoded, flagged in warnings",
                  {"vin": BAD_CHECK_DIGIT_VIN},
                  _expect(Outcome.VERIFIED, **{"data.decoded.vin.check_digit": "invalid"})),
        _value("a Japanese chassis number: model code NZE121 is a Toyota Corolla",
                  {"chassis_number": "NZE121-1234560"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.chassis.maker": "Toyota",
                                               "data.identifier.kind": "jdm_chassis_number"})),
        _value("a plate that fits no Kenyan format: 400 naming registration_number",
                  {plate: "KCI 123A"}, {**INVALID, "details.0.field": plate}),
        _value("a VIN with the letter O: 400 naming vin", {"vin": "1HGCM82633AOO4352"},
                  {**INVALID, "details.0.field": "vin"}),
        _value("two identifiers: 400 naming both", {plate: "KCA 100A", "vin": GOLDEN_VIN},
                  {**INVALID, "details.0.field": "vin"}),
        _value("no identifier: 400", {"owner_name": "Wanjiru Kamau"}, INVALID),
        _value("country_code KE, as every category takes it: found",
                  {"country_code": "KE", plate: "KCA 100A"}, _expect(Outcome.VERIFIED)),
        _value("NG plate of the 2011 format (KJA: Ikeja, Lagos), last digit 0: found",
                  {"country_code": "NG", plate: "KJA-100AB"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.category": "civilian",
                                               "data.decoded.plate.lga": "Ikeja",
                                               "data.decoded.plate.state": "Lagos"})),
        _value("NG plate written with spaces (LSR: Surulere)",
                  {"country_code": "NG", plate: "LSR 100 AA"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.lga": "Surulere",
                                               "data.vehicle.registration_number": "LSR-100AA"})),
        _value("NG plate of 1992-2011, LGA code last (BWR: Bwari, FCT)",
                  {"country_code": "NG", plate: "AB 100-BWR"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.category": "civilian_old",
                                               "data.decoded.plate.lga_code": "BWR"})),
        _value("NG plate whose LGA code Hakiki does not know: decoded, lga null",
                  {"country_code": "NG", plate: "XYZ-100AB"},
                  _expect(Outcome.VERIFIED, **{"data.decoded.plate.lga_code": "XYZ",
                                               "data.decoded.plate.lga": None})),
        _value("NG plate, last digit 5: not found", {"country_code": "NG", plate: "KJA-105AB"},
                  _expect(Outcome.NOT_FOUND, **{"data.status": "NOT_FOUND"})),
        _value("a Kenyan plate sent as NG: 400 naming registration_number",
                  {"country_code": "NG", plate: "KCA 100A"}, {**INVALID, "details.0.field": plate}),
        _value("NG with a VIN: 400 naming vin (Nigerian checks search by plate)",
                  {"country_code": "NG", "vin": GOLDEN_VIN}, {**INVALID, "details.0.field": "vin"}),
        _value("a country whose register is not served: 400 listing KE and NG",
                  {"country_code": "UG", plate: "UAA 123A"},
                  {**INVALID, "details.0.field": "country_code"}),
    ]  # fmt: skip


VERIFY = VehicleSandbox()
