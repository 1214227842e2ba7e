"""Request and response models of POST /v3/vehicle/verify."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictStr

from hakiki.core.countries import served_country
from hakiki.core.envelope import Envelope
from hakiki.core.registry_checks.schemas import CheckBilling, State
from hakiki.vehicle import examples

IdentifierField = Literal["vin", "chassis_number", "registration_number"]
IdentifierKind = Literal["vin", "jdm_chassis_number", "registration_number"]
# The vehicle registers checked: Kenya's (NTSA) and Nigeria's (FRSC plates), through the
# aggregator. Another country is a 400 listing these, as in every category that depends on one.
VEHICLE_COUNTRIES = ("KE", "NG")
VehicleCountry = Annotated[
    Literal["KE", "NG"], BeforeValidator(served_country(VEHICLE_COUNTRIES, "vehicle checks"))
]


class VehicleRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [examples.VEHICLE_REQUEST]}
    )

    country_code: VehicleCountry = Field(
        default="KE",
        description="The register's country: KE (NTSA) or NG (Nigerian plates; search by "
        "registration_number); any other is a 400 listing them.",
    )
    vin: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="A 17-character VIN (ISO 3779); spaces, dashes and case are ignored.",
    )
    chassis_number: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="The chassis number on the logbook: a Japanese frame number "
        "(`NZE121-1234567`) or a 17-character VIN.",
    )
    registration_number: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="A Kenyan plate (`KCA 123A`, `KAA 123`, `KMDA 123A`, `GK A123B`, "
        "`47 CG 123A`, `1 CD 12K`, `KAF 123`, `ZD 1234`...) or, with country_code NG, a "
        "Nigerian one (`KJA-123AB` or `LSR 123 AA`, LGA code first; `AB 123-KJA` of 1992-2011; "
        "`12 CD 34`); spaces, dashes and case are ignored.",
    )
    owner_name: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="The owner's name as the customer gave it (at least two words): compared "
        "with the registered owners; a different owner makes the answer MISMATCH.",
    )
    owner_first_name: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="The owner's first name. With owner_last_name, Nigerian plates may also be "
        "looked up at QoreID (the second provider, which needs both); without owner_name, the "
        "two are compared with the registered owners.",
    )
    owner_last_name: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="The owner's last name (surname); see owner_first_name.",
    )


class IdentifierRef(BaseModel):
    field: IdentifierField = Field(description="The request field the identifier came in.")
    kind: IdentifierKind = Field(description="What the identifier is.")
    value: str = Field(description="The identifier, normalised.")


class VinInfo(BaseModel):
    vin: str
    wmi: str = Field(description="World manufacturer identifier (positions 1-3).")
    manufacturer: str | None
    region: str | None
    country: str | None
    model_years: list[int] = Field(
        description="Years position 10 can mean, most recent first (the code repeats every "
        "30 years; outside North America and China makers need not encode it)."
    )
    plant_code: str = Field(description="Position 11: the assembly plant's code.")
    plant: str | None = Field(description="The plant's name, where vininfo knows it.")
    models: list[str] = Field(description="Models the VIN can denote, where vininfo knows them.")
    serial: str
    check_digit: Literal["valid", "invalid", "not_applicable"] = Field(
        description="Position 9, mandatory for North American (WMI 1-5) and Chinese (L) VINs "
        "only: elsewhere `not_applicable`."
    )
    check_digit_expected: str | None = Field(
        description="The check digit the other characters give, where it applies."
    )


class ModelCodeInfo(BaseModel):
    maker: str
    family: str
    generation: str


class ChassisInfo(BaseModel):
    chassis_number: str
    model_code: str
    serial: str
    emission_class: str | None = Field(description="A prefix such as DBA- when one was sent.")
    maker: str | None = Field(description="null when the code is unknown or several makers use it.")
    family: str | None
    generation: str | None
    candidates: list[ModelCodeInfo] = Field(description="Every model the code can denote.")


class PlateInfo(BaseModel):
    registration_number: str = Field(description="The plate as printed.")
    category: Literal[
        "civilian",
        "civilian_old",
        "motorcycle",
        "tricycle",
        "tractor",
        "heavy_machinery",
        "trailer",
        "national_government",
        "county_government",
        "governor",
        "diplomatic",
        "consular",
        "military",
    ]
    description: str
    series: str | None
    number: str | None
    suffix: str | None
    county_code: int | None = Field(description="County plates and governors' (01-47).")
    county: str | None
    mission_code: int | None = Field(description="Diplomatic plates: the mission's code.")
    service: str | None = Field(description="Military plates: Army, Air Force or Navy.")
    lga_code: str | None = Field(
        default=None,
        description="Nigerian plates: the three letters of the Local Government Area that "
        "registered the vehicle.",
    )
    lga: str | None = Field(
        default=None,
        description="Nigerian plates: that LGA, where Hakiki's table knows the code (else null).",
    )
    state: str | None = Field(default=None, description="Nigerian plates: the LGA's state.")


class Decoded(BaseModel):
    """What the identifier says by itself, read locally in both modes."""

    vin: VinInfo | None
    chassis: ChassisInfo | None
    plate: PlateInfo | None


class OwnerInfo(BaseModel):
    name: str
    id_number_masked: str | None = Field(
        description="The owner's ID or PIN with all but its last three characters masked."
    )


class CaveatInfo(BaseModel):
    kind: str = Field(description="As the registry words it (financier, court order...).")
    holder: str | None
    date: str | None


class VehicleRecord(BaseModel):
    """The registry's copy of records."""

    registration_number: str | None
    chassis_number: str | None
    engine_number: str | None
    make: str | None
    model: str | None
    body_type: str | None
    colour: str | None
    year_of_manufacture: int | None
    registration_date: str | None
    logbook_number: str | None
    owners: list[OwnerInfo]
    caveats: list[CaveatInfo] = Field(description="Empty when the logbook carries none.")


class OwnerComparison(BaseModel):
    match: bool
    score: float
    threshold: float
    supplied: str
    on_record: str | None = Field(description="The registered owner compared (the closest).")
    reason: str


class VehicleData(BaseModel):
    status: Literal["FOUND", "NOT_FOUND", "PENDING"]
    state: State = Field(
        description="pending while the registry has not answered; then completed or failed."
    )
    identifier: IdentifierRef
    decoded: Decoded
    vehicle: VehicleRecord | None = Field(description="The registry's record; null if none.")
    owner_comparison: OwnerComparison | None = Field(
        description="Present when owner_name was sent and a record was found."
    )
    fields_not_given: list[str] = Field(
        default_factory=list,
        description="Fields of `vehicle` the answering provider does not give at all (QoreID: "
        "engine_number, body_type, colour, year_of_manufacture, registration_date, "
        "logbook_number, caveats): null or empty there means not asked, not absent from the "
        "register.",
    )
    warnings: list[str] = Field(
        description="What deserves a second look: a failed VIN check digit, a make that "
        "differs from the identifier's, caveats on the logbook."
    )


class VehicleResult(Envelope):
    """A vehicle check's answer; the status call answers the same for a check as it stands."""

    billing: CheckBilling
    data: VehicleData
