"""From what a lender knows about an applicant (bureau summary, declared income and
obligations, statement metrics, the loan asked for) to the scorecard's variables.

The scorecard is trained on the German Credit data; each variable here is the nearest
counterpart Hakiki receives (docs/credit-model.md, "Variables"). Nothing about age, sex,
marital status, nationality, tribe or religion is an input. A value the lender did not supply
is ``None`` and scores the population average.
"""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.engines.credit.scorecard import Value

PURPOSES = {
    "new_car": "car (new)",
    "used_car": "car (used)",
    "furniture": "furniture/equipment",
    "electronics": "radio/television",
    "appliances": "domestic appliances",
    "repairs": "repairs",
    "education": "education",
    "training": "retraining",
    "business": "business",
    "other": "others",
}

# Lender types a bureau reports, grouped as the training data's "other installment plans".
BANK_LIKE = frozenset({"bank", "microfinance", "sacco"})


@dataclass(frozen=True)
class BureauFacts:
    accounts: int  # every account on file, open or closed
    open_accounts: int
    performing_accounts: int
    non_performing_accounts: int
    max_days_past_due: int
    arrears: int  # minor units overdue now
    other_lender_types: tuple[str, ...]  # lender types of the open accounts


@dataclass(frozen=True)
class Applicant:
    monthly_income: int | None  # minor units
    monthly_obligations: int | None
    loan_amount: int
    loan_term_months: int
    loan_purpose: str | None
    employment_months: int | None
    bureau: BureauFacts | None
    average_balance: int | None  # from the statement
    statement_inflow: int | None  # average monthly inflow on the statement
    # Cash-flow features of a statement analysis (or given): lender models score them.
    income_regularity: float | None = None  # share of months with a regular income, 0-1
    disposable_income: int | None = None  # monthly, after spending, repayments, obligations
    betting_share: float | None = None  # share of inflows spent on betting, 0-1
    loan_stacking: int | None = None  # most distinct mobile lenders disbursing in 30 days

    @property
    def income(self) -> int | None:
        """The income to lend against: the lower of the declared and the statement's inflow."""
        known = [v for v in (self.monthly_income, self.statement_inflow) if v is not None]
        return min(known) if known else None

    @property
    def instalment(self) -> int:
        """A level monthly repayment of the principal (before interest, which the lender sets)."""
        return -(-self.loan_amount // max(1, self.loan_term_months))


def debt_to_income(applicant: Applicant) -> float | None:
    income = applicant.income
    if income is None or applicant.monthly_obligations is None:
        return None
    if income <= 0:
        return float("inf")
    return (applicant.monthly_obligations + applicant.instalment) / income


def _debt_burden(dti: float | None) -> Value:
    if dti is None:
        return None
    for rate, below in ((1, 0.20), (2, 0.25), (3, 0.35)):
        if dti < below:
            return float(rate)
    return 4.0


def _repayment_history(bureau: BureauFacts | None) -> Value:
    if bureau is None:
        return None
    if bureau.accounts == 0:
        return "no_credit"
    if bureau.non_performing_accounts or bureau.max_days_past_due > 0 or bureau.arrears > 0:
        return "delayed"
    return "paid_duly"


def _other_credit(bureau: BureauFacts | None) -> Value:
    if bureau is None:
        return None
    types = set(bureau.other_lender_types)
    if types & BANK_LIKE:
        return "bank"
    return "stores" if types else "none"


def _account_balance(applicant: Applicant) -> Value:
    balance, income = applicant.average_balance, applicant.income
    if balance is None:
        return None
    if balance < 0:
        return "overdrawn"
    if income is None or balance < income / 4:
        return "low"
    return "healthy"


def _employment_years(months: int | None) -> Value:
    if months is None:
        return None
    return 0.0 if months <= 0 else max(0.5, months / 12)


def variables(applicant: Applicant) -> dict[str, Value]:
    """The scorecard's inputs for ``applicant``."""
    purpose = applicant.loan_purpose
    return {
        "account_balance": _account_balance(applicant),
        "loan_term_months": float(applicant.loan_term_months),
        "repayment_history": _repayment_history(applicant.bureau),
        "employment_years": _employment_years(applicant.employment_months),
        "debt_burden": _debt_burden(debt_to_income(applicant)),
        "loan_purpose": PURPOSES[purpose] if purpose is not None else None,
        "other_credit": _other_credit(applicant.bureau),
    }
