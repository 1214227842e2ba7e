"""Request and response models of the credit endpoints: one bureau report schema for every
bureau, and the decision's inputs and answer."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
)

from hakiki.core.countries import served_country
from hakiki.core.envelope import Envelope, Verdict
from hakiki.core.privacy.consent import attested
from hakiki.credit import examples

CreditCountry = Literal["KE", "NG"]
# Asked about: KE and NG are served; UG and TZ are taken so that the answer can say why not (503).
PullCountry = Literal["KE", "NG", "UG", "TZ"]
LenderType = Literal["bank", "microfinance", "sacco", "digital_lender", "retail", "other"]
IdType = Literal["national_id", "passport", "alien_id", "company_registration", "bvn", "nin"]
ReportReason = Literal["new_application", "account_review", "collection", "guarantor"]
# The demo model's purposes (the German Credit set); a lender's own model takes the purposes of
# its loan book (docs/credit-model.md).
Purpose = Annotated[
    StrictStr,
    StringConstraints(pattern=r"^[a-z0-9_]{1,40}$"),
    Field(
        description="With the demo model one of new_car, used_car, furniture, electronics, "
        "appliances, repairs, education, training, business, other; with your own model one of "
        "the purposes of the loan book it was trained on (its card's loan_purposes).",
        examples=["business"],
    ),
]
Amount = Annotated[StrictInt, Field(ge=0, le=10**15)]
Count = Annotated[StrictInt, Field(ge=0, le=100_000)]
Reference = Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]


# --- The bureau pull ---------------------------------------------------------------------


class BureauRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [*examples.BUREAU_REQUESTS]}
    )

    country_code: Annotated[
        PullCountry,
        BeforeValidator(served_country(("KE", "NG", "UG", "TZ"), "credit bureau pulls")),
    ] = Field(
        description="KE (Metropol) or NG (FirstCentral). UG and TZ answer 503: their licensed "
        "bureaus document no API for third parties."
    )
    id_type: IdType = Field(
        description="KE: national_id, passport, alien_id, company_registration. NG: bvn, nin."
    )
    id_number: Annotated[StrictStr, StringConstraints(min_length=1, max_length=32)] = Field(
        description="The applicant's number of that type."
    )
    report_reason: ReportReason = Field(
        description="Why the report is pulled (the bureau records it with the enquiry)."
    )
    consent: attested(("credit_report",)) = Field(  # type: ignore[valid-type]
        description="The applicant's consent to this pull (the Credit Reference Bureau "
        "Regulations require it): the consent object (docs/privacy.md#consent), stored "
        "encrypted with the call, its id answered as `consent_id`. `true` (the first shape: "
        "the caller attests it) is still accepted in API 1.x and recorded as `attested`; "
        "deprecated. Anything else is a 400."
    )
    loan_amount: Amount | None = Field(
        None, description="The amount applied for, in minor units (Metropol records it)."
    )


class BureauAccount(BaseModel):
    lender_type: LenderType
    product: str | None = Field(description="The facility type, as the bureau names it.")
    status: Literal["open", "closed"]
    performance: Literal["performing", "non_performing"] = Field(
        description="non_performing: 90 days or more past due, or classified so by the lender."
    )
    opened_on: date | None
    original_amount: int | None = Field(description="Minor units.")
    balance: int | None = Field(description="Outstanding balance, minor units.")
    arrears: int = Field(description="Amount overdue now, minor units.")
    days_past_due: int
    last_payment_on: date | None


class LenderSummary(BaseModel):
    lender_type: LenderType
    performing: int
    non_performing: int


class PeriodCounts(BaseModel):
    last_3_months: int | None
    last_6_months: int | None
    last_12_months: int | None


class ReportSummary(BaseModel):
    accounts: int
    open_accounts: int
    performing_accounts: int
    non_performing_accounts: int
    total_balance: int = Field(description="Minor units.")
    total_arrears: int = Field(description="Minor units.")
    max_days_past_due: int


class CreditReport(BaseModel):
    """One bureau's report, in the same shape whichever bureau answered."""

    bureau: str = Field(description="metropol, firstcentral, or sandbox.")
    bureau_name: str
    country_code: CreditCountry
    retrieved_at: datetime = Field(description="When the bureau answered (UTC).")
    bureau_reference: str | None = Field(description="The bureau's own id of this enquiry.")
    currency: str
    file: Literal["thin", "established"] = Field(
        description="thin: the bureau holds no credit account for the applicant."
    )
    bureau_score: int | None = Field(description="The bureau's own score, as it gives it.")
    summary: ReportSummary
    lenders: list[LenderSummary]
    accounts: list[BureauAccount]
    enquiries: PeriodCounts
    bounced_cheques: PeriodCounts
    legal_cases: int | None = Field(description="None: this bureau does not report them.")
    fraud_flag: bool


class BureauData(BaseModel):
    status: Literal["FOUND", "NOT_FOUND", "PENDING"]
    report: CreditReport | None


class BureauResult(Envelope):
    data: BureauData


# --- The decision -------------------------------------------------------------------------


class Loan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    amount: Annotated[StrictInt, Field(gt=0, le=10**15)] = Field(description="Minor units.")
    term_months: Annotated[StrictInt, Field(ge=1, le=360)]
    purpose: Purpose | None = None


class Applicant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    monthly_income: Amount | None = Field(None, description="Declared, minor units.")
    monthly_obligations: Amount | None = Field(
        None, description="Declared repayments of other debts per month, minor units."
    )
    employment_months: Count | None = Field(
        None, description="Months in the current job or business (0: not employed)."
    )


class BureauSummary(BaseModel):
    """A bureau summary given inline (instead of a `bureau_reference`)."""

    model_config = ConfigDict(extra="forbid")

    accounts: Count
    open_accounts: Count = 0
    performing_accounts: Count = 0
    non_performing_accounts: Count = 0
    max_days_past_due: Count = 0
    total_arrears: Amount = 0
    lender_types: list[LenderType] = Field(
        default_factory=list, max_length=6, description="Types of lenders holding open accounts."
    )


class Statement(BaseModel):
    """Metrics of the applicant's bank or mobile-money statement, as the lender measured them."""

    model_config = ConfigDict(extra="forbid")

    months: Annotated[StrictInt, Field(ge=1, le=36)]
    average_monthly_inflow: Amount
    average_monthly_outflow: Amount
    average_balance: Annotated[StrictInt, Field(ge=-(10**15), le=10**15)]
    cash_flow_score: Annotated[StrictInt, Field(ge=0, le=100)] | None = Field(
        None, description="0-100, higher is healthier; under 40 refers the application."
    )
    income_regularity: Annotated[float, Field(ge=0, le=1)] | None = Field(
        None, description="Share of the statement's months with a regular, salary-like income."
    )
    disposable_income: Annotated[StrictInt, Field(ge=-(10**15), le=10**15)] | None = Field(
        None, description="Monthly income after spending, loan repayments and obligations."
    )
    betting_share: Annotated[float, Field(ge=0, le=1)] | None = Field(
        None, description="Share of inflows spent on betting."
    )
    loan_stacking: Count | None = Field(
        None, description="The most distinct mobile lenders disbursing within 30 days."
    )


class Signals(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sanctions_hit: StrictBool = False
    confirmed_fraud: StrictBool = False
    pep: StrictBool = False


class Cutoffs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    approve: Annotated[StrictInt, Field(ge=300, le=850)]
    refer: Annotated[StrictInt, Field(ge=300, le=850)]


class DecisionRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [*examples.DECISION_REQUESTS]}
    )

    loan: Loan
    applicant: Applicant = Field(default_factory=lambda: Applicant.model_validate({}))
    bureau_reference: Reference | None = Field(
        None, description="A report of your organisation's, from POST /v3/credit/bureau."
    )
    bureau: BureauSummary | None = Field(None, description="Or the bureau summary, given.")
    statement: Statement | None = None
    statement_analysis_id: Reference | None = Field(
        None,
        description="Or a completed analysis of your organisation's, from POST "
        "/v3/statements/analyze: its metrics, cash-flow score and verdict.",
    )
    signals: Signals = Field(default_factory=lambda: Signals())
    cutoffs: Cutoffs | None = Field(
        None, description="Override the server's cut-offs for this decision."
    )
    product: Annotated[StrictStr, StringConstraints(min_length=1, max_length=40)] | None = Field(
        None,
        description="One of your active credit products (POST /v3/credit/products): the loan "
        "must fit its amount and term bounds and purposes (else 400 naming the field, the bound "
        "and the product), and its model decides when it names one. 404 if not yours.",
    )


class Reason(BaseModel):
    code: str
    variable: str
    points_lost: float = Field(description="Points below the variable's best bin.")
    description: str


class OverrideOut(BaseModel):
    code: str
    decision: Literal["approve", "refer", "decline"]
    reason: str


class ModelInfo(BaseModel):
    version: str = Field(description="The model that made this decision.")
    model_id: str | None = Field(
        None, description="Your own model's id (GET /v3/credit/models/{model_id}); null: demo."
    )
    demo: bool = Field(
        True,
        description="true: the demo model, trained on the German Credit data (1970s), not on "
        "your loan book; train and activate your own (docs/credit-model.md).",
    )
    label: str = Field("", description="What the model is, in words.")
    holdout_auc: float
    holdout_ks: float
    plain_logistic_holdout_auc: float | None = Field(
        None, description="The demo model's plain logistic baseline; null for your own."
    )
    base_score: float
    base_odds: float
    points_to_double_odds: float


class BureauUsed(BaseModel):
    reference: str | None
    bureau: str
    retrieved_at: datetime | None


class StatementUsed(BaseModel):
    source: Literal["given", "analysis"]
    analysis_id: str | None
    verdict: Literal["genuine", "suspicious", "tampered"] | None
    analysis_score: int | None = Field(None, description="The analysis's cash-flow score, 300-850.")
    cash_flow_score: int | None = Field(
        None, description="That score on the decision's 0-100 scale."
    )


class ProductUsed(BaseModel):
    """The credit product a decision was made for."""

    product_id: str
    name: str


class DecisionResultData(BaseModel):
    decision: Literal["approve", "refer", "decline"]
    score: int = Field(description="300-850.")
    band: Literal["A", "B", "C", "D", "E"]
    score_decision: Literal["approve", "refer", "decline"] = Field(
        description="What the score alone gives at the cut-offs, before the overrides."
    )
    cutoffs: Cutoffs
    reasons: list[Reason] = Field(description="Up to four, the costliest first.")
    overrides: list[OverrideOut]
    variables: dict[str, str | None] = Field(
        description="The bin each scorecard variable fell in; null: not supplied."
    )
    bureau: BureauUsed | None
    statement: StatementUsed | None = None
    model: ModelInfo
    product: ProductUsed | None = Field(
        None, description="The credit product the request named; null: none."
    )
    notice: str


class DecisionResult(Envelope):
    data: DecisionResultData


# The category's own words (kept in data) in the envelope's one vocabulary.
DECISION_VERDICTS: dict[str, Verdict] = {
    "approve": Verdict.PASS,
    "refer": Verdict.REVIEW,
    "decline": Verdict.FAIL,
}
