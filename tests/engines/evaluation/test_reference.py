"""The 360 engine's reference data: the shipped water-need table, the operator files' loaders
(and their refusals), and the factor table of docs/evaluation-360.md against the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hakiki.engines.evaluation import factors
from hakiki.engines.evaluation.reference import (
    ReferenceFileError,
    climate_norm,
    load_climate,
    load_wfp_prices,
    price_volatility,
    water_need,
)

HEADER = "country_code,area,season,rainfall_normal_mm,rainfall_cv_percent,ndvi_norm,source,as_of\n"
DOC = Path(__file__).resolve().parents[3] / "docs" / "evaluation-360.md"


def test_the_water_need_table() -> None:
    assert water_need("Maize") == (500.0, 800.0)
    assert water_need("beans") == (300.0, 500.0)
    assert water_need("coffee") is None


def test_climate_rows_with_their_source_and_an_all_season_row() -> None:
    table = load_climate(
        HEADER + "KE,Murang'a,all,1100,,0.6,CHIRPS v2.0,2025-12-31\n"
        "KE,Nakuru,long_rains,650,22,,CHIRPS v2.0,2025-12-31\n"
    )
    any_season = climate_norm(table, "KE", "Muranga", "short_rains")
    assert any_season is not None and any_season.rainfall_cv_percent is None
    assert any_season.rainfall_normal_mm is not None
    assert any_season.rainfall_normal_mm.source == "CHIRPS v2.0"
    assert climate_norm(table, "KE", "Nakuru", "short_rains") is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("country_code,area\nKE,Nakuru\n", "missing columns"),
        (
            HEADER + "KE,Nakuru,all,=1+1,,,CHIRPS,2025\n",
            "line 2: rainfall_normal_mm is not a number",
        ),
        (HEADER + "KE,Nakuru,all,-5,,,CHIRPS,2025\n", "must be a number of 0 or more"),
        (HEADER + "KE,Nakuru,all,nan,,,CHIRPS,2025\n", "must be a number of 0 or more"),
        (HEADER + "KE,Nakuru,all,600,,,,2025\n", "source is empty"),
    ],
)
def test_a_bad_climate_file_is_refused_with_its_line(text: str, problem: str) -> None:
    with pytest.raises(ReferenceFileError, match=problem):
        load_climate(text)


def test_wfp_prices_keep_the_longest_series_of_the_last_three_years() -> None:
    rows = [
        "date,admin1,admin2,market,commodity,unit,pricetype,price",
        "#date,#adm1+name,#adm2+name,#loc+market+name,#item+name,#item+unit,#item+price+type,#value",
    ]
    rows += [f"2019-{m:02d}-15,Nakuru,Nakuru,Old,Maize (white),KG,Retail,{1000}" for m in (1, 2)]
    rows += [
        f"2025-{m:02d}-15,Nakuru,Nakuru,Nakuru,Maize (white),KG,Retail,{40 + m}"
        for m in range(1, 5)
    ]
    rows += [f"2025-0{m}-15,Nakuru,Nakuru,Njoro,Maize (white),KG,Retail,50" for m in (1, 2, 3)]
    table = load_wfp_prices("\n".join(rows))
    found = price_volatility(table, "Nakuru", "maize")
    assert found is not None and found.market == "Nakuru" and found.observations == 4
    assert found.cv_percent == 3.04 and found.as_of == "2025-04-15"  # s.d. 1.29 / mean 42.5
    with pytest.raises(ReferenceFileError, match="not a WFP price file"):
        load_wfp_prices("a,b\n1,2\n")
    with pytest.raises(ReferenceFileError, match="line 3"):
        load_wfp_prices(rows[0] + "\n" + rows[1] + "\nnot-a-date,Nakuru,N,N,Maize,KG,Retail,1\n")


def _points(text: str) -> list[tuple[float, int]]:
    return [(float(x), int(y)) for x, y in re.findall(r"(-?[\d.]+)→(\d+)", text)]


def test_the_documented_scales_are_the_codes() -> None:
    """Every scale row of docs/evaluation-360.md's factor table is the one the engine uses."""
    scales = {
        "days_past_due": factors.DAYS_PAST_DUE,
        "defaulted_accounts": factors.DEFAULTED_ACCOUNTS,
        "months_of_history": factors.MONTHS_OF_HISTORY,
        "enquiries_90_days": factors.ENQUIRIES_90_DAYS,
        "yield_cv_percent": factors.YIELD_CV,
        "ndvi_percent_of_norm": factors.NDVI_PERCENT_OF_NORM,
        "vaccinated_percent": factors.VACCINATED_PERCENT,
        "net_cash_margin_percent": factors.NET_CASH_MARGIN,
        "debt_service_cover": factors.DEBT_SERVICE_COVER,
        "inflow_cv_percent": factors.INFLOW_CV,
        "months_covered": factors.MONTHS_COVERED,
        "distance_to_market_km": factors.DISTANCE_KM,
        "price_cv_percent": factors.PRICE_CV,
        "net_margin_percent": factors.NET_PROFIT_MARGIN,
        "current_ratio": factors.CURRENT_RATIO,
        "debt_to_equity": factors.DEBT_TO_EQUITY,
        "years_of_accounts": factors.YEARS_OF_ACCOUNTS,
        "revenue_growth_percent": factors.REVENUE_GROWTH,
    }
    rows = re.findall(
        r"^\| [^|]* \| `(\w+)` \| [^|]* \| (\d+)% \| ([^|]*) \|$", DOC.read_text(), re.M
    )
    documented = {name: _points(scale) for name, _, scale in rows}
    for name, scale in scales.items():
        assert documented[name] == [(float(x), y) for x, y in scale], name
    assert documented["rainfall_cv_percent"] == [(float(x), y) for x, y in factors.RAINFALL_CV]
    weights = {name: int(w) for name, w, _ in rows}
    assert weights["days_past_due"] == 40 and weights["audit_opinion"] == 20
    assert len(rows) == 26
