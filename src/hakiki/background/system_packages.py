"""The platform's packages, per country: at least three each, built from that country's
available check types."""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.background.check_types import BY_COUNTRY, COUNTRIES


@dataclass(frozen=True)
class SystemPackage:
    id: str
    name: str
    country: str
    description: str
    check_types: tuple[str, ...]


_TEMPLATES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "basic_identity",
        "Basic identity",
        "Who the candidate says they are, and not on a sanctions list or in the fraud database.",
        ("identity", "sanctions_pep", "fraud_database"),
    ),
    (
        "financial_services_staff",
        "Financial services staff",
        "For staff of lenders and payment firms: identity, sanctions and PEP, adverse media, "
        "fraud database, tax compliance, directorships, police clearance, education and "
        "employment.",
        (
            "identity",
            "sanctions_pep",
            "adverse_media",
            "fraud_database",
            "tax_compliance",
            "directorships",
            "criminal_record",
            "education",
            "employment",
        ),
    ),
    (
        "driver",
        "Driver",
        "For drivers and riders: identity, police clearance and two references.",
        ("identity", "criminal_record", "references"),
    ),
    (
        "field_agent",
        "Field agent",
        "For agents who handle cash: identity, fraud database, police clearance, references.",
        ("identity", "fraud_database", "criminal_record", "references"),
    ),
)


def _build() -> dict[str, SystemPackage]:
    packages: dict[str, SystemPackage] = {}
    for country in COUNTRIES:
        offered = BY_COUNTRY[country]
        for slug, name, description, codes in _TEMPLATES:
            kept = tuple(c for c in codes if c in offered and offered[c].available)
            package_id = f"spk_{country.lower()}_{slug}"
            packages[package_id] = SystemPackage(
                package_id, f"{name} ({COUNTRIES[country]})", country, description, kept
            )
    return packages


SYSTEM_PACKAGES: dict[str, SystemPackage] = _build()
