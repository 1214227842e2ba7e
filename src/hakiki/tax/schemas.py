"""Request and response models of the tax endpoints."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictStr, StringConstraints
from pydantic_core import PydanticCustomError

from hakiki.core.envelope import Envelope
from hakiki.core.registry_checks.schemas import CheckBilling, State
from hakiki.engines.tax.readings import PinStatus

TAX_COUNTRIES = ("KE", "TZ", "UG", "NG")
FoundStatus = Literal["FOUND", "NOT_FOUND", "PENDING"]
TaxpayerKind = Literal["individual", "non_individual"]


def _tax_country(value: Any) -> Any:
    listed = ", ".join(TAX_COUNTRIES)
    if not isinstance(value, str):
        raise PydanticCustomError(
            "country_code_type",
            "must be a two-letter country code in a string: one of {supported}",
            {"supported": listed},
        )
    code = value.strip().upper()
    if code not in TAX_COUNTRIES:
        raise PydanticCustomError(
            "unsupported_country",
            "{given} is not a country the tax checks serve; use one of {supported}",
            {"given": repr(value[:10]), "supported": listed},
        )
    return code


TaxCountry = Annotated[Literal["KE", "TZ", "UG", "NG"], BeforeValidator(_tax_country)]

Number = Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")

    country_code: TaxCountry = Field(
        description="The revenue authority's country: KE (KRA), UG (URA), TZ (TRA) or NG (FIRS)."
    )


class PinRequest(_Request):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"country_code": "KE", "pin": "A000000000W"},
                {"country_code": "KE", "national_id": "20000000"},
                {"country_code": "TZ", "pin": "100-000-000"},
                {"country_code": "NG", "pin": "20000000-0000"},
            ]
        },
    )

    pin: Number | None = Field(
        default=None,
        description="The taxpayer number: a KRA PIN (A or P, 9 digits, a letter), a URA TIN "
        "(10 digits), a TRA TIN (9 digits, NNN-NNN-NNN) or a FIRS TIN (10 to 14 digits, "
        "e.g. 20304753-0001). Spaces, dashes and case are ignored.",
    )
    national_id: Number | None = Field(
        default=None,
        description="KE only: look the PIN up by the holder's national ID number (7-9 digits). "
        "With `pin` too, the answer says whether the PIN registered to the ID is that PIN.",
    )


class TccRequest(_Request):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"country_code": "KE", "pin": "A000000000W", "certificate_number": "KRAEON00000000"}
            ]
        },
    )

    pin: Number = Field(description="The PIN (TIN) the certificate was issued to.")
    certificate_number: Number = Field(
        description="The Tax Compliance Certificate's number, e.g. KRAEON1294973222."
    )


class WithholdingRequest(_Request):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "country_code": "KE",
                    "certificate_number": "KRAWHT00000000",
                    "withholder_pin": "P000000000K",
                    "payee_pin": "A000000000W",
                }
            ]
        },
    )

    certificate_number: Number = Field(description="The withholding tax certificate's number.")
    withholder_pin: Number = Field(
        description="The PIN (TIN) of who withheld the tax and issued the certificate."
    )
    payee_pin: Number = Field(description="The PIN (TIN) of who was paid (the withholdee).")


# ---------------------------------------------------------------------- answers


class NumberReading(BaseModel):
    """What the number's format says, read locally (the same in sandbox and live)."""

    number: str = Field(description="Normalised: no spaces or dashes, upper case.")
    display: str = Field(
        description="As the authority writes it (TRA TINs as NNN-NNN-NNN, 12-digit FIRS TINs "
        "as NNNNNNNN-NNNN)."
    )
    authority: str = Field(description="KRA, URA, TRA or FIRS.")
    taxpayer_type: TaxpayerKind | None = Field(
        description="A KRA PIN's first letter: A individual, P non-individual; null for TINs."
    )


class Taxpayer(BaseModel):
    pin: str = Field(description="The PIN (TIN) on record.")
    name: str | None = Field(description="The taxpayer's name as the authority holds it.")
    type: TaxpayerKind | None = Field(description="individual or non_individual.")
    pin_status: PinStatus | None = Field(
        description="active, suspended, cancelled, stopped, dormant, inactive, or unknown "
        "(a status word not known to Hakiki); null when the registry gives none (look-up by ID)."
    )


class _Data(BaseModel):
    status: FoundStatus = Field(description="Whether the authority holds a record.")
    state: State = Field(
        description="pending, then completed (the authority answered) or failed (it could "
        "not); a final state never changes."
    )
    country: str
    authority: str = Field(description="KRA, URA, TRA or FIRS.")


class PinData(_Data):
    check: Literal["pin"] = "pin"
    searched_by: Literal["pin", "national_id"]
    pin_format: NumberReading | None = Field(description="The PIN sent, read locally.")
    verdict: Literal["valid", "inactive", "unknown", "not_found", "mismatch"] | None = Field(
        description="valid (registered and active, or registered to the ID), inactive "
        "(registered but suspended, cancelled, stopped or dormant), unknown (a status Hakiki "
        "does not know), not_found, mismatch (the ID's PIN is not the PIN sent); null until "
        "the authority answers."
    )
    taxpayer: Taxpayer | None = Field(description="The record; null when none was found.")
    pin_matches: bool | None = Field(
        description="With national_id and pin: whether the ID's PIN is the PIN sent."
    )


class Certificate(BaseModel):
    number: str
    pin: str | None = Field(description="The PIN the certificate was issued to.")
    taxpayer_name: str | None
    status: str | None = Field(description="The certificate's status as the authority wrote it.")
    issue_date: str | None = Field(description="YYYY-MM-DD.")
    expiry_date: str | None = Field(description="YYYY-MM-DD.")


class TccData(_Data):
    check: Literal["tcc"] = "tcc"
    pin_format: NumberReading
    verdict: Literal["valid", "expired", "invalid", "not_found", "mismatch"] | None = Field(
        description="valid (in force today), expired (past expiry_date), invalid (revoked, "
        "cancelled or suspended), not_found, mismatch (issued to another PIN); null until the "
        "authority answers."
    )
    certificate: Certificate | None
    pin_matches: bool | None = Field(description="Whether the certificate names the PIN sent.")


class Party(BaseModel):
    pin: str | None
    name: str | None


class WithholdingDetails(BaseModel):
    number: str
    withholder: Party
    payee: Party
    tax_type: str | None = Field(description="As the authority wrote it.")
    gross_amount: int | None = Field(description="The payment, in minor units of currency.")
    tax_amount: int | None = Field(description="The tax withheld, in minor units of currency.")
    currency: str = Field(description="KES, UGX, TZS or NGN.")
    payment_date: str | None = Field(description="YYYY-MM-DD.")


class WithholdingData(_Data):
    check: Literal["withholding"] = "withholding"
    verdict: Literal["valid", "mismatch", "not_found"] | None = Field(
        description="valid (the certificate exists and names both PINs, as far as the "
        "authority says), mismatch (it names another withholder or payee), not_found; null "
        "until the authority answers."
    )
    certificate: WithholdingDetails | None
    withholder_pin_matches: bool | None
    payee_pin_matches: bool | None


class PinResult(Envelope):
    billing: CheckBilling
    data: PinData


class TccResult(Envelope):
    billing: CheckBilling
    data: TccData


class WithholdingResult(Envelope):
    billing: CheckBilling
    data: WithholdingData


TaxData = Annotated[PinData | TccData | WithholdingData, Field(discriminator="check")]


class TaxResult(Envelope):
    """Any tax check as it stands (the status call)."""

    billing: CheckBilling
    data: TaxData
