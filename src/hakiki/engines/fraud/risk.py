"""Explainable risk scores: each signal that fired carries its weight and reason; the score is
their sum, capped at 100, and the level follows fixed bands (documented in docs/api.md)."""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ((75, "CRITICAL"), (50, "HIGH"), (25, "MEDIUM"), (0, "LOW"))

# Default weights; an operator may override any of them (HAKIKI_FRAUD_WEIGHTS).
WEIGHTS: dict[str, int] = {
    "invalid_format": 30,
    "reported": 40,
    "reported_by_several": 20,
    "several_names": 25,
    "several_birth_dates": 30,
    "several_phones": 15,
    "several_faces": 35,
    "invalid_phone": 30,
    "phone_reported": 40,
    "phone_shared": 30,
    "virtual_line": 20,
    "checked_often": 15,
    "face_in_fraud_bank": 50,
    "face_with_other_identities": 40,
    "address_not_found": 30,
    "address_partial": 10,
    "address_conflict": 15,
    "address_other_country": 25,
    "gps_outside_area": 30,
    "gps_near_area": 10,
    "address_reported": 40,
    "email_reported": 40,
    "ip_not_public": 10,
}


@dataclass(frozen=True)
class Signal:
    code: str
    weight: int
    reason: str


@dataclass(frozen=True)
class Risk:
    score: int
    level: str
    signals: tuple[Signal, ...]


def assess(fired: list[tuple[str, str]], weights: dict[str, int] | None = None) -> Risk:
    """``fired``: (signal code, reason) pairs. Unknown codes are a programming error."""
    table = {**WEIGHTS, **(weights or {})}
    signals = tuple(Signal(code, table[code], reason) for code, reason in fired)
    score = min(100, sum(s.weight for s in signals))
    level = next(name for floor, name in LEVELS if score >= floor)
    return Risk(score, level, signals)


@dataclass(frozen=True)
class IdentityEvidence:
    """What the fraud database knows about one identity number."""

    reports: int = 0
    reporting_organisations: int = 0
    categories: tuple[tuple[str, int], ...] = ()  # (category, reports), most reported first
    # Names seen with the number by organisations other than the caller, each organisation
    # vouching for one, counted as what remains whichever one is left out (corroboration.py).
    names: int = 0
    birth_dates: int = 0
    phones: int = 0
    faces: int = 0
    linking_organisations: int = 0  # other organisations that saw anything with the number


def id_signals(format_problem: str | None, evidence: IdentityEvidence) -> list[tuple[str, str]]:
    """The signals an identity number raises (synthetic identities: one number, many people)."""
    fired: list[tuple[str, str]] = []
    if format_problem:
        fired.append(("invalid_format", format_problem))
    if evidence.reports:
        kinds = ", ".join(name for name, _ in evidence.categories)
        fired.append(("reported", f"{evidence.reports} fraud report(s) name this number ({kinds})"))
    if evidence.reporting_organisations > 1:
        fired.append(
            (
                "reported_by_several",
                f"reported by {evidence.reporting_organisations} different organisations",
            )
        )
    for code, count, what, floor in (
        ("several_names", evidence.names, "names", 2),
        ("several_birth_dates", evidence.birth_dates, "dates of birth", 2),
        ("several_phones", evidence.phones, "phone numbers", 3),
        ("several_faces", evidence.faces, "faces", 2),
    ):
        if count >= floor:
            fired.append(
                (code, f"{count} different {what} seen with this number by other organisations")
            )
    return fired


@dataclass(frozen=True)
class PhoneEvidence:
    """What the fraud database and the request log know about one phone number."""

    reports: int = 0
    reporting_organisations: int = 0
    categories: tuple[tuple[str, int], ...] = ()
    identities: int = 0  # identity numbers other organisations saw the phone with (corroborated)
    checks_7d: int = 0  # earlier phone checks of this number, all organisations, last 7 days
    checking_organisations_7d: int = 0


VIRTUAL_LINES = frozenset({"voip", "premium rate", "toll free", "shared cost", "pager", "uan"})


def phone_signals(
    invalid_reason: str | None, line_type: str | None, evidence: PhoneEvidence
) -> list[tuple[str, str]]:
    fired: list[tuple[str, str]] = []
    if invalid_reason:
        fired.append(("invalid_phone", f"not a valid number: {invalid_reason}"))
    if line_type in VIRTUAL_LINES:
        fired.append(("virtual_line", f"a {line_type} number, not a personal mobile or fixed line"))
    if evidence.reports:
        kinds = ", ".join(name for name, _ in evidence.categories)
        fired.append(("phone_reported", f"{evidence.reports} fraud report(s) name it ({kinds})"))
    if evidence.identities >= 3:
        fired.append(
            (
                "phone_shared",
                f"seen with {evidence.identities} different identity numbers by other "
                "organisations",
            )
        )
    if evidence.checking_organisations_7d >= 3:
        fired.append(
            (
                "checked_often",
                f"checked {evidence.checks_7d} times by {evidence.checking_organisations_7d} "
                "organisations in the last 7 days",
            )
        )
    return fired


@dataclass(frozen=True)
class FaceEvidence:
    bank_matches: int = 0  # reports whose subject has this face
    bank_categories: tuple[tuple[str, int], ...] = ()
    bank_organisations: int = 0
    other_identities: int = 0  # identity numbers, besides the ones given, seen with this face


def face_signals(evidence: FaceEvidence) -> list[tuple[str, str]]:
    fired: list[tuple[str, str]] = []
    if evidence.bank_matches:
        kinds = ", ".join(name for name, _ in evidence.bank_categories)
        fired.append(
            ("face_in_fraud_bank", f"the face of {evidence.bank_matches} fraud report(s) ({kinds})")
        )
    if evidence.other_identities:
        fired.append(
            (
                "face_with_other_identities",
                f"this face was seen with {evidence.other_identities} other identity number(s)",
            )
        )
    return fired


@dataclass(frozen=True)
class AddressEvidence:
    match: str  # exact | partial | none
    conflicts: tuple[str, ...] = ()
    other_countries: tuple[str, ...] = ()
    gps: str | None = None  # inside | near | outside | unknown; None without coordinates
    gps_distance_km: float | None = None
    reports: int = 0
    categories: tuple[tuple[str, int], ...] = ()


def address_signals(evidence: AddressEvidence) -> list[tuple[str, str]]:
    fired: list[tuple[str, str]] = []
    if evidence.match == "none":
        fired.append(("address_not_found", "no place of the address is in the gazetteer"))
    elif evidence.match == "partial":
        fired.append(("address_partial", "only part of the address matches known places"))
    if evidence.conflicts:
        fired.append(
            ("address_conflict", f"places outside the stated area: {', '.join(evidence.conflicts)}")
        )
    if evidence.other_countries:
        fired.append(
            (
                "address_other_country",
                f"names places of another country: {', '.join(evidence.other_countries)}",
            )
        )
    if evidence.gps in ("outside", "near"):
        code = "gps_outside_area" if evidence.gps == "outside" else "gps_near_area"
        fired.append((code, f"the coordinates are {evidence.gps_distance_km} km from the address"))
    if evidence.reports:
        kinds = ", ".join(name for name, _ in evidence.categories)
        fired.append(("address_reported", f"{evidence.reports} fraud report(s) give it ({kinds})"))
    return fired


def combine(parts: list[list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """Signals of several checks as one list: a rule that fired for more than one part (two
    reported numbers) counts once, with every reason."""
    reasons: dict[str, list[str]] = {}
    for fired in parts:
        for code, reason in fired:
            reasons.setdefault(code, []).append(reason)
    return [(code, "; ".join(dict.fromkeys(texts))) for code, texts in reasons.items()]
