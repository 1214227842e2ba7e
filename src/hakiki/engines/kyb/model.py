"""What a registry says about a business and who owns and runs it, whatever the registry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

PartyKind = Literal["person", "entity"]
# A registry's status in one closed set (the adapters map each registry's words onto it).
CompanyStatus = Literal[
    "registered", "dissolved", "struck_off", "in_liquidation", "inactive", "unknown"
]


@dataclass(frozen=True)
class Address:
    text: str
    country: str | None = None  # ISO 3166-1 alpha-2
    post_code: str | None = None


@dataclass(frozen=True)
class Company:
    name: str
    number: str
    country: str
    entity_type: str | None = None
    status: CompanyStatus = "unknown"
    registry_status: str | None = None  # the registry's own word for it
    registration_date: str | None = None  # ISO date
    dissolution_date: str | None = None
    address: Address | None = None
    identifiers: tuple[tuple[str, str], ...] = ()  # (scheme, id): e.g. ("XI-LEI", "5493...")
    source_url: str | None = None


@dataclass(frozen=True)
class Party:
    """A director, shareholder, owner or parent: a natural person or an entity."""

    name: str
    kind: PartyKind = "person"
    nationality: str | None = None  # ISO 3166-1 alpha-2
    birth_date: str | None = None  # YYYY, YYYY-MM or YYYY-MM-DD
    identifiers: tuple[tuple[str, str], ...] = ()  # entities: (scheme, id)
    country: str | None = None  # an entity's jurisdiction


@dataclass(frozen=True)
class Director:
    party: Party
    role: str = "director"
    appointed_on: str | None = None


@dataclass(frozen=True)
class Shareholder:
    party: Party
    shares: int | None = None
    share_class: str | None = None
    percentage: float | None = None  # 0-100


@dataclass(frozen=True)
class BeneficialOwner:
    party: Party
    percentage: float | None = None
    # BODS interest types: shareholding, votingRights, appointmentOfBoard, ...
    interests: tuple[str, ...] = ("shareholding",)
    direct: bool | None = None  # None: unknown


@dataclass(frozen=True)
class Parent:
    """A parent entity (GLEIF level 2): direct or ultimate, by accounting consolidation."""

    party: Party
    ultimate: bool
    relationship: str = "IS_DIRECTLY_CONSOLIDATED_BY"


@dataclass(frozen=True)
class Ownership:
    directors: tuple[Director, ...] = ()
    shareholders: tuple[Shareholder, ...] = ()
    beneficial_owners: tuple[BeneficialOwner, ...] = ()
    parents: tuple[Parent, ...] = ()
    share_capital: str | None = None
    notes: tuple[str, ...] = field(default=())  # what the source could not say


def percentages(shareholders: tuple[Shareholder, ...]) -> tuple[Shareholder, ...]:
    """Fill each holding's percentage from the share counts when the registry gave counts only."""
    counted = [s.shares for s in shareholders if s.shares is not None]
    total = sum(counted)
    if not total or len(counted) != len(shareholders):
        return shareholders
    return tuple(
        s
        if s.percentage is not None
        else Shareholder(s.party, s.shares, s.share_class, round(100 * (s.shares or 0) / total, 2))
        for s in shareholders
    )


_STATUS_WORDS: tuple[tuple[str, CompanyStatus], ...] = (
    ("struck", "struck_off"),
    ("removed", "struck_off"),
    ("deregistered", "struck_off"),
    ("liquidat", "in_liquidation"),
    ("winding", "in_liquidation"),
    ("receivership", "in_liquidation"),
    ("dissolved", "dissolved"),
    ("closed", "dissolved"),
    ("ceased", "dissolved"),
    ("inactive", "inactive"),
    ("dormant", "inactive"),
    ("lapsed", "inactive"),
    ("registered", "registered"),
    ("active", "registered"),
    ("live", "registered"),
    ("issued", "registered"),
    ("good standing", "registered"),
)


def status_of(word: str | None) -> CompanyStatus:
    """A registry's status word in the closed set (order matters: "Not Active" is inactive,
    "Struck off and dissolved" struck off)."""
    if not word:
        return "unknown"
    lowered = " ".join(word.lower().replace("_", " ").split())
    if lowered.startswith(("not ", "non ", "in-active")):
        return "inactive"
    for fragment, status in _STATUS_WORDS:
        if fragment in lowered:
            return status
    return "unknown"
