"""The registry half's answer, whoever gave it (the sandbox or a live adapter)."""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.core.envelope import Outcome
from hakiki.engines.vehicle import Decoded
from hakiki.vehicle.registry import RegistryOutcome, RegistryRecord, RegistryResult, SearchBy

_OUTCOMES = {
    RegistryOutcome.FOUND: Outcome.VERIFIED,
    RegistryOutcome.NOT_FOUND: Outcome.NOT_FOUND,
    RegistryOutcome.UNAVAILABLE: Outcome.SOURCE_UNAVAILABLE,
    RegistryOutcome.FAILED: Outcome.FAILED,
}


@dataclass(frozen=True)
class Looked:
    outcome: Outcome  # VERIFIED, NOT_FOUND, PENDING, SOURCE_UNAVAILABLE or FAILED
    provider: str
    reference: str
    record: RegistryRecord | None
    provider_reference: str | None = None
    #: What the providers did, when none answered (02, 09): each one's words, "not asked" ones
    #: with the reason (core/providers/chain.py).
    detail: str | None = None


def looked_from(result: RegistryResult, reference: str) -> Looked:
    """An adapter's answer under our ``reference`` (the one events name)."""
    outcome = _OUTCOMES[result.outcome]
    record = result.record if outcome is Outcome.VERIFIED else None
    if outcome is Outcome.VERIFIED and record is None:
        outcome = Outcome.SOURCE_UNAVAILABLE
    failed = outcome in (Outcome.SOURCE_UNAVAILABLE, Outcome.FAILED)
    detail = result.message or None if failed else None
    return Looked(outcome, result.provider, reference, record, result.provider_reference, detail)


def search_by(decoded: Decoded) -> SearchBy:
    return "registration_number" if decoded.plate is not None else "chassis_number"
