"""Request and response models of the 360 evaluation endpoints (docs/evaluation-360.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
)
from pydantic import StringConstraints as Text

from hakiki.core.countries import served_country
from hakiki.core.envelope import Envelope, Verdict
from hakiki.core.strict import IsoDate
from hakiki.evaluation import examples

Country = Literal["KE", "UG", "TZ", "NG"]
Name = Annotated[StrictStr, Text(min_length=1, max_length=100)]
Reference = Annotated[StrictStr, Text(min_length=1, max_length=64)]
Amount = Annotated[StrictFloat, Field(ge=0, le=1e13)]
Percent = Annotated[StrictFloat, Field(ge=0, le=1000)]
Count = Annotated[StrictInt, Field(ge=0, le=100_000)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Farmer(_Model):
    national_id: Reference | None = Field(
        default=None,
        description="The farmer's national ID number: kept only encrypted (and as a keyed "
        "hash) with the request record, never returned or logged in clear.",
    )
    reference: Reference | None = Field(
        default=None,
        description="Your own id for the applicant (kept encrypted, like national_id).",
    )


class Location(_Model):
    county: Name | None = Field(
        default=None,
        description="County (KE), district (UG, TZ) or state (NG). Found from the GPS "
        "point when not given.",
    )
    ward: Name | None = Field(default=None, description="Ward or sub-county (informational).")
    latitude: StrictFloat | None = Field(default=None, ge=-90, le=90)
    longitude: StrictFloat | None = Field(default=None, ge=-180, le=180)


class Season(_Model):
    name: Name = Field(
        description="The season as your climate file names it: long_rains, "
        "short_rains, MAM, OND ... (operator climate files may have an `all` row)."
    )
    year: StrictInt = Field(ge=1990, le=2100)


class Environment(_Model):
    """This season's conditions and, optionally, the norms; each figure you send is used as sent
    (source `request`), the rest come from the operator's climate file when one is configured."""

    season_rainfall_mm: Amount | None = Field(
        default=None, description="Rainfall so far this season."
    )
    normal_rainfall_mm: Amount | None = Field(
        default=None, description="Long-term mean for the season."
    )
    rainfall_cv_percent: Percent | None = Field(
        default=None,
        description="Coefficient of variation of the season's rainfall across years, %.",
    )
    ndvi: StrictFloat | None = Field(
        default=None, ge=-1, le=1, description="This season's mean NDVI."
    )
    ndvi_norm: StrictFloat | None = Field(
        default=None, gt=0, le=1, description="The long-term NDVI mean for the same period."
    )
    source: Name | None = Field(
        default=None,
        description="Where you took the figures from "
        "(e.g. CHIRPS v2.0, MODIS MOD13Q1); shown in the trace.",
    )
    as_of: IsoDate | None = None


class CropIn(_Model):
    crop: Name = Field(description="maize, bean, sorghum, potato, ... (docs/evaluation-360.md).")
    area_ha: Annotated[StrictFloat, Field(gt=0, le=100_000)] | None = None
    irrigated: StrictBool = False
    yields_kg_per_ha: list[Annotated[StrictFloat, Field(ge=0, le=200_000)]] = Field(
        default_factory=list, max_length=20, description="Past seasons' yields, oldest first."
    )


class FarmInputs(_Model):
    certified_seed: StrictBool | None = None
    fertiliser: StrictBool | None = None
    crop_insurance: StrictBool | None = None


class CropFarmIn(_Model):
    size_ha: Annotated[StrictFloat, Field(gt=0, le=100_000)]
    crops: list[CropIn] = Field(
        min_length=1,
        max_length=10,
        description="The main crop (the largest area, else the first) is the one scored.",
    )
    inputs: FarmInputs = Field(default_factory=lambda: FarmInputs())


class HerdIn(_Model):
    species: Literal["cattle", "goats", "sheep", "camels", "pigs", "poultry"]
    head_count: Annotated[StrictInt, Field(ge=1, le=1_000_000)]
    breed: Name | None = None
    vaccinated_percent: Annotated[StrictFloat, Field(ge=0, le=100)] | None = None


class MarketIn(_Model):
    offtake: Literal["contract", "cooperative", "none"] | None = Field(
        default=None, description="An off-taker contract, cooperative membership, or neither."
    )
    distance_km: Annotated[StrictFloat, Field(ge=0, le=5000)] | None = None
    price_cv_percent: Percent | None = Field(
        default=None,
        description="Price volatility of the produce (coefficient of variation, %); "
        "from the operator's WFP price file when not given.",
    )
    produce: Name | None = Field(
        default=None,
        description="The commodity as WFP names it; default: the main crop or the species.",
    )


class BureauIn(_Model):
    max_days_past_due: Count | None = Field(
        default=None, description="Worst arrears, last 12 months."
    )
    non_performing_accounts: Count | None = None
    written_off_accounts: Count | None = None
    months_of_history: Count | None = None
    enquiries_90_days: Count | None = None
    bureau: Name | None = Field(
        default=None, description="The bureau (Metropol, TransUnion, Creditinfo)."
    )
    report_date: IsoDate | None = None


class CashFlowIn(_Model):
    months_covered: Annotated[StrictInt, Field(ge=1, le=120)]
    average_monthly_inflow: Amount
    average_monthly_outflow: Amount
    inflow_cv_percent: Percent | None = None
    monthly_repayment: Amount | None = Field(
        default=None, description="The proposed loan's instalment."
    )


class AccountsIn(_Model):
    audit_opinion: Literal["unqualified", "qualified", "adverse", "disclaimer"] | None = None
    revenue: Amount | None = None
    prior_year_revenue: Amount | None = None
    net_margin_percent: Annotated[StrictFloat, Field(ge=-1000, le=1000)] | None = None
    current_ratio: Annotated[StrictFloat, Field(ge=0, le=1000)] | None = None
    debt_to_equity: Annotated[StrictFloat, Field(ge=0, le=1000)] | None = None
    years_of_accounts: Annotated[StrictInt, Field(ge=0, le=200)] | None = None
    revenue_growth_percent: Annotated[StrictFloat, Field(ge=-100, le=10_000)] | None = None


Explanation = Literal["deterministic", "generated"]


class _Evaluation(_Model):
    country_code: Annotated[
        Country, BeforeValidator(served_country(("KE", "UG", "TZ", "NG"), "the 360 evaluations"))
    ]
    cash_flow: CashFlowIn | None = None
    statement_analysis_id: Reference | None = Field(
        default=None,
        description="A completed statement analysis of yours (POST /v3/statements/analyze) "
        "to read the cash-flow figures from, instead of cash_flow; 409 while it is not "
        "completed or when its verdict is tampered.",
    )
    explanation: Explanation = Field(
        default="deterministic",
        description="`generated`: a language model writes the paragraph from "
        "the trace (live, when the operator configured one), else the deterministic text.",
    )


class _Farmer(_Evaluation):
    farmer: Farmer = Field(default_factory=lambda: Farmer())
    location: Location = Field(default_factory=lambda: Location())
    season: Season | None = None
    environment: Environment = Field(default_factory=lambda: Environment())
    market: MarketIn = Field(default_factory=lambda: MarketIn())
    bureau: BureauIn | None = None
    bureau_reference: Reference | None = Field(
        default=None,
        description="A bureau report to pull (instead of bureau); 503 channel_unavailable "
        "while no bureau source is wired.",
    )


class CropRequest(_Farmer):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [examples.CROP]})
    farm: CropFarmIn


class LivestockRequest(_Farmer):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [examples.LIVESTOCK]})
    herd: HerdIn


class AgriSmeRequest(_Evaluation):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [examples.AGRI_SME]})
    business: Farmer = Field(
        default_factory=lambda: Farmer(),
        description="`national_id`: the business registration number (kept encrypted).",
    )
    business_bureau: BureauIn | None = None
    business_bureau_reference: Reference | None = None
    principals_bureau: list[BureauIn] = Field(default_factory=list, max_length=10)
    audited_accounts: AccountsIn | None = None


# --- the answer ---------------------------------------------------------------------------------


class FactorOut(BaseModel):
    factor: str
    value: float | int | str | bool | None
    score: int | None = Field(description="0-1000; null when the figure is missing.")
    weight_percent: int = Field(description="Its weight inside the component.")
    source: str = Field(description="request, the data set it came from, or none.")
    as_of: str | None = None
    note: str | None = None


class ComponentOut(BaseModel):
    component: str
    weight: float = Field(description="The spec's weight, as a fraction (0.25).")
    score: int = Field(description="0-1000.")
    points: float = Field(description="weight × score: its share of the 1000 points.")
    basis: Literal["factors", "reweighted_factors", "conservative"]
    factors: list[FactorOut]


class OverrideOut(BaseModel):
    rule: str
    cap: int
    reason: str


class ExplanationOut(BaseModel):
    text: str
    generated: bool = Field(description="true when a language model wrote the text.")
    generator: Literal["deterministic", "language_model"]
    model: str | None = None
    fallback_reason: str | None = Field(
        default=None, description="Why a generated text was asked for and not given."
    )


class EvaluationResultData(BaseModel):
    model: Literal["crop_farmer", "livestock_farmer", "agri_sme"]
    model_version: str
    score: int = Field(description="0-1000.")
    max_score: int = 1000
    rating: Literal["strong", "marginal", "weak"]
    score_breakdown: list[ComponentOut]
    overrides: list[OverrideOut]
    explanation: ExplanationOut
    analysis_trace: list[dict[str, Any]] = Field(
        description="Every step, in order: inputs, data pulled, each factor, each component, "
        "the weighting, the sum, overrides, the result (docs/evaluation-360.md#the-trace)."
    )


class EvaluationResult(Envelope):
    data: EvaluationResultData


# The category's own words (kept in data) in the envelope's one vocabulary.
RATING_VERDICTS: dict[str, Verdict] = {
    "strong": Verdict.PASS,
    "marginal": Verdict.REVIEW,
    "weak": Verdict.FAIL,
}
