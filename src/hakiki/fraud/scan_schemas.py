"""Models of the identity-number fraud scan."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictStr

from hakiki.core.envelope import E, Envelope, Verdict, rendered
from hakiki.core.strict import IsoDate
from hakiki.engines.fraud.risk import Risk
from hakiki.identity.schemas import CountryCode

if TYPE_CHECKING:
    from hakiki.core.calls import Call
    from hakiki.core.wallet.service import Charge


class IdScanRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "channel": "bvn",
                    "number": "22123456787",
                    "first_name": "Musa",
                    "last_name": "Okonkwo",
                    "date_of_birth": "1991-04-12",
                    "phone": "0803 123 4567",
                }
            ]
        },
    )

    channel: StrictStr = Field(description="A channel code from GET /v3/screening/channels.")
    number: StrictStr = Field(min_length=1, max_length=64)
    country_code: CountryCode | None = Field(
        None,
        description="KE, NG, TZ or UG: the channel's country, needed only for codes used in "
        "several countries (nin: NG or UG; passport, drivers_license); without it they mean NG.",
    )
    first_name: StrictStr | None = Field(None, max_length=100)
    last_name: StrictStr | None = Field(None, max_length=100)
    date_of_birth: IsoDate | None = None
    phone: StrictStr | None = Field(None, max_length=32)


class RiskSignal(BaseModel):
    code: str
    weight: int
    reason: str


class RiskAssessment(BaseModel):
    score: int = Field(ge=0, le=100)
    level: Literal["LOW", "MEDIUM", "HIGH", "CRITICAL"]
    signals: list[RiskSignal] = Field(description="Every rule that fired, with its weight.")


class ReportSummary(BaseModel):
    count: int
    organisations: int
    categories: dict[str, int]


# The risk level in the envelope's one vocabulary (the level stays in data.risk).
RISK_VERDICTS: dict[str, Verdict] = {
    "LOW": Verdict.PASS,
    "MEDIUM": Verdict.REVIEW,
    "HIGH": Verdict.FAIL,
    "CRITICAL": Verdict.FAIL,
}


def risk_out(risk: Risk) -> RiskAssessment:
    return RiskAssessment(
        score=risk.score,
        level=risk.level,  # type: ignore[arg-type]
        signals=[RiskSignal(**vars(signal)) for signal in risk.signals],
    )


def reports_out(
    count: int, organisations: int, categories: tuple[tuple[str, int], ...]
) -> ReportSummary:
    return ReportSummary(count=count, organisations=organisations, categories=dict(categories))


class IdentityLinks(BaseModel):
    """Distinct values seen with the number across organisations (synthetic identities)."""

    names: int
    birth_dates: int
    phones: int
    faces: int
    organisations: int


class IdScanData(BaseModel):
    country: str
    channel: str
    number_valid: bool
    format_problem: str | None
    risk: RiskAssessment
    fraud_reports: ReportSummary
    identity_links: IdentityLinks


class IdScanResult(Envelope):
    data: IdScanData


class PhoneScanRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"phone": "0712 345677", "country_code": "KE"}]},
    )

    phone: StrictStr = Field(min_length=1, max_length=32)
    country_code: CountryCode | None = Field(
        None, description="For national numbers (0712...): KE, NG, TZ or UG."
    )


class PhoneDetails(BaseModel):
    valid: bool
    reason: str | None = Field(description="Why the number is not valid.")
    e164: str | None
    national: str | None
    international: str | None
    region: str | None
    line_type: str | None
    original_carrier: str | None = Field(
        description="The operator the number range was allocated to, not after porting."
    )
    location: str | None = Field(description="Area of a fixed line; never known for mobiles.")


class PhoneLinks(BaseModel):
    identities: int = Field(description="Distinct identity numbers seen with this phone.")
    checks_last_7_days: int = Field(description="Earlier phone checks of it, all organisations.")
    checking_organisations_last_7_days: int


class PhoneScanData(BaseModel):
    phone: PhoneDetails
    risk: RiskAssessment
    fraud_reports: ReportSummary
    links: PhoneLinks


class PhoneScanResult(Envelope):
    data: PhoneScanData


class FaceFound(BaseModel):
    box: dict[str, int] = Field(description="left, top, right, bottom in the image's pixels.")
    detector_score: float


class FaceLinks(BaseModel):
    fraud_bank_matches: int = Field(description="Fraud reports whose subject has this face.")
    other_identities: int = Field(
        description="Identity numbers, besides the ones sent, seen with this face."
    )
    closest_distance: float | None = Field(
        description="Distance to the closest known face (same person below 0.6)."
    )


class FaceScanData(BaseModel):
    face: FaceFound
    links: FaceLinks
    fraud_reports: ReportSummary
    risk: RiskAssessment


class FaceScanResult(Envelope):
    data: FaceScanData


class AddressScanRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "address": "P.O. Box 30126-00100, Moi Avenue, Nairobi",
                    "country_code": "KE",
                    "latitude": -1.2833,
                    "longitude": 36.8167,
                }
            ]
        },
    )

    address: StrictStr = Field(min_length=3, max_length=500)
    country_code: CountryCode = Field(description="KE, NG, TZ or UG.")
    latitude: StrictFloat | None = Field(None, ge=-90, le=90)
    longitude: StrictFloat | None = Field(None, ge=-180, le=180)


class PlaceOut(BaseModel):
    code: str
    name: str
    level: str
    latitude: float | None
    longitude: float | None


class ParsedAddress(BaseModel):
    match: Literal["exact", "partial", "none"]
    po_box: str | None
    postal_code: str | None
    area: PlaceOut | None = Field(
        description="County (KE), district (UG), region (TZ), state (NG)."
    )
    subarea: PlaceOut | None = Field(
        description="Ward or constituency (KE), district (TZ), LGA (NG)."
    )
    town: PlaceOut | None
    corrections: list[dict[str, str]] = Field(description="Typos read as known places.")
    conflicts: list[str]
    unmatched: list[str]
    other_countries: list[str]


class GpsOut(BaseModel):
    verdict: Literal["inside", "near", "outside", "unknown"]
    reference: PlaceOut | None
    distance_km: float | None
    radius_km: float | None
    area_verdict: Literal["inside", "near", "outside", "unknown"]
    nearest_town: PlaceOut | None


class AddressScanData(BaseModel):
    address: ParsedAddress
    gps: GpsOut | None
    fraud_reports: ReportSummary
    risk: RiskAssessment


class AddressScanResult(Envelope):
    data: AddressScanData


class RiskIdentifier(BaseModel):
    model_config = ConfigDict(extra="forbid")

    channel: StrictStr = Field(description="A channel code from GET /v3/screening/channels.")
    number: StrictStr = Field(min_length=1, max_length=64)
    country_code: CountryCode | None = Field(
        None, description="KE, NG, TZ or UG, for codes used in several countries (nin...)."
    )


class IdentityRiskRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "first_name": "Musa",
                    "last_name": "Okonkwo",
                    "date_of_birth": "1991-04-12",
                    "identifiers": [{"channel": "bvn", "number": "22123456789"}],
                    "phones": ["0803 123 4567"],
                    "emails": ["musa.o@example.com"],
                    "address": "12 Awolowo Road, Ikoyi, Lagos",
                    "country_code": "NG",
                    "ip": "102.89.1.20",
                }
            ]
        },
    )

    first_name: StrictStr | None = Field(None, max_length=100)
    last_name: StrictStr | None = Field(None, max_length=100)
    date_of_birth: IsoDate | None = None
    identifiers: list[RiskIdentifier] = Field(default_factory=list, max_length=10)
    phones: list[StrictStr] = Field(default_factory=list, max_length=10)
    emails: list[StrictStr] = Field(default_factory=list, max_length=10)
    address: StrictStr | None = Field(None, max_length=500)
    country_code: CountryCode | None = Field(
        None, description="Country of the address and of national phone numbers: KE, NG, TZ, UG."
    )
    ip: StrictStr | None = Field(None, max_length=45)


class IdentityRiskData(BaseModel):
    risk: RiskAssessment
    checked: dict[str, int] = Field(description="How many of each item were checked.")


class IdentityRiskResult(Envelope):
    data: IdentityRiskData


def scan_answer(
    result: type[E], call: Call, charge: Charge | None, *, reference: str, **payload: Any
) -> bytes:
    """A fraud scan's answer in the envelope: its payload in ``data``, its risk level as the
    verdict, ``found`` when anything about the subject raised the score."""
    data_model: type[BaseModel] = result.model_fields["data"].annotation  # type: ignore[assignment]
    data = data_model(**payload)
    risk: RiskAssessment = data.risk  # type: ignore[attr-defined]
    return rendered(
        result,
        call,
        charge,
        reference=reference,
        data=data,
        verdict=RISK_VERDICTS[risk.level],
        found=risk.score > 0,
    )
