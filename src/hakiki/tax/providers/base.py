"""What every tax-registry adapter speaks: a query in, a ``TaxLookup`` out.

An adapter never raises for upstream trouble: timeouts, 5xx answers and bodies it cannot read
become ``UNAVAILABLE`` (02, not charged); refused credentials become ``FAILED`` (09, not
charged, with a message for the operator).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date
from enum import StrEnum
from typing import Any, Literal, Protocol

Check = Literal["pin", "tcc", "withholding"]


@dataclass(frozen=True)
class TaxQuery:
    """One checked request, as the adapter and the completion job need it (stored encrypted
    with a pending check). Numbers are normalised."""

    check: Check
    country: str
    pin: str | None = None  # the taxpayer's PIN or TIN (pin, tcc)
    national_id: str | None = None  # pin: look the PIN up by national ID
    certificate_number: str | None = None  # tcc, withholding
    withholder_pin: str | None = None  # withholding
    payee_pin: str | None = None  # withholding

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, value: dict[str, Any]) -> TaxQuery:
        return cls(**value)

    @property
    def by_id(self) -> bool:
        return self.check == "pin" and self.national_id is not None


class LookupOutcome(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"  # down, slow or answering garbage: retryable, not billed
    FAILED = "failed"  # the registry refused the request (credentials): not billed


@dataclass(frozen=True)
class TaxpayerRecord:
    """A PIN checker's answer."""

    pin: str
    name: str | None
    taxpayer_type: str | None  # as the registry wrote it ("Individual", "Non Individual")
    pin_status: str | None  # as the registry wrote it ("Active", "Suspended", ...)


@dataclass(frozen=True)
class ComplianceCertificate:
    """A Tax Compliance Certificate checker's answer."""

    number: str
    pin: str | None
    taxpayer_name: str | None
    status: str | None  # as the registry wrote it
    issue_date: date | None
    expiry_date: date | None


@dataclass(frozen=True)
class WithholdingCertificate:
    """A withholding tax certificate: who withheld from whom, what and when."""

    number: str
    withholder_pin: str | None
    withholder_name: str | None
    payee_pin: str | None
    payee_name: str | None
    tax_type: str | None
    gross_amount: int | None  # minor units
    tax_amount: int | None  # minor units
    payment_date: date | None


Record = TaxpayerRecord | ComplianceCertificate | WithholdingCertificate


@dataclass(frozen=True)
class TaxLookup:
    outcome: LookupOutcome
    provider: str
    record: Record | None = None
    provider_reference: str | None = None
    message: str = ""


class TaxProvider(Protocol):
    """A configured upstream that answers some checks in some countries."""

    @property
    def name(self) -> str: ...

    def supports(self, query: TaxQuery) -> bool: ...

    async def lookup(self, query: TaxQuery) -> TaxLookup: ...

    async def aclose(self) -> None: ...
