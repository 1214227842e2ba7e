"""Check types as data, per country: what each needs from the candidate, its turnaround, its
price and whether Hakiki's engines run it (automated) or an analyst works it (manual)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

COUNTRIES: dict[str, str] = {"KE": "Kenya", "UG": "Uganda", "TZ": "Tanzania", "NG": "Nigeria"}

# What a candidate can be asked for on the invitation page: field -> label.
CANDIDATE_FIELDS: dict[str, str] = {
    "date_of_birth": "Date of birth",
    "id_number": "National ID number",
    "tax_pin": "Tax PIN / TIN",
    "company_numbers": "Registration numbers of companies you direct (comma separated)",
    "institution": "Institution and qualification",
    "employer": "Most recent employer and role",
    "referees": "Referees (name and phone, one a line)",
    "professional_body": "Professional body and membership number",
}


@dataclass(frozen=True)
class CheckType:
    code: str
    name: str
    kind: Literal["automated", "manual"]
    description: str
    needs: tuple[str, ...]  # CANDIDATE_FIELDS the candidate fills in
    documents: tuple[str, ...] = ()  # documents the candidate uploads
    turnaround_hours: int = 1
    # Minor units per check run (HAKIKI_PRICES background.check.<code>): the price of the
    # single call that does the same work, so a package is never a cheaper way to make it.
    price: int = 0
    available: bool = True
    unavailable_reason: str | None = None
    countries: tuple[str, ...] = field(default=tuple(COUNTRIES))

    @property
    def price_key(self) -> str:
        return f"background.check.{self.code}"


_ID_NAMES = {
    "KE": "national ID (IPRS)",
    "UG": "NIN (NIRA)",
    "TZ": "NIDA number",
    "NG": "NIN (NIMC)",
}
_BUREAUS = {"KE": "Metropol CRB", "NG": "FirstCentral Credit Bureau"}
_POLICE = {
    "KE": "Certificate of Good Conduct (DCI)",
    "UG": "Police Clearance Certificate (Interpol Kampala)",
    "TZ": "Police Clearance Certificate (Tanzania Police Force)",
    "NG": "Police Character Certificate (Nigeria Police Force)",
}

_TYPES: tuple[CheckType, ...] = (
    CheckType(
        "identity",
        "Identity verification",
        "automated",
        "The candidate's national identity number checked against the country's identity "
        "register (the KYC national ID channel), names compared.",
        ("id_number", "date_of_birth"),
        price=2000,
    ),
    CheckType(
        "sanctions_pep",
        "Sanctions and PEP screening",
        "automated",
        "The candidate's name and date of birth screened against the sanctions and "
        "politically exposed persons lists (the screening engine).",
        ("date_of_birth",),
        price=1000,
    ),
    CheckType(
        "adverse_media",
        "Adverse media",
        "automated",
        "The candidate's name screened against the adverse media library.",
        ("date_of_birth",),
        price=1000,
    ),
    CheckType(
        "fraud_database",
        "Fraud database",
        "automated",
        "The candidate's ID number looked up in the fraud database (fraud reports and "
        "identities seen with other details).",
        ("id_number",),
        price=500,
    ),
    CheckType(
        "tax_compliance",
        "Tax compliance",
        "automated",
        "The candidate's tax PIN or TIN checked with the revenue authority (the tax PIN "
        "check): registered and active.",
        ("tax_pin",),
        price=300,
        countries=("KE", "UG", "TZ"),
    ),
    CheckType(
        "directorships",
        "Directorships",
        "automated",
        "Each company the candidate says they direct looked up in the business register "
        "(KYB ownership); consider when the candidate is not among its directors.",
        ("company_numbers",),
        price=5000,
        countries=("KE", "UG", "TZ"),
    ),
    CheckType(
        "credit_bureau",
        "Credit bureau report",
        "automated",
        "The candidate's national ID number's report at the country's Credit Reference Bureau "
        "(the credit bureau pull): consider on a non-performing account, arrears past 90 "
        "days, a fraud flag or a legal case.",
        ("id_number",),
        price=5000,
    ),
    CheckType(
        "criminal_record",
        "Criminal record",
        "manual",
        "The candidate's police clearance, uploaded and checked by your analyst.",
        ("id_number",),
        documents=("police_clearance",),
        turnaround_hours=72,
        price=0,
    ),
    CheckType(
        "education",
        "Education",
        "manual",
        "The candidate's highest qualification confirmed with the institution by your analyst.",
        ("institution",),
        documents=("certificate",),
        turnaround_hours=120,
    ),
    CheckType(
        "employment",
        "Employment history",
        "manual",
        "The candidate's most recent employment confirmed with the employer by your analyst.",
        ("employer",),
        turnaround_hours=120,
    ),
    CheckType(
        "references",
        "References",
        "manual",
        "The candidate's referees called by your analyst.",
        ("referees",),
        turnaround_hours=72,
    ),
    CheckType(
        "professional_body",
        "Professional body membership",
        "manual",
        "The candidate's membership confirmed with the professional body by your analyst.",
        ("professional_body",),
        turnaround_hours=72,
    ),
)


def _localised(check: CheckType, country: str) -> CheckType:
    if check.code == "identity":
        return CheckType(**{**check.__dict__, "name": f"Identity: {_ID_NAMES[country]}"})
    if check.code == "criminal_record":
        return CheckType(**{**check.__dict__, "name": f"Criminal record: {_POLICE[country]}"})
    if check.code == "credit_bureau":
        if country in _BUREAUS:
            return CheckType(**{**check.__dict__, "name": f"Credit bureau: {_BUREAUS[country]}"})
        return CheckType(
            **{
                **check.__dict__,
                "available": False,
                "unavailable_reason": f"Hakiki has no credit bureau channel in {country} (it "
                "pulls reports in KE from Metropol and in NG from FirstCentral); the check "
                "cannot be put in a package there.",
            }
        )
    return check


BY_COUNTRY: dict[str, dict[str, CheckType]] = {
    country: {c.code: _localised(c, country) for c in _TYPES if country in c.countries}
    for country in COUNTRIES
}
ALL_CODES: dict[str, CheckType] = {c.code: c for c in _TYPES}
UNIT_PRICES: dict[str, int] = {c.price_key: c.price for c in _TYPES}


def check_type(country: str, code: str) -> CheckType | None:
    return BY_COUNTRY.get(country, {}).get(code)


def package_needs(country: str, codes: list[str]) -> tuple[list[str], list[str]]:
    """The candidate fields and the documents a package's checks need, in a stable order."""
    fields: list[str] = []
    documents: list[str] = []
    for code in codes:
        check = BY_COUNTRY[country][code]
        fields += [f for f in check.needs if f not in fields]
        documents += [d for d in check.documents if d not in documents]
    return fields, documents
