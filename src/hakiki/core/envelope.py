"""The verification result envelope and its one table of meanings (docs/api.md#conventions)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Self

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from hakiki.core.wallet.service import Charge


class Outcome(StrEnum):
    VERIFIED = "VERIFIED"
    NOT_FOUND = "NOT_FOUND"
    SOURCE_UNAVAILABLE = "SOURCE_UNAVAILABLE"
    MISMATCH = "MISMATCH"
    PENDING = "PENDING"
    FAILED = "FAILED"


@dataclass(frozen=True)
class OutcomeRow:
    response_code: str
    ok: bool
    found: bool
    soft_error: bool
    async_pending: bool
    billable: bool
    message: str


OUTCOMES: dict[Outcome, OutcomeRow] = {
    Outcome.VERIFIED: OutcomeRow("00", True, True, False, False, True, "Identity verified."),
    Outcome.NOT_FOUND: OutcomeRow(
        "01", True, False, False, False, True, "No record was found for this number."
    ),
    Outcome.SOURCE_UNAVAILABLE: OutcomeRow(
        "02",
        False,
        False,
        True,
        False,
        False,
        "The registry is unavailable right now; nothing was charged. Retry later.",
    ),
    Outcome.MISMATCH: OutcomeRow(
        "04",
        True,
        True,
        False,
        False,
        True,
        "A record was found but its name does not match the name supplied.",
    ),
    Outcome.PENDING: OutcomeRow(
        "05",
        True,
        False,
        False,
        True,
        True,
        "The registry is answering slowly; the verification continues in the background.",
    ),
    Outcome.FAILED: OutcomeRow(
        "09",
        False,
        False,
        True,
        False,
        False,
        "The verification could not be completed; nothing was charged.",
    ),
}


class Billing(BaseModel):
    charged: bool = Field(description="Whether this call debited the wallet.")
    amount: int = Field(description="Amount debited, in minor units of `currency`.")
    currency: str
    transaction_id: str | None = Field(description="The wallet transaction, when charged.")

    @classmethod
    def of(cls, charge: Charge | None, currency: str, **more: Any) -> Self:
        """What a call's charge (None: not charged) says to its caller."""
        return cls(
            charged=charge is not None,
            amount=charge.amount if charge else 0,
            currency=charge.currency if charge else currency,
            transaction_id=charge.transaction_id if charge else None,
            **more,
        )


class ResultBase(BaseModel):
    """Fields of every billable call's result: verifications, screenings and fraud scans."""

    request_id: str = Field(description="Identifier of the request; also in X-Request-Id.")
    live: bool = Field(description="true for live keys, false in sandbox.")
    reference: str = Field(description="This result's reference, to quote (and poll, for KYC).")
    billing: Billing


class Envelope(ResultBase):
    """Fields shared by every verification result (the spec's result object)."""

    ok: bool = Field(description="false only when the call could not be completed.")
    response_code: str = Field(
        description="00 VERIFIED, 01 NOT_FOUND, 02 SOURCE_UNAVAILABLE, 04 MISMATCH, "
        "05 PENDING, 09 FAILED."
    )
    status: Outcome = Field(description="The outcome; see the response_code table.")
    found: bool = Field(description="Whether the registry holds a record for the number.")
    soft_error: bool = Field(description="A non-fatal upstream error: retry later.")
    async_pending: bool = Field(description="true while the verification continues.")
    message: str = Field(description="Human-readable outcome.")
    provider: str = Field(description="The upstream that verified the number.")


def envelope_fields(outcome: Outcome) -> dict[str, Any]:
    row = OUTCOMES[outcome]
    return {
        "ok": row.ok,
        "response_code": row.response_code,
        "status": outcome,
        "found": row.found,
        "soft_error": row.soft_error,
        "async_pending": row.async_pending,
        "message": row.message,
    }
