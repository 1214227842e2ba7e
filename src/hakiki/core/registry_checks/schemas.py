"""What every registry check's answer shares: its state, and its billing (the call's charge
and the reversal that refunded it when a pending check ended without a billable answer)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hakiki.core.envelope import Billing, Outcome

State = Literal["pending", "completed", "failed"]

_FAILED = (Outcome.SOURCE_UNAVAILABLE, Outcome.FAILED)


def state_of(outcome: Outcome) -> State:
    """pending while the registry has not answered; failed when it could not (02, 09)."""
    if outcome is Outcome.PENDING:
        return "pending"
    return "failed" if outcome in _FAILED else "completed"


class CheckBilling(Billing):
    reversal_transaction_id: str | None = Field(
        default=None,
        description="The ledger reversal that refunded this charge, when a pending check "
        "ended without a billable answer.",
    )
