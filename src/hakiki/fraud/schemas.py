"""Models of fraud reports (the shared fraud database)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from hakiki.core.envelope import Envelope
from hakiki.core.pagination import Pagination
from hakiki.core.strict import IsoDate
from hakiki.fraud import examples

Category = Literal[
    "identity_theft",
    "synthetic_identity",
    "account_takeover",
    "first_party_fraud",
    "loan_stacking",
    "document_forgery",
    "impersonation",
    "card_fraud",
    "mobile_money_fraud",
    "sim_swap",
    "money_laundering",
    "other",
]
IdentifierType = Literal[
    "bvn",
    "nin",
    "national_id",
    "nida",
    "passport",
    "drivers_license",
    "kra_pin",
    "tin",
    "cac",
    "other",
]
Status = Literal["submitted"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Identifier(Strict):
    type: IdentifierType
    value: StrictStr = Field(min_length=3, max_length=64)


class ReportSubject(Strict):
    first_name: StrictStr | None = Field(None, max_length=100)
    middle_name: StrictStr | None = Field(None, max_length=100)
    last_name: StrictStr | None = Field(None, max_length=100)
    date_of_birth: IsoDate | None = None
    gender: Literal["male", "female"] | None = None
    country: StrictStr | None = Field(None, pattern=r"^[A-Z]{2}$", description="ISO 3166 alpha-2.")
    identifiers: list[Identifier] = Field(default_factory=list, max_length=20)
    phones: list[StrictStr] = Field(default_factory=list, max_length=10)
    emails: list[StrictStr] = Field(default_factory=list, max_length=10)
    address: StrictStr | None = Field(
        None, max_length=500, description="Postal or physical address (with `country`)."
    )
    face_image_base64: StrictStr | None = Field(
        None,
        max_length=14_000_000,
        description="A photo of the subject (JPEG, PNG or WebP, one face), base64: its face joins "
        "the fraud bank that face scans match against. Not stored or returned itself.",
    )

    @model_validator(mode="after")
    def _identifiable(self) -> ReportSubject:
        if not (self.identifiers or self.phones or self.emails or self.last_name):
            raise ValueError("give at least one identifier, phone, email or name of the subject")
        for email in self.emails:
            if "@" not in email.strip()[1:-1]:
                raise ValueError(f"{email!r} is not an e-mail address")
        return self


class Incident(Strict):
    category: Category
    date: IsoDate
    description: StrictStr = Field(min_length=10, max_length=4000)
    amount: StrictInt | None = Field(None, ge=0, description="Loss in minor units of `currency`.")
    currency: StrictStr | None = Field(None, pattern=r"^[A-Z]{3}$")
    bank: StrictStr | None = Field(None, max_length=200)
    account_number: StrictStr | None = Field(None, max_length=40)

    @model_validator(mode="after")
    def _currency_with_amount(self) -> Incident:
        if self.amount is not None and self.currency is None:
            raise ValueError("an amount needs its currency")
        return self


class FraudReportRequest(Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "subject": {
                        "first_name": "Musa",
                        "last_name": "Okonkwo",
                        "date_of_birth": "1991-04-12",
                        "country": "NG",
                        "identifiers": [{"type": "bvn", "value": "22123456789"}],
                        "phones": ["+2348031234567"],
                    },
                    "incident": {
                        "category": "synthetic_identity",
                        "date": "2026-10-02",
                        "description": "Loan taken with a BVN whose face matched two others.",
                        "amount": 25000000,
                        "currency": "NGN",
                    },
                    "evidence": ["case-2026-1142"],
                }
            ]
        },
    )

    subject: ReportSubject
    incident: Incident
    evidence: list[StrictStr] = Field(
        default_factory=list, max_length=20, description="References to your own case files."
    )


class FraudReport(FraudReportRequest):
    # Its own example: the request's, inherited, would lack id, status and created_at.
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [examples.FRAUD_REPORT]}
    )

    id: str
    status: Status
    face_enrolled: bool = Field(False, description="The subject's face joined the fraud bank.")
    created_at: datetime


class FraudReportResult(Envelope):
    """A submitted report in the envelope: ``reference`` is its id, ``data`` the report."""

    data: FraudReport


class FraudReportList(BaseModel):
    data: list[FraudReport]
    pagination: Pagination
