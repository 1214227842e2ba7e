"""The tax endpoints' sandbox hooks (docs/sandbox.md#tax): the scheme of the identity sandbox
on the number that picks the outcome (the PIN or TIN, the national ID when looking up by ID,
the certificate number), and each endpoint's documented test values.

Last digit: 0-3 found; 4 found but not in force (a suspended PIN, an expired certificate);
5 not found; 6 mismatch (the ID's PIN, or the certificate's PIN or payee, is another one; a
PIN checked alone has nothing to mismatch and is found); 7 PENDING, completed a few seconds
later (HAKIKI_TAX_SANDBOX_PENDING_SECONDS) with a webhook; 8 source unavailable; 9 failed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from hakiki.core.endpoints import TestValue
from hakiki.core.envelope import Outcome
from hakiki.identity.sandbox import PROVIDER, outcome_for
from hakiki.identity.sandbox_values import INVALID, envelope_expect
from hakiki.tax.providers.base import Check, LookupOutcome, Record, TaxLookup, TaxQuery
from hakiki.tax.sandbox_records import (
    GOLDEN_COMPANY,
    GOLDEN_NG_COMPANY,
    GOLDEN_PERSON,
    another_pin,
    compliance_certificate,
    taxpayer,
    taxpayer_by_id,
    withholding_certificate,
)

_REFUSED = {
    Outcome.NOT_FOUND: (LookupOutcome.NOT_FOUND, "sandbox: last digit 5, no such record"),
    Outcome.SOURCE_UNAVAILABLE: (
        LookupOutcome.UNAVAILABLE,
        "sandbox: last digit 8, the registry is unavailable",
    ),
    Outcome.FAILED: (LookupOutcome.FAILED, "sandbox: last digit 9, the registry refused"),
}


def driver(query: TaxQuery) -> str:
    """The number whose last digit picks the sandbox outcome."""
    if query.check == "pin":
        return query.national_id or query.pin or ""
    return query.certificate_number or ""


def reference_for(query: TaxQuery) -> str:
    parts = "\x1f".join(str(v) for v in query.as_dict().values())
    return "ref_sbx_" + hashlib.sha256(f"tax\x1f{parts}".encode()).hexdigest()[:24]


def _found(query: TaxQuery, digit: int) -> Record:
    mismatch = digit == 6
    if query.check == "pin":
        if query.national_id is not None:
            return taxpayer_by_id(query.national_id, mismatch)
        status = "Suspended" if digit == 4 else "Active"
        return taxpayer(query.country, query.pin or "", None if query.country == "NG" else status)
    if query.check == "tcc":
        pin = query.pin or ""
        owner = another_pin(query.country, pin) if mismatch else pin
        return compliance_certificate(query, owner, expired=digit == 4)
    payee = query.payee_pin or ""
    return withholding_certificate(query, another_pin(query.country, payee) if mismatch else payee)


def completed(query: TaxQuery) -> TaxLookup:
    """What a sandbox PENDING check (last digit 7) completes with: found and in force."""
    return TaxLookup(LookupOutcome.FOUND, PROVIDER, _found(query, 0), None, "found")


@dataclass(frozen=True)
class TaxSandbox:
    check: Check

    def answer(self, query: TaxQuery) -> TaxLookup | None:
        """The sandbox registry's answer; None while it is PENDING."""
        number = driver(query)
        outcome = outcome_for(number)
        if outcome is Outcome.PENDING:
            return None
        if outcome in _REFUSED:
            lookup_outcome, message = _REFUSED[outcome]
            return TaxLookup(lookup_outcome, PROVIDER, None, None, message)
        digit = int(next(ch for ch in reversed(number) if ch.isdigit()))
        return TaxLookup(LookupOutcome.FOUND, PROVIDER, _found(query, digit), None, "found")

    def test_values(self) -> list[TestValue]:
        return _VALUES[self.check]()


# ---------------------------------------------------------------------- test values


def _expect(outcome: Outcome, **paths: Any) -> dict[str, Any]:
    return {**envelope_expect(outcome), **{f"data.{k}": v for k, v in paths.items()}}


def _digits_values(
    body: Any, words: dict[str, str], extra: dict[str, dict[str, Any]] | None = None
) -> list[TestValue]:
    """The outcomes every endpoint shares, by last digit."""
    shared = (
        ("5", Outcome.NOT_FOUND, {"verdict": "not_found", "state": "completed"}),
        ("7", Outcome.PENDING, {"verdict": None, "state": "pending"}),
        ("8", Outcome.SOURCE_UNAVAILABLE, {"verdict": None, "state": "failed"}),
        ("9", Outcome.FAILED, {"verdict": None, "state": "failed"}),
    )
    return [
        TestValue(
            description=f"last digit {digit}: {words[digit]}",
            body=body(digit),
            expect=_expect(outcome, **paths, **(extra or {}).get(digit, {})),
        )
        for digit, outcome, paths in shared
    ]


_WORDS = {
    "5": "not found",
    "7": "PENDING, completed a few seconds later with a webhook",
    "8": "source unavailable (not charged live)",
    "9": "failed (not charged live)",
}


def _pin_values() -> list[TestValue]:
    def pin(digit: str) -> dict[str, str]:
        return {"country_code": "KE", "pin": f"A00000000{digit}W"}

    return [
        TestValue(
            description="KE golden PIN, last digit 0: registered and active, an individual",
            body=pin("0"),
            expect=_expect(
                Outcome.VERIFIED,
                verdict="valid",
                **{
                    "taxpayer.name": GOLDEN_PERSON,
                    "taxpayer.type": "individual",
                    "taxpayer.pin_status": "active",
                    "pin_format.taxpayer_type": "individual",
                },
            ),
        ),
        TestValue(
            description="a P PIN is a non-individual: Kilima Agro Traders Limited",
            body={"country_code": "KE", "pin": "P000000000K"},
            expect=_expect(
                Outcome.VERIFIED,
                verdict="valid",
                **{"taxpayer.name": GOLDEN_COMPANY, "taxpayer.type": "non_individual"},
            ),
        ),
        TestValue(
            description="last digit 4: registered but suspended",
            body=pin("4"),
            expect=_expect(
                Outcome.VERIFIED, verdict="inactive", **{"taxpayer.pin_status": "suspended"}
            ),
        ),
        *_digits_values(pin, _WORDS),
        TestValue(
            description="look-up by KE national ID: the golden ID's PIN",
            body={"country_code": "KE", "national_id": "20000000"},
            expect=_expect(
                Outcome.VERIFIED,
                verdict="valid",
                searched_by="national_id",
                **{"taxpayer.pin": "A000000000W", "taxpayer.name": GOLDEN_PERSON},
            ),
        ),
        TestValue(
            description="national ID ending in 6 with a PIN: the ID's PIN is another (MISMATCH)",
            body={"country_code": "KE", "national_id": "20000006", "pin": "A000000006W"},
            expect=_expect(Outcome.MISMATCH, verdict="mismatch", pin_matches=False),
        ),
        TestValue(
            description="UG TIN (10 digits): Moses Kato Ssempijja",
            body={"country_code": "UG", "pin": "1000000000"},
            expect=_expect(
                Outcome.VERIFIED, authority="URA", **{"taxpayer.name": "MOSES KATO SSEMPIJJA"}
            ),
        ),
        TestValue(
            description="TZ TIN written NNN-NNN-NNN: Baraka Juma Mwakyembe",
            body={"country_code": "TZ", "pin": "100-000-000"},
            expect=_expect(
                Outcome.VERIFIED,
                authority="TRA",
                **{"pin_format.display": "100-000-000", "taxpayer.pin": "100000000"},
            ),
        ),
        TestValue(
            description="NG FIRS TIN written NNNNNNNN-NNNN: Adeyemi Okafor Foods Limited, "
            "registered (FIRS gives no status)",
            body={"country_code": "NG", "pin": "20000000-0000"},
            expect=_expect(
                Outcome.VERIFIED,
                verdict="valid",
                authority="FIRS",
                **{
                    "pin_format.display": "20000000-0000",
                    "taxpayer.name": GOLDEN_NG_COMPANY,
                    "taxpayer.type": "non_individual",
                    "taxpayer.pin_status": None,
                },
            ),
        ),
        TestValue(
            description="NG TIN ending in 5: not found",
            body={"country_code": "NG", "pin": "20000000-0005"},
            expect=_expect(Outcome.NOT_FOUND, verdict="not_found", authority="FIRS"),
        ),
        TestValue(
            description="a FIRS TIN with too few digits: 400 naming pin",
            body={"country_code": "NG", "pin": "2030475"},
            expect={**INVALID, "details.0.field": "pin"},
        ),
        TestValue(
            description="a malformed KRA PIN: 400 naming pin",
            body={"country_code": "KE", "pin": "B123456789Z"},
            expect={**INVALID, "details.0.field": "pin"},
        ),
        TestValue(
            description="neither pin nor national_id: 400 naming pin",
            body={"country_code": "KE"},
            expect={**INVALID, "details.0.field": "pin"},
        ),
        TestValue(
            description="a national ID outside Kenya: 400 naming national_id",
            body={"country_code": "UG", "national_id": "20000000"},
            expect={**INVALID, "details.0.field": "national_id"},
        ),
        TestValue(
            description="a country the tax checks do not serve: 400 naming country_code",
            body={"country_code": "GH", "pin": "A000000000W"},
            expect={**INVALID, "details.0.field": "country_code"},
        ),
    ]


def _tcc_values() -> list[TestValue]:
    def tcc(digit: str) -> dict[str, str]:
        return {
            "country_code": "KE",
            "pin": "A000000000W",
            "certificate_number": f"KRAEON0000000{digit}",
        }

    return [
        TestValue(
            description="last digit 0: valid (sandbox certificates in force expire 2099-12-31)",
            body=tcc("0"),
            expect=_expect(
                Outcome.VERIFIED,
                verdict="valid",
                pin_matches=True,
                **{
                    "certificate.expiry_date": "2099-12-31",
                    "certificate.taxpayer_name": GOLDEN_PERSON,
                },
            ),
        ),
        TestValue(
            description="last digit 4: expired, with its expiry_date",
            body=tcc("4"),
            expect=_expect(
                Outcome.VERIFIED, verdict="expired", **{"certificate.expiry_date": "2025-06-30"}
            ),
        ),
        TestValue(
            description="last digit 6: issued to another PIN (MISMATCH)",
            body=tcc("6"),
            expect=_expect(Outcome.MISMATCH, verdict="mismatch", pin_matches=False),
        ),
        *_digits_values(tcc, _WORDS),
        TestValue(
            description="a UG certificate with the holder's TIN",
            body={"country_code": "UG", "pin": "1000000000", "certificate_number": "URATCC0000000"},
            expect=_expect(Outcome.VERIFIED, verdict="valid", authority="URA"),
        ),
        TestValue(
            description="a malformed KRA PIN: 400 naming pin",
            body={"country_code": "KE", "pin": "A12345", "certificate_number": "KRAEON00000000"},
            expect={**INVALID, "details.0.field": "pin"},
        ),
        TestValue(
            description="a certificate number with a stray character: 400 naming it",
            body={"country_code": "KE", "pin": "A000000000W", "certificate_number": "KRA#0000000"},
            expect={**INVALID, "details.0.field": "certificate_number"},
        ),
    ]


def _withholding_values() -> list[TestValue]:
    def certificate(digit: str) -> dict[str, str]:
        return {
            "country_code": "KE",
            "certificate_number": f"KRAWHT0000000{digit}",
            "withholder_pin": "P000000000K",
            "payee_pin": "A000000000W",
        }

    return [
        TestValue(
            description="last digit 0: the certificate names the withholder and payee sent",
            body=certificate("0"),
            expect=_expect(
                Outcome.VERIFIED,
                verdict="valid",
                withholder_pin_matches=True,
                payee_pin_matches=True,
                **{"certificate.withholder.name": GOLDEN_COMPANY, "certificate.currency": "KES"},
            ),
        ),
        TestValue(
            description="last digit 6: the certificate names another payee (MISMATCH)",
            body=certificate("6"),
            expect=_expect(
                Outcome.MISMATCH,
                verdict="mismatch",
                withholder_pin_matches=True,
                payee_pin_matches=False,
            ),
        ),
        *_digits_values(certificate, _WORDS),
        TestValue(
            description="a malformed payee PIN: 400 naming payee_pin",
            body={**certificate("0"), "payee_pin": "A00000000W"},
            expect={**INVALID, "details.0.field": "payee_pin"},
        ),
    ]


_VALUES = {"pin": _pin_values, "tcc": _tcc_values, "withholding": _withholding_values}

PIN = TaxSandbox("pin")
TCC = TaxSandbox("tcc")
WITHHOLDING = TaxSandbox("withholding")
