"""The variables of a lender's own scorecard (trained on its loan book), derived from an
``Applicant`` exactly as at decision time: the same function turns a loan-book row into
training values and a decision request into scoring values, so training and serving never
disagree (docs/credit-model.md, "Your own model").

Compared with the demo (German) scorecard: the loan purpose is the lender's own word, the debt
burden is the ratio itself, and the statement's cash-flow features (income regularity,
affordability, betting share, loan stacking) are inputs. Protected attributes never are.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from hakiki.engines.credit import features
from hakiki.engines.credit.scorecard import Value

DTI_CAP = 5.0  # a debt-to-income ratio above this (or with no income) scores as this


@dataclass(frozen=True)
class VariableSpec:
    name: str
    kind: str  # numeric or categorical
    reason_code: str
    reason: str
    domain: tuple[str, ...] = ()  # categorical: every value the derivation can produce


VARIABLES: tuple[VariableSpec, ...] = (
    VariableSpec(
        "account_balance",
        "categorical",
        "L01",
        "Average account balance on the statement is low or negative",
        ("overdrawn", "low", "healthy"),
    ),
    VariableSpec("loan_term_months", "numeric", "L02", "Long repayment term"),
    VariableSpec(
        "repayment_history",
        "categorical",
        "L03",
        "Repayment history at the bureau (arrears or days past due)",
        ("no_credit", "delayed", "paid_duly"),
    ),
    VariableSpec("employment_years", "numeric", "L04", "Short time in current employment"),
    VariableSpec("debt_to_income", "numeric", "L05", "Repayments take a high share of income"),
    VariableSpec("loan_purpose", "categorical", "L06", "Loan purpose carries higher risk"),
    VariableSpec(
        "other_credit",
        "categorical",
        "L07",
        "Instalment credit with other lenders",
        ("none", "stores", "bank"),
    ),
    VariableSpec("income_regularity", "numeric", "L08", "Income on the statement is irregular"),
    VariableSpec(
        "affordability",
        "numeric",
        "L09",
        "Little income left after spending and this loan's instalment",
    ),
    VariableSpec("betting_share", "numeric", "L10", "Share of inflows spent on betting"),
    VariableSpec("loan_stacking", "numeric", "L11", "Several mobile lenders within 30 days"),
)
NAMES = tuple(v.name for v in VARIABLES)
SPECS = {v.name: v for v in VARIABLES}


def _debt_to_income(applicant: features.Applicant) -> Value:
    dti = features.debt_to_income(applicant)
    if dti is None:
        return None
    return DTI_CAP if math.isinf(dti) else round(min(dti, DTI_CAP), 4)


def _affordability(applicant: features.Applicant) -> Value:
    """The share of income left each month after spending, repayments, obligations and this
    loan's instalment (the statement's disposable income), from -1 to 1."""
    income, disposable = applicant.income, applicant.disposable_income
    if disposable is None or income is None:
        return None
    if income <= 0:
        return -1.0
    return round(max(-1.0, min(1.0, (disposable - applicant.instalment) / income)), 4)


def variables(applicant: features.Applicant) -> dict[str, Value]:
    """A lender scorecard's inputs for ``applicant`` (None: not known, scores average)."""
    # The shared derivations; the lender's purpose is its own word, not one of the German set.
    german = features.variables(dataclasses.replace(applicant, loan_purpose=None))
    regularity, betting = applicant.income_regularity, applicant.betting_share
    return {
        "account_balance": german["account_balance"],
        "loan_term_months": german["loan_term_months"],
        "repayment_history": german["repayment_history"],
        "employment_years": german["employment_years"],
        "debt_to_income": _debt_to_income(applicant),
        "loan_purpose": applicant.loan_purpose,
        "other_credit": german["other_credit"],
        "income_regularity": None if regularity is None else float(regularity),
        "affordability": _affordability(applicant),
        "betting_share": None if betting is None else float(betting),
        "loan_stacking": None
        if applicant.loan_stacking is None
        else float(applicant.loan_stacking),
    }
