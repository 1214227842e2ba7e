"""Request and response models of the KYC endpoints."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, field_validator

from hakiki.core.envelope import Billing, Envelope
from hakiki.identity.schemas import CountryCode, Identity, NameComparison

Document = Literal["national_id", "drivers_license", "passport"]
State = Literal["pending", "completed", "failed"]


class KycRequest(BaseModel):
    """Fields shared by the three document verifications."""

    model_config = ConfigDict(extra="forbid")

    country_code: CountryCode = Field(description="The issuing country: KE, NG, TZ or UG.")
    number: StrictStr = Field(
        min_length=1,
        max_length=64,
        description="The document number; spaces, dashes and case are ignored.",
    )
    compare: StrictBool = Field(
        default=False,
        description="Compare first_name and last_name with the names on record "
        "(both required when true).",
    )
    first_name: StrictStr | None = Field(default=None, max_length=100)
    last_name: StrictStr | None = Field(default=None, max_length=100)


class NationalIdRequest(KycRequest):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"country_code": "KE", "number": "20000000"}]},
    )


class DriversLicenseRequest(KycRequest):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "country_code": "NG",
                    "number": "AAA00000AA00",
                    "first_name": "Adaeze",
                    "last_name": "Okafor",
                }
            ]
        },
    )


class PassportRequest(KycRequest):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"country_code": "KE", "number": "AK0000000"},
                {"country_code": "NG", "number": "A00000000", "last_name": "Okafor"},
            ]
        },
    )

    mrz: list[StrictStr] | StrictStr | None = Field(
        default=None,
        description="The passport's machine-readable zone (TD3): two lines of 44 characters, "
        "as an array or one string with a line break. Its check digits are verified (400 "
        "naming the failed field) and its document number must be `number`.",
    )

    @field_validator("mrz")
    @classmethod
    def _two_lines(cls, value: list[str] | str | None) -> list[str] | None:
        if value is None:
            return None
        lines = value.split() if isinstance(value, str) else value
        if len(lines) != 2:
            raise ValueError("a passport MRZ (TD3) has two lines of 44 characters")
        return lines


class DocumentRef(BaseModel):
    type: Document
    country: str
    channel: str = Field(description="The channel that verified it (GET /v3/screening/channels).")


class MrzSummary(BaseModel):
    """What the passport's machine-readable zone says; every check digit passed."""

    issuing_state: str
    nationality: str
    surname: str
    given_names: str
    document_number: str
    birth_date: str = Field(description="YYMMDD as printed in the zone.")
    expiry_date: str = Field(description="YYMMDD as printed in the zone.")
    sex: str


class KycData(BaseModel):
    status: Literal["FOUND", "NOT_FOUND", "PENDING"] = Field(
        description="Whether a record was found."
    )
    state: State = Field(
        description="The verification's state: pending, then completed (the registry "
        "answered) or failed (it could not); a final state never changes."
    )
    document: DocumentRef
    identity: Identity | None = Field(description="The record found; null when none was.")
    comparison: NameComparison | None = Field(
        default=None, description="Present when compare was true and a record was found."
    )
    mrz: MrzSummary | None = Field(default=None, description="Present when an MRZ was sent.")


class KycBilling(Billing):
    reversal_transaction_id: str | None = Field(
        default=None,
        description="The ledger reversal that refunded this charge, when a pending "
        "verification ended without a billable answer.",
    )


class KycResult(Envelope):
    billing: KycBilling
    data: KycData
