"""From a registry's answer to the check's outcome, structured verdict and message. The same in
sandbox and live, for the first answer and for a pending check's completion."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from hakiki.core.envelope import Outcome, data_status
from hakiki.core.registry_checks.schemas import state_of
from hakiki.engines.tax.formats import AUTHORITIES, parse_taxpayer_number
from hakiki.engines.tax.readings import (
    certificate_verdict,
    pin_status,
    same_number,
    taxpayer_type,
)
from hakiki.tax.providers.base import (
    ComplianceCertificate,
    LookupOutcome,
    TaxLookup,
    TaxpayerRecord,
    TaxQuery,
    WithholdingCertificate,
)
from hakiki.tax.schemas import (
    Certificate,
    NumberReading,
    Party,
    PinData,
    Taxpayer,
    TccData,
    WithholdingData,
    WithholdingDetails,
)

CURRENCIES = {"KE": "KES", "UG": "UGX", "TZ": "TZS", "NG": "NGN"}
_OUTCOMES = {
    LookupOutcome.NOT_FOUND: Outcome.NOT_FOUND,
    LookupOutcome.UNAVAILABLE: Outcome.SOURCE_UNAVAILABLE,
    LookupOutcome.FAILED: Outcome.FAILED,
}

Data = PinData | TccData | WithholdingData


@dataclass(frozen=True)
class Concluded:
    outcome: Outcome
    data: Data
    message: str | None  # the verdict in words; None: the envelope's own message


def reading_of(country: str, number: str | None) -> NumberReading | None:
    if number is None:
        return None
    parsed = parse_taxpayer_number(country, number)
    return NumberReading(
        number=parsed.number,
        display=parsed.display,
        authority=parsed.authority,
        taxpayer_type=parsed.taxpayer_type,
    )


def conclude(query: TaxQuery, lookup: TaxLookup | None, today: date) -> Concluded:
    """``lookup`` None: the registry has not answered yet (PENDING)."""
    if lookup is None:
        outcome = Outcome.PENDING
    elif lookup.outcome is LookupOutcome.FOUND and lookup.record is not None:
        outcome = Outcome.VERIFIED
    else:
        outcome = _OUTCOMES.get(lookup.outcome, Outcome.FAILED)
    record = lookup.record if lookup is not None and outcome is Outcome.VERIFIED else None
    if query.check == "pin":
        assert record is None or isinstance(record, TaxpayerRecord)
        return _pin(query, outcome, record)
    if query.check == "tcc":
        assert record is None or isinstance(record, ComplianceCertificate)
        return _tcc(query, outcome, record, today)
    assert record is None or isinstance(record, WithholdingCertificate)
    return _withholding(query, outcome, record)


def _common(query: TaxQuery, outcome: Outcome, found: bool) -> dict[str, object]:
    return {
        "status": data_status(outcome, found),
        "state": state_of(outcome),
        "country": query.country,
        "authority": AUTHORITIES[query.country].name,
    }


def _pin(query: TaxQuery, outcome: Outcome, record: TaxpayerRecord | None) -> Concluded:
    taxpayer = None
    matches = None
    verdict: str | None = "not_found" if outcome is Outcome.NOT_FOUND else None
    message = None
    if record is not None:
        reading = reading_of(query.country, record.pin)
        kind = taxpayer_type(record.taxpayer_type) or (reading.taxpayer_type if reading else None)
        status = pin_status(record.pin_status) if record.pin_status else None
        taxpayer = Taxpayer(pin=record.pin, name=record.name, type=kind, pin_status=status)
        if query.by_id and query.pin is not None:
            matches = same_number(query.pin, record.pin)
        if matches is False:
            outcome, verdict = Outcome.MISMATCH, "mismatch"
            message = "The PIN registered to this national ID is not the PIN sent."
        elif status in (None, "active"):
            verdict = "valid"
            if query.by_id:
                message = "A PIN is registered to this national ID."
            elif status is None:  # FIRS through Prembly: registered, no status given
                authority = AUTHORITIES[query.country].name
                message = f"The number is registered with {authority}, which gives no status."
            else:
                message = "The PIN is registered and active."
        elif status == "unknown":
            verdict = "unknown"
            message = "The PIN is registered; its status is not one Hakiki knows."
        else:
            verdict = "inactive"
            message = f"The PIN is registered but {status}."
    elif outcome is Outcome.NOT_FOUND:
        message = (
            "No PIN is registered to this national ID."
            if query.by_id
            else "No taxpayer holds this PIN."
        )
    data = PinData(
        **_common(query, outcome, record is not None),  # type: ignore[arg-type]
        searched_by="national_id" if query.by_id else "pin",
        pin_format=reading_of(query.country, query.pin),
        verdict=verdict,  # type: ignore[arg-type]
        taxpayer=taxpayer,
        pin_matches=matches,
    )
    return Concluded(outcome, data, message)


def _tcc(
    query: TaxQuery, outcome: Outcome, record: ComplianceCertificate | None, today: date
) -> Concluded:
    certificate = None
    matches = None
    verdict: str | None = "not_found" if outcome is Outcome.NOT_FOUND else None
    message = "No such certificate for this PIN." if verdict else None
    if record is not None:
        certificate = Certificate(
            number=record.number,
            pin=record.pin,
            taxpayer_name=record.taxpayer_name,
            status=record.status,
            issue_date=record.issue_date.isoformat() if record.issue_date else None,
            expiry_date=record.expiry_date.isoformat() if record.expiry_date else None,
        )
        matches = same_number(query.pin, record.pin) if record.pin else None
        if matches is False:
            outcome, verdict = Outcome.MISMATCH, "mismatch"
            message = "The certificate was issued to another PIN."
        else:
            verdict = certificate_verdict(record.status, record.expiry_date, today)
            message = _tcc_message(verdict, certificate)
    reading = reading_of(query.country, query.pin)
    assert reading is not None
    data = TccData(
        **_common(query, outcome, record is not None),  # type: ignore[arg-type]
        pin_format=reading,
        verdict=verdict,  # type: ignore[arg-type]
        certificate=certificate,
        pin_matches=matches,
    )
    return Concluded(outcome, data, message)


def _tcc_message(verdict: str, certificate: Certificate) -> str:
    if verdict == "expired":
        when = f" on {certificate.expiry_date}" if certificate.expiry_date else ""
        return f"The certificate expired{when}."
    if verdict == "invalid":
        return f"The certificate is not in force ({certificate.status})."
    until = f" until {certificate.expiry_date}" if certificate.expiry_date else ""
    return f"The certificate is valid{until}."


def _withholding(
    query: TaxQuery, outcome: Outcome, record: WithholdingCertificate | None
) -> Concluded:
    details = None
    withholder = payee = None
    verdict: str | None = "not_found" if outcome is Outcome.NOT_FOUND else None
    message = "No such withholding certificate." if verdict else None
    if record is not None:
        details = WithholdingDetails(
            number=record.number,
            withholder=Party(pin=record.withholder_pin, name=record.withholder_name),
            payee=Party(pin=record.payee_pin, name=record.payee_name),
            tax_type=record.tax_type,
            gross_amount=record.gross_amount,
            tax_amount=record.tax_amount,
            currency=CURRENCIES[query.country],
            payment_date=record.payment_date.isoformat() if record.payment_date else None,
        )
        if record.withholder_pin:
            withholder = same_number(query.withholder_pin, record.withholder_pin)
        if record.payee_pin:
            payee = same_number(query.payee_pin, record.payee_pin)
        wrong = [
            name for name, same in (("withholder", withholder), ("payee", payee)) if same is False
        ]
        if wrong:
            outcome, verdict = Outcome.MISMATCH, "mismatch"
            message = f"The certificate names another {' and '.join(wrong)}."
        else:
            verdict = "valid"
            message = "The certificate exists and names the withholder and payee sent."
    data = WithholdingData(
        **_common(query, outcome, record is not None),  # type: ignore[arg-type]
        verdict=verdict,  # type: ignore[arg-type]
        certificate=details,
        withholder_pin_matches=withholder,
        payee_pin_matches=payee,
    )
    return Concluded(outcome, data, message)
