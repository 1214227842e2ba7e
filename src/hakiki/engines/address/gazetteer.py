"""The bundled gazetteer (data/gazetteer.json, built by scripts/build_gazetteer.py)."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources

# What each country calls its levels, top first (towns come from GeoNames in all four).
LEVELS: dict[str, tuple[str, ...]] = {
    "KE": ("county", "ward", "constituency"),
    "UG": ("district",),
    "TZ": ("region", "district"),
    "NG": ("state", "lga"),
}


@dataclass(frozen=True)
class Area:
    country: str
    code: str
    name: str
    level: str  # county | ward | constituency | district | region | state | lga | town
    parent: str | None  # code of the top-level area (county, district, region, state)
    lat: float | None
    lon: float | None
    radius_km: float | None
    aliases: tuple[str, ...] = ()
    population: int = 0


def normalise(text: str) -> str:
    """Lower case, no accents, apostrophes dropped, other punctuation as spaces."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"['`]", "", text.lower())
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


@dataclass(frozen=True)
class Gazetteer:
    areas: dict[str, Area]  # by code, all countries
    names: dict[str, dict[str, tuple[Area, ...]]]  # country -> normalised name -> areas
    postcodes: dict[str, dict[str, str]]  # country -> postcode prefix -> area code
    sources: dict[str, str]  # package -> version

    def top(self, area: Area) -> Area:
        return area if area.parent is None else self.areas[area.parent]


@cache
def load() -> Gazetteer:
    raw = json.loads(
        (resources.files("hakiki.engines.address") / "data" / "gazetteer.json").read_text()
    )
    areas: dict[str, Area] = {}
    names: dict[str, dict[str, tuple[Area, ...]]] = {}
    for country, data in raw["countries"].items():
        index: dict[str, list[Area]] = {}
        for row in [*data["areas"], *data["towns"]]:
            area = Area(
                country=country, code=row["code"], name=row["name"], level=row["level"],
                parent=row["parent"], lat=row["lat"], lon=row["lon"], radius_km=row["radius_km"],
                aliases=tuple(row.get("aliases", ())), population=row.get("population", 0),
            )  # fmt: skip
            areas[area.code] = area
            for name in {area.name, *area.aliases}:
                index.setdefault(normalise(name), []).append(area)
        names[country] = {k: tuple(v) for k, v in index.items()}
    return Gazetteer(areas=areas, names=names, postcodes=raw["postcodes"], sources=raw["sources"])
