"""The one entity model every list parser produces.

Conventions:

* Countries are lowercase ISO 3166-1 alpha-2 codes (``"ke"``, ``"af"``), as in rigour and
  FollowTheMoney; parsers map country names to codes and drop what they cannot map.
* Birth dates are ISO 8601 prefixes: ``"1971-03-02"``, ``"1971-03"`` or ``"1971"`` when the
  list gives only a year. A range of years is stored as one entry per year.
* Identifiers are ``(type, value)`` pairs; ``type`` is a short lowercase key (``"passport"``,
  ``"national_id"``, ``"tax_id"``, ``"imo"``...), ``value`` is as printed by the list.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

Schema = Literal["Person", "Organization", "Vessel", "Aircraft"]
NameKind = Literal["primary", "alias", "weak_alias"]

SCHEMAS: tuple[Schema, ...] = ("Person", "Organization", "Vessel", "Aircraft")
NAME_KINDS: tuple[NameKind, ...] = ("primary", "alias", "weak_alias")


@dataclass(frozen=True, slots=True)
class NameEntry:
    """One name of a listed entity.

    ``name`` is in natural reading order ("First Middle LAST"). When the source writes it
    differently (OFAC's "LAST, First Middle"), ``original`` keeps the source form and
    ``given``/``family`` keep the parts, so a scorer can tell given names from family names.
    """

    name: str
    kind: NameKind = "primary"
    original: str | None = None
    given: str | None = None
    family: str | None = None


@dataclass(frozen=True, slots=True)
class PepPosition:
    """A public position a politically exposed person holds or held, as the list gives it.

    ``title`` may be None when the list records a tenure without naming the post (some
    OpenSanctions Occupancy records have no ``post``); ``country`` is an ISO alpha-2 code;
    dates are ISO prefixes. ``status`` is what the list says about the tenure: ``current``,
    ``ended`` or None (not said).
    """

    title: str | None
    country: str | None = None
    start_date: str | None = None
    end_date: str | None = None
    status: str | None = None

    def tenure_ended(self, today: str) -> bool | None:
        """True when the tenure is over on ``today`` (ISO date), False when it is not, None when
        the list cannot tell (no end date, an end date in ``today``'s month or year)."""
        if self.status == "ended":
            return True
        if self.end_date:
            known = today[: len(self.end_date)]
            if self.end_date < known:
                return True
            if self.end_date > known:
                return False
            return None
        return False if self.status == "current" else None


@dataclass(frozen=True, slots=True)
class ListEntity:
    entity_id: str
    list_code: str
    schema: Schema
    names: tuple[NameEntry, ...]
    programs: tuple[str, ...] = ()
    birth_dates: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    identifiers: tuple[tuple[str, str], ...] = ()
    gender: str | None = None
    remarks: str | None = None
    positions: tuple[PepPosition, ...] = ()  # PEP lists: the public positions held

    def fingerprint(self) -> str:
        """A digest of everything the list says about the entry: it changes when the entry does
        (so a reviewed false positive comes back for review) and not otherwise."""
        content: tuple[object, ...] = (
            self.schema,
            sorted((n.name, n.kind) for n in self.names),
            sorted(self.programs),
            sorted(self.birth_dates),
            sorted(self.countries),
            sorted(self.identifiers),
            self.gender,
        )
        if self.positions:  # only then: entries without positions keep their fingerprints
            content += (sorted(repr(p) for p in self.positions),)
        canonical = repr(content)
        return hashlib.sha256(canonical.encode()).hexdigest()[:20]

    @property
    def primary_name(self) -> str:
        for entry in self.names:
            if entry.kind == "primary":
                return entry.name
        return self.names[0].name if self.names else ""


@dataclass(frozen=True, slots=True)
class ListSnapshot:
    """One version of one list, parsed. ``warnings`` lists rows that could not be used.
    ``published``: the publisher's date inside the files (ISO), None when they carry none."""

    code: str
    title: str
    version: str
    source_url: str
    checks: frozenset[str]
    entities: tuple[ListEntity, ...]
    warnings: tuple[str, ...] = field(default=())
    # the publisher's date found inside the file (or stated by the operator), ISO; None: unknown
    published: str | None = None
    licence: str | None = None  # as the operator declared it
