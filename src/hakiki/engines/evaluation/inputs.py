"""What the 360 engine scores: plain values, each with where it came from (``Sourced``), so the
trace can say which figure was sent, which was read from an operator's file and which is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AuditOpinion = Literal["unqualified", "qualified", "adverse", "disclaimer"]
Offtake = Literal["contract", "cooperative", "none"]


@dataclass(frozen=True)
class Sourced:
    """A figure and its provenance: ``source`` names the request field or the data set,
    ``as_of`` the date of the data when known."""

    value: float
    source: str = "request"
    as_of: str | None = None


@dataclass(frozen=True)
class Bureau:
    """One credit bureau report's figures (the borrower's, a business's or a principal's)."""

    max_days_past_due: int | None = None  # the worst arrears in the last 12 months, days
    non_performing_accounts: int | None = None
    written_off_accounts: int | None = None
    months_of_history: int | None = None
    enquiries_90_days: int | None = None
    label: str = "applicant"
    source: str = "request"


@dataclass(frozen=True)
class CashFlow:
    months_covered: int
    average_monthly_inflow: float
    average_monthly_outflow: float
    inflow_cv_percent: float | None = None
    monthly_repayment: float | None = None
    source: str = "request"


@dataclass(frozen=True)
class Climate:
    """The farm's area: this season against the long-term norm."""

    season_rainfall_mm: Sourced | None = None
    normal_rainfall_mm: Sourced | None = None
    rainfall_cv_percent: Sourced | None = None
    ndvi: Sourced | None = None
    ndvi_norm: Sourced | None = None


@dataclass(frozen=True)
class CropFarm:
    crop: str
    irrigated: bool = False
    yields_kg_per_ha: tuple[float, ...] = ()  # one per past season
    certified_seed: bool | None = None
    fertiliser: bool | None = None
    crop_insurance: bool | None = None


@dataclass(frozen=True)
class Herd:
    species: str
    head_count: int
    vaccinated_percent: float | None = None


@dataclass(frozen=True)
class Market:
    offtake: Offtake | None = None
    distance_km: float | None = None
    price_cv_percent: Sourced | None = None


@dataclass(frozen=True)
class Accounts:
    audit_opinion: AuditOpinion | None = None
    net_margin_percent: float | None = None
    current_ratio: float | None = None
    debt_to_equity: float | None = None
    years_of_accounts: int | None = None
    revenue_growth_percent: float | None = None


@dataclass(frozen=True)
class CropInputs:
    farm: CropFarm
    climate: Climate = field(default_factory=Climate)
    bureau: Bureau | None = None
    cash_flow: CashFlow | None = None
    market: Market = field(default_factory=Market)
    crop_water_need_mm: tuple[float, float] | None = None  # the crop's seasonal need


@dataclass(frozen=True)
class LivestockInputs:
    herd: Herd
    climate: Climate = field(default_factory=Climate)
    bureau: Bureau | None = None
    cash_flow: CashFlow | None = None
    market: Market = field(default_factory=Market)


@dataclass(frozen=True)
class AgriSmeInputs:
    business_bureau: Bureau | None = None
    principals: tuple[Bureau, ...] = ()
    cash_flow: CashFlow | None = None
    accounts: Accounts | None = None
