"""Parse a free-text address and match it against the bundled gazetteer.

The address is cut at commas, semicolons and line breaks. P.O. Box numbers and postal codes
are taken out first; segments that read as a street ("Kampala Road", "Plot 5") are not matched
as a whole, and a place name inside them is skipped when a street word follows it. Every other
segment is looked up whole (exactly, then, unless another of the four countries has the name
exactly, with a typo tolerance: rapidfuzz ratio >= 80), and its
word n-grams exactly. Words that only name a level ("City", "County", "LGA", "District",
"Region", "State", "Ward") are dropped before the look-up.

Of the places found, the top-level area (county, district, region or state) that most of them
belong to wins; places under another area are reported as conflicts.

Match levels:
    exact    every place found was spelled as in the gazetteer (up to case, punctuation and
             level words), none conflicts, and the top-level area is known
    partial  something matched, but with a typo correction, a conflict, another country named,
             or no top-level area
    none     nothing matched in this country's gazetteer
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process

from hakiki.engines.address.gazetteer import (
    LEVELS,
    Area,
    Gazetteer,
    haversine_km,
    load,
    normalise,
)

COUNTRIES = ("KE", "UG", "TZ", "NG")
FUZZY_CUTOFF = 80.0
_COUNTRY_NAMES = {
    "kenya": "KE", "republic of kenya": "KE", "uganda": "UG", "republic of uganda": "UG",
    "tanzania": "TZ", "united republic of tanzania": "TZ", "nigeria": "NG",
    "federal republic of nigeria": "NG",
}  # fmt: skip
_LEVEL_WORDS = (
    "local government area", "local government", "lga", "sub county", "subcounty", "county",
    "district", "region", "state", "ward", "city", "town", "municipality", "municipal",
    "metropolitan", "mkoa", "wilaya", "mkoa wa", "jiji la", "manispaa ya",
)  # fmt: skip
_STREET_WORDS = frozenset(
    [
        "road",
        "rd",
        "street",
        "st",
        "avenue",
        "ave",
        "lane",
        "ln",
        "drive",
        "dr",
        "close",
        "crescent",
        "cres",
        "way",
        "highway",
        "hwy",
        "plot",
        "house",
        "hse",
        "building",
        "bldg",
        "floor",
        "flr",
        "apartment",
        "apartments",
        "apt",
        "suite",
        "block",
        "off",
        "opposite",
        "opp",
        "along",
        "junction",
        "mall",
        "plaza",
        "tower",
        "towers",
        "centre",
        "center",
        "court",
        "flat",
    ]
)
_PO_BOX = re.compile(
    r"\b(?:p\s*\.?\s*o\s*\.?\s*box|post\s+office\s+box|private\s+bag|box)\s*[:.#]?\s*(\d{1,6})"
    r"(?:\s*[-–/,]\s*(\d{5,6}))?",
    re.IGNORECASE,
)
_POSTCODE = re.compile(r"(?<![\d-])\b(\d{5,6})\b(?![-\d])")


@dataclass(frozen=True)
class Place:
    code: str
    name: str
    level: str  # county | ward | constituency | district | region | state | lga | town
    lat: float | None
    lon: float | None
    radius_km: float | None

    @classmethod
    def of(cls, area: Area) -> Place:
        return cls(area.code, area.name, area.level, area.lat, area.lon, area.radius_km)


@dataclass(frozen=True)
class Correction:
    typed: str
    matched: str


@dataclass(frozen=True)
class AddressAnalysis:
    input: str
    country: str
    po_box: str | None
    postal_code: str | None
    area: Place | None  # county (KE), district (UG), region (TZ), state (NG)
    subarea: Place | None  # ward or else constituency (KE), district (TZ), LGA (NG)
    town: Place | None  # a GeoNames populated place
    match: str  # exact | partial | none
    corrections: tuple[Correction, ...]  # typos fixed: ("Nairobii", "Nairobi")
    conflicts: tuple[str, ...]  # places found that lie outside `area`
    unmatched: tuple[str, ...]  # segments that are neither street nor place
    other_countries: tuple[str, ...]  # other countries where an unmatched place or a named
    # country is found: a sign of the wrong country

    @property
    def most_specific(self) -> Place | None:
        """The finest place that has coordinates: town, then subarea, then area."""
        for place in (self.town, self.subarea, self.area):
            if place is not None and place.lat is not None:
                return place
        return None


@dataclass(frozen=True)
class _Hit:
    typed: str
    areas: tuple[Area, ...]
    fuzzy: bool


@cache
def _keys(country: str) -> tuple[str, ...]:
    return tuple(load().names[country])


def _strip_level_words(segment: str) -> str:
    words = f" {segment} "
    for word in sorted(_LEVEL_WORDS, key=len, reverse=True):
        words = words.replace(f" {word} ", " ")
    return " ".join(words.split())


def _lookup(gaz: Gazetteer, country: str, text: str, fuzzy: bool) -> _Hit | None:
    key = _strip_level_words(text)
    if not key:
        return None
    if key in gaz.names[country]:
        return _Hit(text, gaz.names[country][key], fuzzy=False)
    if not fuzzy or len(key) < 4:
        return None
    found = process.extractOne(key, _keys(country), scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
    if found is None:
        return None
    return _Hit(text, gaz.names[country][found[0]], fuzzy=True)


def _ngrams(gaz: Gazetteer, country: str, words: list[str]) -> list[_Hit]:
    hits: list[_Hit] = []
    used = [False] * len(words)
    for size in range(min(4, len(words)), 0, -1):
        for start in range(len(words) - size + 1):
            span = range(start, start + size)
            if any(used[i] for i in span):
                continue
            gram = words[start : start + size]
            after = words[start + size] if start + size < len(words) else ""
            if after in _STREET_WORDS or any(w.isdigit() or w in _STREET_WORDS for w in gram):
                continue
            if all(w in _LEVEL_WORDS for w in gram):
                continue
            hit = _lookup(gaz, country, " ".join(gram), fuzzy=False)
            if hit is not None and len(_strip_level_words(" ".join(gram))) >= 3:
                hits.append(hit)
                for i in span:
                    used[i] = True
    return hits


def parse_address(text: str, country: str) -> AddressAnalysis:
    """Parse ``text`` as an address in ``country`` (KE, UG, TZ or NG)."""
    country = country.upper()
    if country not in COUNTRIES:
        raise ValueError(f"country must be one of {COUNTRIES}, not {country!r}")
    gaz = load()
    po_box = postal_code = None
    rest = text
    box = _PO_BOX.search(rest)
    if box:
        po_box, postal_code = box.group(1), box.group(2)
        rest = rest[: box.start()] + "," + rest[box.end() :]
    code = _POSTCODE.search(rest)
    if code:
        postal_code = postal_code or code.group(1)
        rest = rest[: code.start()] + rest[code.end() :]

    hits: list[_Hit] = []
    unmatched: list[str] = []
    named_countries: set[str] = set()
    for raw in re.split(r"[,;\n]+", rest):
        segment = normalise(raw)
        if not segment:
            continue
        if segment in _COUNTRY_NAMES:
            named_countries.add(_COUNTRY_NAMES[segment])
            continue
        words = segment.split()
        streety = any(w in _STREET_WORDS for w in words) or any(w.isdigit() for w in words)
        # No typo correction for a name that another of the four countries has exactly.
        abroad = any(_lookup(gaz, cc, segment, fuzzy=False) for cc in COUNTRIES if cc != country)
        whole = None if streety else _lookup(gaz, country, segment, fuzzy=not abroad)
        if whole is not None:
            hits.append(_Hit(raw.strip(), whole.areas, whole.fuzzy))
            continue
        found = _ngrams(gaz, country, words)
        hits.extend(found)
        if not found and not streety:
            unmatched.append(raw.strip())

    table = gaz.postcodes.get(country, {})
    if postal_code:  # Tanzania: 5 digits, the first 3 (or 2) name the district or region
        for prefix in (postal_code[:3], postal_code[:2]):
            if prefix in table:
                hits.append(_Hit(postal_code, (gaz.areas[table[prefix]],), fuzzy=False))
                break

    other = sorted(
        {cc for cc in named_countries if cc != country}
        | {
            cc
            for segment in unmatched
            for cc in COUNTRIES
            if cc != country and _lookup(gaz, cc, normalise(segment), fuzzy=False) is not None
        }
    )
    if not hits:
        return AddressAnalysis(
            input=text, country=country, po_box=po_box, postal_code=postal_code, area=None,
            subarea=None, town=None, match="none", corrections=(), conflicts=(),
            unmatched=tuple(unmatched), other_countries=tuple(other),
        )  # fmt: skip

    # The top-level area that most hits fall in; a hit naming the area itself counts double.
    votes: dict[str, float] = {}
    for hit in hits:
        tops = {gaz.top(a).code for a in hit.areas}
        for top in tops:
            direct = any(a.code == top for a in hit.areas)
            votes[top] = votes.get(top, 0) + (2 if direct else 1) / len(tops)
    best = max(votes, key=lambda c: (votes[c], gaz.areas[c].population, c))
    area = gaz.areas[best]
    subarea: Area | None = None
    town: Area | None = None
    conflicts: list[str] = []
    second = LEVELS[country][1:]  # finest first: a ward beats a constituency
    for hit in hits:
        mine = [a for a in hit.areas if gaz.top(a).code == best or _town_within(a, area)]
        if not mine:
            conflicts.append(hit.typed)
            continue
        for a in mine:
            if a.level in second and (
                subarea is None or second.index(a.level) < second.index(subarea.level)
            ):
                subarea = a
            if a.level == "town" and (town is None or a.population > town.population):
                town = a
    corrections = tuple(Correction(h.typed, _best_name(h, best, gaz)) for h in hits if h.fuzzy)
    exact = not corrections and not conflicts and not other
    return AddressAnalysis(
        input=text,
        country=country,
        po_box=po_box,
        postal_code=postal_code,
        area=Place.of(area),
        subarea=Place.of(subarea) if subarea else None,
        town=Place.of(town) if town else None,
        match="exact" if exact else "partial",
        corrections=corrections,
        conflicts=tuple(conflicts),
        unmatched=tuple(unmatched),
        other_countries=tuple(other),
    )


def _town_within(town: Area, area: Area) -> bool:
    """A town's area is inferred from the nearest centroid, so a town within the stated
    area's radius belongs to it as well."""
    if town.level != "town" or None in (town.lat, town.lon, area.lat, area.lon, area.radius_km):
        return False
    distance = haversine_km(town.lat or 0, town.lon or 0, area.lat or 0, area.lon or 0)
    return distance <= (area.radius_km or 0)


def _best_name(hit: _Hit, top: str, gaz: Gazetteer) -> str:
    for a in hit.areas:
        if gaz.top(a).code == top:
            return a.name
    return hit.areas[0].name


@dataclass(frozen=True)
class GpsCheck:
    verdict: str  # inside | near | outside | unknown
    reference: Place | None  # the place the point was measured against
    distance_km: float | None  # to the reference's centroid
    radius_km: float | None  # inside within radius, near within twice the radius
    area_verdict: str  # the same test against the top-level area
    nearest_town: Place | None  # the gazetteer town nearest to the point, any of the 4 countries


def _verdict(place: Place | None, lat: float, lon: float) -> tuple[str, float | None]:
    if place is None or place.lat is None or place.lon is None or place.radius_km is None:
        return "unknown", None
    distance = haversine_km(lat, lon, place.lat, place.lon)
    if distance <= place.radius_km:
        return "inside", distance
    return ("near" if distance <= 2 * place.radius_km else "outside"), distance


def check_gps(address: AddressAnalysis, lat: float, lon: float) -> GpsCheck:
    """Is (lat, lon) inside the place the address names? Distance to the centroid of the most
    specific place with coordinates, against that place's radius (see docs/fraud-engines.md)."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError("latitude must be in [-90, 90] and longitude in [-180, 180]")
    reference = address.most_specific
    verdict, distance = _verdict(reference, lat, lon)
    area_verdict, _ = _verdict(address.area, lat, lon)
    gaz = load()
    towns = [a for a in gaz.areas.values() if a.level == "town" and a.lat is not None]
    nearest = min(towns, key=lambda a: haversine_km(lat, lon, a.lat or 0, a.lon or 0))
    return GpsCheck(
        verdict=verdict,
        reference=reference,
        distance_km=None if distance is None else round(distance, 2),
        radius_km=reference.radius_km if reference else None,
        area_verdict=area_verdict,
        nearest_town=Place.of(nearest),
    )
