"""Kenyan registration plates, by category (sources in ``data/SOURCES.md``).

Spaces, dashes and case are ignored; the answer gives the plate as printed (``KCA 123A``).
A plate that fits no category is an `IdentifierError`: personalised plates are not covered.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from hakiki.engines.vehicle.errors import IdentifierError

Category = Literal[
    "civilian",
    "civilian_old",
    "motorcycle",
    "tricycle",
    "tractor",
    "heavy_machinery",
    "trailer",
    "national_government",
    "county_government",
    "governor",
    "diplomatic",
    "consular",
    "military",
]

COUNTIES: dict[int, str] = dict(
    enumerate(
        (
            "Mombasa", "Kwale", "Kilifi", "Tana River", "Lamu", "Taita-Taveta", "Garissa",
            "Wajir", "Mandera", "Marsabit", "Isiolo", "Meru", "Tharaka-Nithi", "Embu", "Kitui",
            "Machakos", "Makueni", "Nyandarua", "Nyeri", "Kirinyaga", "Murang'a", "Kiambu",
            "Turkana", "West Pokot", "Samburu", "Trans-Nzoia", "Uasin Gishu",
            "Elgeyo-Marakwet", "Nandi", "Baringo", "Laikipia", "Nakuru", "Narok", "Kajiado",
            "Kericho", "Bomet", "Kakamega", "Vihiga", "Bungoma", "Busia", "Siaya", "Kisumu",
            "Homa Bay", "Migori", "Kisii", "Nyamira", "Nairobi",
        ),
        start=1,
    )
)  # fmt: skip

MILITARY = {"KA": "Kenya Army", "KAF": "Kenya Air Force", "KN": "Kenya Navy"}

_SERIES = "[A-HJ-NP-Z]"  # civilian series skip I and O


@dataclass(frozen=True)
class Plate:
    registration_number: str  # as printed: KCA 123A
    category: Category
    description: str
    series: str | None = None
    number: str | None = None
    suffix: str | None = None
    county_code: int | None = None
    county: str | None = None
    mission_code: int | None = None
    service: str | None = None  # the military service
    state: str | None = None  # Nigeria: the state of the issuing LGA
    lga: str | None = None  # Nigeria: the issuing Local Government Area, when its code is known
    lga_code: str | None = None  # Nigeria: the three letters naming the LGA


def _county(code: str) -> tuple[int, str]:
    number = int(code)
    if number not in COUNTIES:
        raise IdentifierError(f"{code} is not a county code (01 to 47)")
    return number, COUNTIES[number]


def _civilian(m: re.Match[str]) -> Plate:
    series, number, suffix = m.groups()
    return Plate(f"{series} {number}{suffix}", "civilian", "Private or commercial vehicle "
                 "(series since 1989)", series, number, suffix)  # fmt: skip


def _old(m: re.Match[str]) -> Plate:
    series, number = m.groups()
    return Plate(f"{series} {number}", "civilian_old", "Private or commercial vehicle "
                 "(series of 1950-1989, no suffix letter)", series, number)  # fmt: skip


def _series_plate(category: Category, description: str) -> Callable[[re.Match[str]], Plate]:
    def build(m: re.Match[str]) -> Plate:
        series, number, suffix = m.groups()
        return Plate(f"{series} {number}{suffix}", category, description, series, number, suffix)

    return build


def _government(m: re.Match[str]) -> Plate:
    letter, number, suffix = (g or "" for g in m.groups())
    printed = f"GK {letter}{number}{suffix}"
    return Plate(printed, "national_government", "National government vehicle", "GK"
                 + letter, number, suffix or None)  # fmt: skip


def _county_plate(m: re.Match[str]) -> Plate:
    code, number, suffix = m.groups()
    county_code, county = _county(code)
    return Plate(
        f"{code} CG {number}{suffix or ''}",
        "county_government",
        f"County government vehicle ({county})",
        "CG",
        number,
        suffix,
        county_code=county_code,
        county=county,
    )


def _governor(m: re.Match[str]) -> Plate:
    code, suffix = m.groups()
    county_code, county = _county(code)
    return Plate(
        f"GVN {code}{suffix or ''}",
        "governor",
        f"County governor's vehicle ({county})",
        "GVN",
        code,
        suffix,
        county_code=county_code,
        county=county,
    )


def _diplomatic(m: re.Match[str]) -> Plate:
    mission, number, suffix = m.groups()
    return Plate(
        f"{mission} CD {number}{suffix or ''}",
        "diplomatic",
        "Diplomatic mission vehicle (CD)",
        "CD",
        number,
        suffix,
        mission_code=int(mission),
    )


def _military(m: re.Match[str]) -> Plate:
    service, number, suffix = m.groups()
    return Plate(
        f"{service} {number}{suffix or ''}",
        "military",
        f"Kenya Defence Forces vehicle ({MILITARY[service]})",
        service,
        number,
        suffix,
        service=MILITARY[service],
    )


def _trailer(m: re.Match[str]) -> Plate:
    series, number = m.groups()
    return Plate(f"{series} {number}", "trailer", "Trailer", series, number)


# First match wins: a suffixed KAF plate is the civilian series of 1989, an unsuffixed one
# the Air Force's; the four-letter series come before the three-letter civilian ones.
_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Plate]], ...] = (
    (re.compile(r"^(KM[A-Z]{2})(\d{3})([A-Z])$"), _series_plate("motorcycle", "Motorcycle")),
    (re.compile(r"^(KTW[A-Z])(\d{3})([A-Z])$"), _series_plate("tricycle", "Three-wheeler")),
    (re.compile(r"^(KTC[A-Z])(\d{3})([A-Z])$"), _series_plate("tractor", "Tractor")),
    (
        re.compile(r"^(KHM[A-Z])(\d{3})([A-Z])$"),
        _series_plate("heavy_machinery", "Heavy machinery"),
    ),
    (re.compile(rf"^(K{_SERIES}{{2}})(\d{{3}})([A-Z])$"), _civilian),
    (re.compile(r"^(KAF|KA|KN)(\d{1,4})([A-Z])?$"), _military),
    (re.compile(r"^(K[A-Z]{2})(\d{1,3})$"), _old),
    (re.compile(r"^GK([A-Z])?(\d{3})([A-Z])?$"), _government),
    (re.compile(r"^GVN(\d{2,3})([A-Z])?$"), _governor),
    (re.compile(r"^(\d{2})CG(\d{3})([A-Z])?$"), _county_plate),
    (re.compile(r"^(\d{1,3})CD(\d{1,3})([A-Z])?$"), _diplomatic),
    (re.compile(r"^(Z[A-Z])(\d{3,4})$"), _trailer),
)

_STRIP = re.compile(r"[\s\-]")


def parse_plate(raw: str) -> Plate:
    """The plate's category and parts; `IdentifierError` when it fits no Kenyan format."""
    compact = _STRIP.sub("", raw).upper()
    if not compact:
        raise IdentifierError("the registration number is empty")
    for pattern, build in _RULES:
        match = pattern.match(compact)
        if match:
            return build(match)
    raise IdentifierError(
        f"{compact[:20]!r} fits no Kenyan plate format (civilian KCA 123A or KAA 123, "
        "motorcycle KMDA 123A, GK A123B, 47 CG 123A, 1 CD 12K, KA/KAF/KN military, "
        "tractor KTCA 123A, trailer ZD 1234)"
    )
