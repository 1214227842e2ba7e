"""Reference data: the shipped crop water-need table, and the loaders of an operator's files
(climate norms per area, WFP market prices as published on HDX). Plain CSV, read once."""

from __future__ import annotations

import csv
import io
import re
import statistics
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources

from hakiki.engines.evaluation.inputs import Sourced

CROP_WATER_SOURCE = "Brouwer & Heibloem, FAO Irrigation Water Management Training Manual 3 (1986)"
PRICE_MONTHS = 36  # the window of the volatility: three years of monthly prices


def key(text: str) -> str:
    """Lower case, no accents or apostrophes, single spaces: how areas, seasons and crops match."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"['`]", "", text)  # Murang'a is Muranga, as the gazetteer reads it
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


@cache
def crop_water_need() -> dict[str, tuple[float, float]]:
    text = (
        resources.files("hakiki.engines.evaluation") / "data" / "crop_water_need.csv"
    ).read_text()
    return {
        row["crop"]: (float(row["need_min_mm"]), float(row["need_max_mm"]))
        for row in csv.DictReader(io.StringIO(text))
    }


def water_need(crop: str) -> tuple[float, float] | None:
    table = crop_water_need()
    name = key(crop)
    return table.get(name) or table.get(name.removesuffix("s"))


def _sourced(value: float | None, source: str, as_of: str | None) -> Sourced | None:
    return None if value is None else Sourced(value, source, as_of)


class ReferenceFileError(ValueError):
    """An operator's file that cannot be read: says which line and why."""


@dataclass(frozen=True)
class ClimateNorm:
    rainfall_normal_mm: Sourced | None
    rainfall_cv_percent: Sourced | None
    ndvi_norm: Sourced | None


CLIMATE_COLUMNS = (
    "country_code",
    "area",
    "season",
    "rainfall_normal_mm",
    "rainfall_cv_percent",
    "ndvi_norm",
    "source",
    "as_of",
)


def _number(row: dict[str, str], column: str, line: int) -> float | None:
    text = (row.get(column) or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ReferenceFileError(f"line {line}: {column} is not a number") from None
    if value != value or value < 0:
        raise ReferenceFileError(f"line {line}: {column} must be a number of 0 or more")
    return value


def load_climate(text: str) -> dict[tuple[str, str, str], ClimateNorm]:
    """Rows of ``CLIMATE_COLUMNS`` keyed by (country, area, season); a blank figure is unknown."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in CLIMATE_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ReferenceFileError("missing columns: " + ", ".join(missing))
    table: dict[tuple[str, str, str], ClimateNorm] = {}
    for line, row in enumerate(reader, start=2):
        source, as_of = (row["source"] or "").strip(), (row["as_of"] or "").strip() or None
        if not source:
            raise ReferenceFileError(f"line {line}: source is empty (name the data set)")

        norm = ClimateNorm(
            *(
                _sourced(_number(row, column, line), source, as_of)
                for column in ("rainfall_normal_mm", "rainfall_cv_percent", "ndvi_norm")
            )
        )
        table[(row["country_code"].strip().upper(), key(row["area"]), key(row["season"]))] = norm
    return table


def climate_norm(
    table: dict[tuple[str, str, str], ClimateNorm], country: str, area: str, season: str
) -> ClimateNorm | None:
    """The row for the season, else the area's ``all`` row."""
    return table.get((country, key(area), key(season))) or table.get((country, key(area), "all"))


@dataclass(frozen=True)
class PriceVolatility:
    cv_percent: float
    observations: int
    market: str
    commodity: str
    as_of: str


def load_wfp_prices(text: str) -> dict[tuple[str, str], PriceVolatility]:
    """WFP's food price file for one country as published on HDX (``date, admin1, admin2,
    market, ..., commodity, unit, priceflag, pricetype, currency, price, ...``; its HXL tag row
    is skipped): the coefficient of variation of each series' last ``PRICE_MONTHS`` months,
    keyed by (admin1, commodity), keeping the longest series of each."""
    reader = csv.DictReader(io.StringIO(text))
    needed = ("date", "admin1", "market", "commodity", "unit", "pricetype", "price")
    missing = [c for c in needed if c not in (reader.fieldnames or ())]
    if missing:
        raise ReferenceFileError("not a WFP price file: missing columns " + ", ".join(missing))
    series: dict[tuple[str, str, str, str, str], list[tuple[date, float]]] = {}
    for line, row in enumerate(reader, start=2):
        if row["date"].startswith("#"):
            continue
        try:
            day = date.fromisoformat(row["date"].strip()[:10])
            price = float(row["price"])
        except ValueError:
            raise ReferenceFileError(f"line {line}: date or price unreadable") from None
        name = (
            key(row["admin1"]),
            key(row["commodity"]),
            row["market"],
            row["unit"],
            row["pricetype"],
        )
        series.setdefault(name, []).append((day, price))
    best: dict[tuple[str, str], PriceVolatility] = {}
    for (admin1, commodity, market, _unit, _kind), points in series.items():
        volatility = _volatility(points, market, commodity)
        if volatility is None:
            continue
        known = best.get((admin1, commodity))
        if known is None or volatility.observations > known.observations:
            best[(admin1, commodity)] = volatility
    return best


def _volatility(
    points: Iterable[tuple[date, float]], market: str, commodity: str
) -> PriceVolatility | None:
    ordered = sorted(points)
    last = ordered[-1][0]
    start = date(last.year - PRICE_MONTHS // 12, last.month, 1)
    window = [price for day, price in ordered if day >= start]
    if len(window) < 3 or statistics.fmean(window) <= 0:
        return None
    cv = statistics.stdev(window) / statistics.fmean(window) * 100
    return PriceVolatility(round(cv, 2), len(window), market, commodity, last.isoformat())


def price_volatility(
    table: dict[tuple[str, str], PriceVolatility], area: str, produce: str
) -> PriceVolatility | None:
    """The area's series for the produce: an exact commodity name, else one that starts with
    it (``maize`` finds ``maize white``)."""
    area_key, produce_key = key(area), key(produce)
    exact = table.get((area_key, produce_key))
    if exact is not None:
        return exact
    found = sorted(
        (v for (a, c), v in table.items() if a == area_key and c.startswith(produce_key)),
        key=lambda v: (-v.observations, v.commodity),
    )
    return found[0] if found else None
