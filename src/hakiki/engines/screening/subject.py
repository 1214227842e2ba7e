"""What a client asks to screen."""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import Schema

_GENDERS = {"m": "male", "male": "male", "f": "female", "female": "female"}


@dataclass(frozen=True, slots=True)
class Subject:
    """A person or organisation to screen.

    Give either ``name`` (the full name as one string) or its parts; when both are given,
    ``name`` is used. ``countries`` are nationalities, residence or incorporation countries as
    codes ("KE", "ke") or English names ("Kenya"). ``birth_date`` is ISO ("1971-03-02",
    "1971-03" or "1971"). ``identifiers`` are document numbers (passport, national ID, IMO).
    """

    name: str | None = None
    first_name: str | None = None
    middle_name: str | None = None
    last_name: str | None = None
    schema: Schema = "Person"
    birth_date: str | None = None
    countries: tuple[str, ...] = ()
    identifiers: tuple[str, ...] = ()
    gender: str | None = None

    @property
    def full_name(self) -> str:
        if self.name and self.name.strip():
            return self.name.strip()
        parts = (self.first_name, self.middle_name, self.last_name)
        return " ".join(p.strip() for p in parts if p and p.strip())

    @property
    def country_codes(self) -> tuple[str, ...]:
        codes = (to_country_code(c) for c in self.countries)
        return tuple(dict.fromkeys(c for c in codes if c))

    @property
    def normalized_gender(self) -> str | None:
        if not self.gender:
            return None
        return _GENDERS.get(self.gender.strip().lower())
