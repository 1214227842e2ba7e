"""The sandbox's fictional business register (docs/sandbox.md#kyb): every company, person and
holding derived from SHA-256 of the country and the registration number, so the same number
gives the same answer on every machine and release.

The last digit of the number picks the outcome: 0-4 found (registered), 5 not found, 6 found
but dissolved, 7 pending (completes a few seconds later, with a webhook), 8 registry
unavailable, 9 failed. The digit before it is the AML bitmask of DESIGN §2: bit 1 makes the
first director the sandbox PEP ("Sandbox Politically Exposed"), bit 2 the second director the
sandbox sanctioned person ("Sandbox Sanction Person"); the owners are then screened with the
real matcher over the sandbox's fictional lists, as in name screening.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

from hakiki.core.envelope import Outcome
from hakiki.engines.kyb.model import (
    Address,
    BeneficialOwner,
    Company,
    Director,
    Ownership,
    Party,
    Shareholder,
)
from hakiki.identity.sandbox_names import BUSINESS_KINDS, BUSINESS_WORDS, FAMILY_NAMES, GIVEN_NAMES
from hakiki.kyb.providers.base import RegistryOutcome, RegistryQuery, RegistryResult

PROVIDER = "hakiki-sandbox"
SANDBOX_STATEMENT_DATE = "2026-01-01"  # BODS statement date of sandbox answers (fixed)
PEP_NAME = "Sandbox Politically Exposed"
SANCTIONED_NAME = "Sandbox Sanction Person"

# Golden stems (the number without its two outcome digits) and the company each always is.
GOLDEN: dict[tuple[str, str], str] = {
    ("KE", "PVT-KYB000"): "Mlima Fresh Produce Limited",
    ("UG", "800200000000"): "Nile Harvest Traders Limited",
    ("TZ", "1500000"): "Kilimanjaro Coffee Growers Limited",
}
GOLDEN_OWNERS: dict[str, tuple[str, str]] = {
    "KE": ("Wanjiru Akinyi Kamau", "Otieno Brian Ochieng"),
    "UG": ("Moses Kato Ssempijja", "Grace Namubiru Nakato"),
    "TZ": ("Baraka Juma Mwakyembe", "Neema Rehema Massawe"),
}
_OUTCOMES = {5: Outcome.NOT_FOUND, 7: Outcome.PENDING, 8: Outcome.SOURCE_UNAVAILABLE}
_OUTCOMES[9] = Outcome.FAILED
_STREETS = {
    "KE": ("Kenyatta Avenue, Nairobi", "Moi Avenue, Mombasa", "Oginga Odinga Street, Kisumu"),
    "UG": ("Kampala Road, Kampala", "Jinja Road, Jinja", "Main Street, Mbarara"),
    "TZ": ("Samora Avenue, Dar es Salaam", "Boma Road, Arusha", "Kenyatta Road, Mwanza"),
}
_SUFFIXES = {
    "business_name": "Enterprises",
    "limited_liability_partnership": "LLP",
    "company_limited_by_guarantee": "Foundation",
    "public_company": "PLC",
}


class _Seed:
    def __init__(self, *parts: str) -> None:
        self._digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
        self._pos = 0

    def number(self, modulo: int) -> int:
        if self._pos + 4 > len(self._digest):
            self._digest, self._pos = hashlib.sha256(self._digest).digest(), 0
        chunk = self._digest[self._pos : self._pos + 4]
        self._pos += 4
        return int.from_bytes(chunk, "big") % modulo

    def pick(self, options: tuple[str, ...]) -> str:
        return options[self.number(len(options))]


def _digits(text: str) -> list[int]:
    return [int(ch) for ch in text if ch.isdigit()]


def sandbox_key(query: RegistryQuery) -> str:
    """What drives the outcome: the registration number, else the LEI, else the name."""
    if query.number is not None:
        return query.number.number
    return query.lei or (query.name or "")


def outcome_for(query: RegistryQuery) -> Outcome:
    digits = _digits(sandbox_key(query))
    return _OUTCOMES.get(digits[-1] if digits else 0, Outcome.VERIFIED)


def dissolved(query: RegistryQuery) -> bool:
    digits = _digits(sandbox_key(query))
    return bool(digits) and digits[-1] == 6


def aml_bits(query: RegistryQuery) -> int:
    digits = _digits(sandbox_key(query))
    return digits[-2] & 7 if len(digits) >= 2 else 0


def reference_for(query: RegistryQuery, kind: str) -> str:
    seed = "\x1f".join((query.country, sandbox_key(query), kind, "reference"))
    return "ref_sbx_" + hashlib.sha256(seed.encode()).hexdigest()[:24]


def _person(seed: _Seed, country: str) -> str:
    pool = country if country in GIVEN_NAMES else "KE"
    given, middle = seed.pick(GIVEN_NAMES[pool]), seed.pick(GIVEN_NAMES[pool])
    return f"{given} {middle} {seed.pick(FAMILY_NAMES[pool])}"


def _golden(query: RegistryQuery) -> str | None:
    key = sandbox_key(query)
    return GOLDEN.get((query.country, key[:-2]))


def mock_company(query: RegistryQuery) -> Company:
    key = sandbox_key(query)
    seed = _Seed(query.country, key, "company")
    entity_type = query.number.entity_type if query.number is not None else None
    suffix = _SUFFIXES.get(entity_type or "", "Limited")
    name = _golden(query) or f"{seed.pick(BUSINESS_WORDS)} {seed.pick(BUSINESS_KINDS)} {suffix}"
    registered = date(1995, 1, 1) + timedelta(days=seed.number(365 * 28))
    gone = dissolved(query)
    street = seed.pick(_STREETS.get(query.country, ("1 Registry Street",)))
    return Company(
        name=name,
        number=key if query.number is not None else f"SBX{seed.number(10**8):08d}",
        country=query.country,
        entity_type=entity_type,
        status="dissolved" if gone else "registered",
        registry_status="Dissolved" if gone else "Registered",
        registration_date=registered.isoformat(),
        dissolution_date=(registered + timedelta(days=2000)).isoformat() if gone else None,
        address=Address(street, query.country),
        identifiers=(("XI-LEI", query.lei),) if query.lei else (),
    )


def mock_ownership(query: RegistryQuery) -> Ownership:
    seed = _Seed(query.country, sandbox_key(query), "owners")
    golden = GOLDEN_OWNERS.get(query.country) if _golden(query) else None
    names = list(golden) if golden else [_person(seed, query.country), _person(seed, query.country)]
    bits = aml_bits(query)
    if bits & 1:
        names[0] = PEP_NAME
    if bits & 2:
        names[1] = SANCTIONED_NAME
    nationality = query.country if query.country in GIVEN_NAMES else None
    people = [Party(name, "person", nationality=nationality) for name in names]
    shares = (600, 400)
    holders = tuple(
        Shareholder(person, count, "ordinary", round(100 * count / sum(shares), 2))
        for person, count in zip(people, shares, strict=True)
    )
    return Ownership(
        directors=tuple(Director(person, "director") for person in people),
        shareholders=holders,
        beneficial_owners=tuple(
            BeneficialOwner(h.party, h.percentage, ("shareholding", "votingRights"), direct=True)
            for h in holders
        ),
        share_capital="KES 100,000 in 1,000 ordinary shares of KES 100"
        if query.country == "KE"
        else "1,000 ordinary shares",
        notes=("Sandbox: a fictional register entry.",),
    )


def answer(query: RegistryQuery) -> tuple[Outcome, RegistryResult]:
    """The sandbox register's answer: the outcome the number picks and, when found, the record."""
    outcome = outcome_for(query)
    if outcome is Outcome.VERIFIED:
        ownership = mock_ownership(query) if query.ownership else None
        result = RegistryResult(
            RegistryOutcome.FOUND, PROVIDER, mock_company(query), ownership, message="found"
        )
        return outcome, result
    registry_outcome = {
        Outcome.NOT_FOUND: RegistryOutcome.NOT_FOUND,
        Outcome.SOURCE_UNAVAILABLE: RegistryOutcome.UNAVAILABLE,
        Outcome.FAILED: RegistryOutcome.FAILED,
    }.get(outcome, RegistryOutcome.UNAVAILABLE)
    messages = {
        Outcome.NOT_FOUND: "Sandbox: no business with this number (last digit 5).",
        Outcome.PENDING: "Sandbox: the registry is slow (last digit 7); a webhook follows.",
        Outcome.SOURCE_UNAVAILABLE: "Sandbox: the registry is unavailable (last digit 8).",
        Outcome.FAILED: "Sandbox: the look-up failed (last digit 9).",
    }
    return outcome, RegistryResult(registry_outcome, PROVIDER, message=messages[outcome])


def completed(query: RegistryQuery) -> RegistryResult:
    """How a sandbox PENDING look-up ends: found, as a registered company."""
    ownership = mock_ownership(query) if query.ownership else None
    return RegistryResult(
        RegistryOutcome.FOUND, PROVIDER, mock_company(query), ownership, message="found"
    )
