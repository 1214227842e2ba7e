"""Does what the zone says hold together? Dates, expiry, the number's format in its country, the
document type and country asked for.

Number formats (docs/decisions.md#documents; the passports' and Kenya's identity card's are the
KYC channels' formats, docs/api.md): passports of Kenya and Uganda (one or two letters and seven
digits), Tanzania (one to three letters and six or seven digits) and Nigeria (a letter and eight
digits); identity cards of Kenya (7 to 9 digits), Uganda (the card number: 9 digits, or the NIN:
C, M or F, then F or M, then 12 letters and digits), Tanzania (the NIDA number's 20 digits, or
a card number of 9 digits) and Nigeria (the NIN: 11 digits). Other countries: not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from hakiki.engines.mrz.zones import Zone

ISO3 = {"KEN": "KE", "UGA": "UG", "TZA": "TZ", "NGA": "NG"}
NUMBER_FORMATS: dict[tuple[str, str], re.Pattern[str]] = {
    ("passport", "KE"): re.compile(r"[A-Z]{1,2}\d{7}"),
    ("passport", "UG"): re.compile(r"[A-Z]{1,2}\d{7}"),
    ("passport", "TZ"): re.compile(r"[A-Z]{1,3}\d{6,7}"),
    ("passport", "NG"): re.compile(r"[A-Z]\d{8}"),
    ("national_id", "KE"): re.compile(r"\d{7,9}"),
    ("national_id", "UG"): re.compile(r"\d{9}|[CMF][FM][A-Z0-9]{12}"),
    ("national_id", "TZ"): re.compile(r"\d{20}|\d{9}"),
    ("national_id", "NG"): re.compile(r"\d{11}"),
}
ZONE_CODES = {
    "passport": ("P",),
    "national_id": ("I", "A", "C"),
    "residence_permit": ("I", "A", "C"),
    "visa": ("V",),
}
MAX_VALIDITY_YEARS = 20
MAX_AGE_YEARS = 120


@dataclass(frozen=True)
class Finding:
    check: str  # dates, expiry, number_format, document_type, country
    passed: bool | None  # None: not checked (and why is in reason)
    reason: str
    severe: bool = False  # a failure that rejects the document rather than raising attention


def birth_date(yymmdd: str, today: date) -> date | None:
    """A zone's birth date: the century that puts it in the past."""
    try:
        year, month, day = int(yymmdd[0:2]), int(yymmdd[2:4]), int(yymmdd[4:6])
        recent = date(2000 + year, month, day)
        return recent if recent <= today else date(1900 + year, month, day)
    except ValueError:
        return None


def expiry_date(yymmdd: str, today: date) -> date | None:
    """A zone's expiry: the century nearest today (expiry dates are near, either way)."""
    try:
        year, month, day = int(yymmdd[0:2]), int(yymmdd[2:4]), int(yymmdd[4:6])
        candidates = [date(c + year, month, day) for c in (1900, 2000, 2100)]
    except ValueError:
        return None
    return min(candidates, key=lambda d: abs((d - today).days))


def check(zone: Zone, document_type: str, country: str | None, today: date) -> list[Finding]:
    findings: list[Finding] = []
    born = birth_date(zone.birth_date, today)
    expires = expiry_date(zone.expiry_date, today)
    if born is None or expires is None:
        findings.append(Finding("dates", False, "a date in the zone is not a calendar date", True))
    elif born > today or (today.year - born.year) > MAX_AGE_YEARS:
        findings.append(Finding("dates", False, "the date of birth is not plausible", True))
    elif expires <= born or expires.year - today.year > MAX_VALIDITY_YEARS:
        findings.append(Finding("dates", False, "the expiry date is not plausible", True))
    else:
        findings.append(Finding("dates", True, "the dates are plausible"))
    if expires is not None:
        if expires < today:
            findings.append(
                Finding("expiry", False, f"the document expired on {expires.isoformat()}", True)
            )
        else:
            findings.append(Finding("expiry", True, f"valid until {expires.isoformat()}"))
    codes = ZONE_CODES.get(document_type)
    if codes is None:
        findings.append(Finding("document_type", None, f"a {document_type} has no zone code"))
    elif zone.document_code[:1] in codes:
        findings.append(Finding("document_type", True, f"the zone is a {document_type}'s"))
    else:
        findings.append(
            Finding(
                "document_type",
                False,
                f"the zone's document code {zone.document_code!r} is not a {document_type}'s",
                True,
            )
        )
    issuer = ISO3.get(zone.issuing_state)
    if country is not None:
        if issuer == country:
            findings.append(Finding("country", True, f"issued by {zone.issuing_state}"))
        else:
            findings.append(
                Finding("country", False, f"issued by {zone.issuing_state}, not by {country}")
            )
    pattern = NUMBER_FORMATS.get((document_type, issuer or ""))
    if pattern is None:
        findings.append(
            Finding("number_format", None, f"no number format known for {zone.issuing_state}")
        )
    elif pattern.fullmatch(zone.document_number):
        findings.append(Finding("number_format", True, f"the number has {issuer}'s format"))
    else:
        findings.append(
            Finding("number_format", False, f"the number does not have {issuer}'s format")
        )
    return findings
