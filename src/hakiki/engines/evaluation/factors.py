"""The sub-factors of each component: the figure, its 0-1000 score on a documented scale
(docs/evaluation-360.md), its weight inside the component and where the figure came from. A
figure that is missing gives a factor with no score: the component is re-weighted over the
factors it has (the trace says so)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hakiki.engines.evaluation.inputs import (
    Accounts,
    Bureau,
    CashFlow,
    Climate,
    CropFarm,
    Herd,
    Market,
    Sourced,
)
from hakiki.engines.evaluation.scale import piecewise

Value = float | int | str | bool | None


@dataclass(frozen=True)
class Factor:
    component: str
    name: str
    weight: int  # percent of the component
    value: Value
    score: int | None  # None: the figure is missing
    source: str
    as_of: str | None = None
    note: str = ""


# The scales: (figure, score) points, linear in between, flat beyond the ends.
DAYS_PAST_DUE = ((0, 1000), (30, 700), (60, 450), (90, 250), (180, 100))
DEFAULTED_ACCOUNTS = ((0, 1000), (1, 300), (2, 100))
MONTHS_OF_HISTORY = ((0, 300), (12, 600), (36, 1000))
ENQUIRIES_90_DAYS = ((1, 1000), (3, 800), (6, 500), (10, 250))
RAINFALL_CV = ((10, 1000), (20, 800), (30, 550), (40, 300), (60, 100))
# This season's rainfall, percent of the norm: crops suffer from drought and from floods ...
SEASON_RAIN_CROP = ((50, 100), (75, 500), (90, 1000), (130, 1000), (175, 500), (250, 200))
# ... pasture only from drought.
SEASON_RAIN_PASTURE = ((50, 100), (75, 500), (100, 1000))
WATER_SHORTFALL = ((50, 0), (75, 400), (100, 1000))  # rainfall, percent of the need's minimum
WATER_EXCESS = ((100, 1000), (200, 600))  # rainfall, percent of the need's maximum
YIELD_CV = ((10, 1000), (25, 700), (50, 300), (80, 100))
NDVI_PERCENT_OF_NORM = ((50, 100), (70, 400), (90, 800), (100, 1000))
VACCINATED_PERCENT = ((0, 100), (50, 400), (80, 800), (100, 1000))
NET_CASH_MARGIN = ((-20, 0), (0, 300), (10, 600), (25, 900), (40, 1000))
DEBT_SERVICE_COVER = ((0, 0), (1, 400), (1.5, 750), (2, 900), (3, 1000))
INFLOW_CV = ((15, 1000), (30, 750), (50, 450), (80, 150))
MONTHS_COVERED = ((1, 200), (3, 400), (6, 700), (12, 1000))
OFFTAKE = {"contract": 1000, "cooperative": 750, "none": 350}
DISTANCE_KM = ((5, 1000), (20, 750), (50, 400), (100, 200))
PRICE_CV = ((10, 1000), (20, 750), (35, 450), (60, 200))
AUDIT_OPINION = {"unqualified": 1000, "qualified": 500, "disclaimer": 100, "adverse": 0}
NET_PROFIT_MARGIN = ((-10, 0), (0, 300), (5, 600), (10, 850), (20, 1000))
CURRENT_RATIO = ((0.5, 100), (1.0, 450), (1.5, 800), (2.0, 1000))
DEBT_TO_EQUITY = ((0.5, 1000), (1.0, 800), (2.0, 450), (4.0, 100))
YEARS_OF_ACCOUNTS = ((1, 300), (2, 550), (3, 800), (5, 1000))
REVENUE_GROWTH = ((-20, 100), (0, 500), (10, 800), (20, 1000))
GOOD_PRACTICE_POINTS = 250  # each of certified seed, fertiliser, insurance; 250 with none


def _scaled(
    component: str,
    name: str,
    weight: int,
    value: float | None,
    scale: Sequence[tuple[float, int]],
    source: str,
    as_of: str | None = None,
    note: str = "",
) -> Factor:
    if value is None:
        return Factor(component, name, weight, None, None, source, as_of, "missing")
    shown = round(value, 2) if isinstance(value, float) else value
    return Factor(component, name, weight, shown, piecewise(value, scale), source, as_of, note)


def _sourced(
    component: str,
    name: str,
    weight: int,
    figure: Sourced | None,
    scale: Sequence[tuple[float, int]],
) -> Factor:
    if figure is None:
        return Factor(component, name, weight, None, None, "none", None, "missing")
    return _scaled(component, name, weight, figure.value, scale, figure.source, figure.as_of)


def _worst(reports: Sequence[Bureau], attribute: str, highest: bool) -> tuple[int | None, str]:
    known = [(getattr(r, attribute), r) for r in reports if getattr(r, attribute) is not None]
    if not known:
        return None, "none"
    value, report = (max if highest else min)(known, key=lambda pair: pair[0])
    return int(value), f"{report.source}, {report.label}"


def bureau_factors(component: str, reports: Sequence[Bureau]) -> list[Factor]:
    """Credit history. With several reports (an agri-SME and its principals) each figure is the
    worst among them: in a small firm a principal's arrears are the firm's."""
    days, days_from = _worst(reports, "max_days_past_due", True)
    performing = [
        Bureau(
            non_performing_accounts=(r.non_performing_accounts or 0)
            + (r.written_off_accounts or 0),
            label=r.label,
            source=r.source,
        )
        for r in reports
        if r.non_performing_accounts is not None or r.written_off_accounts is not None
    ]
    defaulted, defaulted_from = _worst(performing, "non_performing_accounts", True)
    history = [r for r in reports[:1]]  # the borrower's own history, not its principals'
    months, months_from = _worst(history, "months_of_history", False)
    enquiries, enquiries_from = _worst(reports, "enquiries_90_days", True)
    return [
        _scaled(component, "days_past_due", 40, days, DAYS_PAST_DUE, days_from),
        _scaled(
            component,
            "defaulted_accounts",
            30,
            defaulted,
            DEFAULTED_ACCOUNTS,
            defaulted_from,
            note="non-performing plus written-off accounts",
        ),
        _scaled(component, "months_of_history", 15, months, MONTHS_OF_HISTORY, months_from),
        _scaled(component, "enquiries_90_days", 15, enquiries, ENQUIRIES_90_DAYS, enquiries_from),
    ]


def _percent_of(
    part: Sourced | None, whole: Sourced | None
) -> tuple[float | None, str, str | None]:
    if part is None or whole is None or whole.value <= 0:
        return None, "none", None
    source = part.source if part.source == whole.source else f"{part.source} / {whole.source}"
    return part.value / whole.value * 100, source, whole.as_of or part.as_of


def _season(component: str, climate: Climate, scale: Sequence[tuple[float, int]]) -> Factor:
    percent, source, as_of = _percent_of(climate.season_rainfall_mm, climate.normal_rainfall_mm)
    return _scaled(
        component, "season_rainfall_percent_of_normal", 20, percent, scale, source, as_of
    )


def _water_fit(farm: CropFarm, climate: Climate, need: tuple[float, float] | None) -> Factor:
    component = "agro_ecological"
    if farm.irrigated:
        return Factor(
            component,
            "crop_water_fit",
            20,
            "irrigated",
            1000,
            "request",
            note="irrigated: water need met",
        )
    if need is None:
        return Factor(
            component,
            "crop_water_fit",
            20,
            None,
            None,
            "none",
            note=f"no water-need figure for {farm.crop}",
        )
    rain = climate.season_rainfall_mm or climate.normal_rainfall_mm
    if rain is None:
        return Factor(component, "crop_water_fit", 20, None, None, "none", note="missing")
    low, high = need
    scale: Sequence[tuple[float, int]]
    if rain.value < low:
        percent, scale, note = rain.value / low * 100, WATER_SHORTFALL, "percent of need minimum"
    else:
        percent, scale, note = rain.value / high * 100, WATER_EXCESS, "percent of need maximum"
    return _scaled(
        component,
        "crop_water_fit",
        20,
        percent,
        scale,
        rain.source,
        rain.as_of,
        note=f"{note} ({low:g}-{high:g} mm)",
    )


def _cv(values: Sequence[float]) -> float | None:
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    if mean <= 0:
        return 100.0
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return float(variance**0.5 / mean * 100)


def _practices(farm: CropFarm) -> Factor:
    known = [
        p for p in (farm.certified_seed, farm.fertiliser, farm.crop_insurance) if p is not None
    ]
    if not known:
        return Factor("agro_ecological", "good_practices", 15, None, None, "none", note="missing")
    count = sum(1 for p in known if p)
    return Factor(
        "agro_ecological",
        "good_practices",
        15,
        count,
        GOOD_PRACTICE_POINTS * (1 + count),
        "request",
        note="certified seed, fertiliser, crop insurance",
    )


def agro_factors(
    farm: CropFarm, climate: Climate, need: tuple[float, float] | None
) -> list[Factor]:
    component = "agro_ecological"
    return [
        _sourced(component, "rainfall_cv_percent", 25, climate.rainfall_cv_percent, RAINFALL_CV),
        _season(component, climate, SEASON_RAIN_CROP),
        _water_fit(farm, climate, need),
        _scaled(
            component,
            "yield_cv_percent",
            20,
            _cv(farm.yields_kg_per_ha),
            YIELD_CV,
            "request" if len(farm.yields_kg_per_ha) >= 2 else "none",
            note="" if len(farm.yields_kg_per_ha) >= 2 else "missing: fewer than 2 seasons",
        ),
        _practices(farm),
    ]


def pasture_factors(herd: Herd, climate: Climate) -> list[Factor]:
    component = "ndvi_weather"
    percent, source, as_of = _percent_of(climate.ndvi, climate.ndvi_norm)
    return [
        _scaled(
            component, "ndvi_percent_of_norm", 35, percent, NDVI_PERCENT_OF_NORM, source, as_of
        ),
        _sourced(component, "rainfall_cv_percent", 20, climate.rainfall_cv_percent, RAINFALL_CV),
        _season(component, climate, SEASON_RAIN_PASTURE),
        _scaled(
            component,
            "vaccinated_percent",
            25,
            herd.vaccinated_percent,
            VACCINATED_PERCENT,
            "request" if herd.vaccinated_percent is not None else "none",
        ),
    ]


def cash_flow_factors(flow: CashFlow | None) -> list[Factor]:
    component = "cash_flow"
    if flow is None:
        return [
            Factor(component, name, weight, None, None, "none", note="missing")
            for name, weight in (
                ("net_cash_margin_percent", 30),
                ("debt_service_cover", 35),
                ("inflow_cv_percent", 20),
                ("months_covered", 15),
            )
        ]
    net = flow.average_monthly_inflow - flow.average_monthly_outflow
    margin = net / flow.average_monthly_inflow * 100 if flow.average_monthly_inflow > 0 else -100.0
    cover = None
    if flow.monthly_repayment is not None and flow.monthly_repayment > 0:
        cover = max(net, 0) / flow.monthly_repayment
    return [
        _scaled(component, "net_cash_margin_percent", 30, margin, NET_CASH_MARGIN, flow.source),
        _scaled(
            component,
            "debt_service_cover",
            35,
            cover,
            DEBT_SERVICE_COVER,
            flow.source if cover is not None else "none",
        ),
        _scaled(
            component,
            "inflow_cv_percent",
            20,
            flow.inflow_cv_percent,
            INFLOW_CV,
            flow.source if flow.inflow_cv_percent is not None else "none",
        ),
        _scaled(component, "months_covered", 15, flow.months_covered, MONTHS_COVERED, flow.source),
    ]


def market_factors(market: Market) -> list[Factor]:
    component = "market"
    offtake = (
        Factor(component, "offtake", 40, market.offtake, OFFTAKE[market.offtake], "request")
        if market.offtake is not None
        else Factor(component, "offtake", 40, None, None, "none", note="missing")
    )
    return [
        offtake,
        _scaled(
            component,
            "distance_to_market_km",
            25,
            market.distance_km,
            DISTANCE_KM,
            "request" if market.distance_km is not None else "none",
        ),
        _sourced(component, "price_cv_percent", 35, market.price_cv_percent, PRICE_CV),
    ]


def accounts_factors(accounts: Accounts | None) -> list[Factor]:
    component = "audited_accounts"
    given = accounts or Accounts()
    source = "request" if accounts is not None else "none"

    def scaled(
        name: str, weight: int, value: float | None, scale: Sequence[tuple[float, int]]
    ) -> Factor:
        return _scaled(
            component, name, weight, value, scale, source if value is not None else "none"
        )

    opinion = given.audit_opinion
    return [
        Factor(component, "audit_opinion", 20, opinion, AUDIT_OPINION[opinion], source)
        if opinion is not None
        else Factor(component, "audit_opinion", 20, None, None, "none", note="missing"),
        scaled("net_margin_percent", 20, given.net_margin_percent, NET_PROFIT_MARGIN),
        scaled("current_ratio", 20, given.current_ratio, CURRENT_RATIO),
        scaled("debt_to_equity", 20, given.debt_to_equity, DEBT_TO_EQUITY),
        scaled("years_of_accounts", 10, given.years_of_accounts, YEARS_OF_ACCOUNTS),
        scaled("revenue_growth_percent", 10, given.revenue_growth_percent, REVENUE_GROWTH),
    ]
