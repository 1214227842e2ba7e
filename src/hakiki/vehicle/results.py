"""The answer's data: the local decode, the registry's record, the owner comparison and the
warnings, and the outcome they make."""

from __future__ import annotations

from hakiki.core.envelope import Outcome, data_status
from hakiki.core.registry_checks.schemas import state_of
from hakiki.engines.vehicle import Decoded
from hakiki.vehicle.compare import best_owner
from hakiki.vehicle.lookup import Looked
from hakiki.vehicle.registry import RegistryRecord
from hakiki.vehicle.schemas import (
    CaveatInfo,
    ChassisInfo,
    IdentifierRef,
    ModelCodeInfo,
    OwnerComparison,
    OwnerInfo,
    PlateInfo,
    VehicleData,
    VehicleRecord,
    VinInfo,
)
from hakiki.vehicle.schemas import Decoded as DecodedInfo

MESSAGES = {
    Outcome.VERIFIED: "Vehicle record found.",
    Outcome.NOT_FOUND: "No vehicle record was found for this identifier.",
    Outcome.SOURCE_UNAVAILABLE: "The vehicle registry is unavailable right now; nothing was "
    "charged. Retry later.",
    Outcome.MISMATCH: "A vehicle record was found but its registered owner does not match "
    "owner_name.",
    Outcome.PENDING: "The registry is answering slowly; the check continues: poll GET "
    "/v3/vehicle/status/{reference}, or wait for the verification.completed webhook.",
    Outcome.FAILED: "The vehicle check could not be completed; nothing was charged.",
}


def message_of(outcome: Outcome, looked: Looked) -> str:
    """The answer's message: for a 02 or 09, with what the providers did."""
    if looked.detail and outcome in (Outcome.SOURCE_UNAVAILABLE, Outcome.FAILED):
        return f"{MESSAGES[outcome]} ({looked.detail})"
    return MESSAGES[outcome]


def decoded_info(decoded: Decoded) -> DecodedInfo:
    vin = chassis = plate = None
    if decoded.vin is not None:
        v = decoded.vin
        vin = VinInfo(
            vin=v.vin,
            wmi=v.wmi,
            manufacturer=v.manufacturer,
            region=v.region,
            country=v.country,
            model_years=list(v.model_years),
            plant_code=v.plant_code,
            plant=v.plant,
            models=list(v.models),
            serial=v.serial,
            check_digit=v.check_digit,
            check_digit_expected=v.check_digit_expected,
        )
    if decoded.chassis is not None:
        c = decoded.chassis
        chassis = ChassisInfo(
            chassis_number=c.chassis_number,
            model_code=c.model_code,
            serial=c.serial,
            emission_class=c.emission_class,
            maker=c.maker,
            family=c.family,
            generation=c.generation,
            candidates=[ModelCodeInfo(maker=m.maker, family=m.family, generation=m.generation)
                        for m in c.candidates],
        )  # fmt: skip
    if decoded.plate is not None:
        p = decoded.plate
        plate = PlateInfo(
            registration_number=p.registration_number,
            category=p.category,
            description=p.description,
            series=p.series,
            number=p.number,
            suffix=p.suffix,
            county_code=p.county_code,
            county=p.county,
            mission_code=p.mission_code,
            service=p.service,
            lga_code=p.lga_code,
            lga=p.lga,
            state=p.state,
        )
    return DecodedInfo(vin=vin, chassis=chassis, plate=plate)


def mask(id_number: str | None) -> str | None:
    if not id_number:
        return None
    return "*" * max(len(id_number) - 3, 0) + id_number[-3:]


def record_info(record: RegistryRecord) -> VehicleRecord:
    return VehicleRecord(
        registration_number=record.registration_number,
        chassis_number=record.chassis_number,
        engine_number=record.engine_number,
        make=record.make,
        model=record.model,
        body_type=record.body_type,
        colour=record.colour,
        year_of_manufacture=record.year_of_manufacture,
        registration_date=record.registration_date,
        logbook_number=record.logbook_number,
        owners=[OwnerInfo(name=o.name, id_number_masked=mask(o.id_number)) for o in record.owners],
        caveats=[CaveatInfo(kind=c.kind, holder=c.holder, date=c.date) for c in record.caveats],
    )


def _maker(decoded: Decoded) -> str | None:
    if decoded.vin is not None:
        return decoded.vin.manufacturer
    if decoded.chassis is not None:
        return decoded.chassis.maker
    return None


def _compact(value: str) -> str:
    return "".join(c for c in value.upper() if c.isalnum())


def warnings_for(decoded: Decoded, record: RegistryRecord | None) -> list[str]:
    notes: list[str] = []
    vin = decoded.vin
    if vin is not None and vin.check_digit == "invalid":
        notes.append(
            f"The VIN's check digit (position 9) is {vin.vin[8]} but its other characters give "
            f"{vin.check_digit_expected}: a typo, or an altered VIN."
        )
    if record is None:
        return notes
    maker = _maker(decoded)
    if maker and record.make:
        a, b = maker.lower(), record.make.lower()
        if a not in b and b not in a:
            notes.append(
                f"The registry's make ({record.make}) is not the maker the identifier "
                f"names ({maker})."
            )
    sent = decoded.value if decoded.plate is None else None
    if sent and record.chassis_number and _compact(record.chassis_number) != _compact(sent):
        notes.append("The registry's chassis number differs from the one sent.")
    if record.caveats:
        notes.append(
            f"The logbook carries {len(record.caveats)} caveat(s): a financier or a court "
            "holds an interest in the vehicle."
        )
    return notes


def conclude(
    decoded: Decoded, looked: Looked, owner_name: str | None, threshold: float
) -> tuple[Outcome, VehicleData]:
    """The outcome (MISMATCH when the owner differs) and the answer's data."""
    outcome, record = looked.outcome, looked.record
    comparison = None
    if record is not None and owner_name:
        best = best_owner(owner_name, [o.name for o in record.owners], threshold)
        comparison = OwnerComparison(
            match=best.match,
            score=round(best.score, 4),
            threshold=threshold,
            supplied=owner_name,
            on_record=best.on_record,
            reason=best.reason,
        )
        if not best.match:
            outcome = Outcome.MISMATCH
    data = VehicleData(
        status=data_status(outcome, record is not None),
        state=state_of(outcome),
        identifier=IdentifierRef(field=decoded.field, kind=decoded.kind, value=decoded.value),
        decoded=decoded_info(decoded),
        vehicle=record_info(record) if record is not None else None,
        owner_comparison=comparison,
        fields_not_given=list(record.not_given) if record is not None else [],
        warnings=warnings_for(decoded, record),
    )
    return outcome, data
