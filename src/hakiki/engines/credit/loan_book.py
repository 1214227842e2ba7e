"""A lender's loan book (CSV, one row per disbursed loan; docs/credit-model.md, "The loan book
file"): the columns, and each row read into an ``Applicant`` (the decision's own inputs), its
outcome and its protected attributes. Every problem names its row (the header is row 1) and
column; nothing is guessed.

Columns whose name starts ``protected_`` (e.g. ``protected_gender``) are protected attributes:
read for the fairness report only, never a model input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from hakiki.engines.credit.features import Applicant, BureauFacts

PROTECTED_PREFIX = "protected_"
REQUIRED = (
    "loan_id",
    "disbursed_on",
    "loan_amount",
    "loan_term_months",
    "defaulted_within_days",
)
APPLICATION = ("loan_purpose", "monthly_income", "monthly_obligations", "employment_months")
BUREAU = (
    "bureau_accounts",
    "bureau_open_accounts",
    "bureau_performing_accounts",
    "bureau_non_performing_accounts",
    "bureau_max_days_past_due",
    "bureau_arrears",
    "bureau_lender_types",
)
STATEMENT = (
    "statement_analysis_id",
    "average_balance",
    "average_monthly_inflow",
    "income_regularity",
    "disposable_income",
    "betting_share",
    "loan_stacking",
)
COLUMNS = REQUIRED + APPLICATION + BUREAU + STATEMENT
INTEGERS = {
    "loan_amount",
    "loan_term_months",
    "monthly_income",
    "monthly_obligations",
    "employment_months",
    "bureau_accounts",
    "bureau_open_accounts",
    "bureau_performing_accounts",
    "bureau_non_performing_accounts",
    "bureau_max_days_past_due",
    "bureau_arrears",
    "average_balance",
    "average_monthly_inflow",
    "disposable_income",
    "loan_stacking",
}
SHARES = {"income_regularity", "betting_share"}  # 0 to 1
MAY_BE_NEGATIVE = {"average_balance", "disposable_income"}
LENDER_TYPES = frozenset({"bank", "microfinance", "sacco", "digital_lender", "retail", "other"})
MAX_PROBLEMS = 20


@dataclass(frozen=True)
class Problem:
    row: int | None  # None: the file or its header
    column: str | None
    problem: str

    def text(self) -> str:
        where = [f"row {self.row}" if self.row else "", self.column or ""]
        return f"{', '.join(w for w in where if w)}: {self.problem}".lstrip(": ")


class LoanBookError(ValueError):
    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems[0].text())
        self.problems = list(problems)


@dataclass
class LoanBook:
    loan_ids: list[str] = field(default_factory=list)
    applicants: list[Applicant] = field(default_factory=list)
    disbursed_on: list[date] = field(default_factory=list)
    defaulted_within_days: list[int | None] = field(default_factory=list)
    protected: dict[str, list[str]] = field(default_factory=dict)

    def bad(self, window_days: int) -> list[int]:
        """1 for a loan that defaulted within ``window_days`` of disbursement."""
        return [int(d is not None and d <= window_days) for d in self.defaulted_within_days]


def check_header(header: Sequence[str]) -> list[Problem]:
    problems = [
        Problem(1, name, "required column missing") for name in REQUIRED if name not in header
    ]
    for name in header:
        if name not in COLUMNS and not name.startswith(PROTECTED_PREFIX):
            problems.append(
                Problem(
                    1,
                    name,
                    "unknown column: use the documented names, or the prefix protected_ "
                    "for a protected attribute",
                )
            )
    seen: set[str] = set()
    for name in header:
        if name in seen:
            problems.append(Problem(1, name, "column given twice"))
        seen.add(name)
    return problems


class _Row:
    def __init__(self, number: int, raw: Mapping[str, str], problems: list[Problem]) -> None:
        self.number, self.raw, self.problems = number, raw, problems

    def text(self, name: str) -> str | None:
        value = (self.raw.get(name) or "").strip()
        return value or None

    def integer(self, name: str) -> int | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            number = int(value)
        except ValueError:
            self.problems.append(Problem(self.number, name, f"{value!r} is not a whole number"))
            return None
        if number < 0 and name not in MAY_BE_NEGATIVE:
            self.problems.append(Problem(self.number, name, "cannot be negative"))
            return None
        return number

    def share(self, name: str) -> float | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            number = float(value)
        except ValueError:
            number = -1.0
        if not 0.0 <= number <= 1.0:
            self.problems.append(
                Problem(self.number, name, f"{value!r} is not a share from 0 to 1")
            )
            return None
        return number


def _bureau(row: _Row) -> BureauFacts | None:
    accounts = row.integer("bureau_accounts")
    if accounts is None:
        return None
    types = tuple(
        sorted({t.strip() for t in (row.text("bureau_lender_types") or "").split(";")} - {""})
    )
    unknown = set(types) - LENDER_TYPES
    if unknown:
        row.problems.append(
            Problem(
                row.number,
                "bureau_lender_types",
                f"unknown lender type {sorted(unknown)[0]!r}: use {', '.join(sorted(LENDER_TYPES))}"
                " separated by ;",
            )
        )
    return BureauFacts(
        accounts=accounts,
        open_accounts=row.integer("bureau_open_accounts") or 0,
        performing_accounts=row.integer("bureau_performing_accounts") or 0,
        non_performing_accounts=row.integer("bureau_non_performing_accounts") or 0,
        max_days_past_due=row.integer("bureau_max_days_past_due") or 0,
        arrears=row.integer("bureau_arrears") or 0,
        other_lender_types=types,
    )


def _purpose(row: _Row) -> str | None:
    value = row.text("loan_purpose")
    if value is None:
        return None
    slug = value.lower()
    if not slug.replace("_", "").isalnum() or len(slug) > 40:
        row.problems.append(
            Problem(row.number, "loan_purpose", "use a word of letters, digits and _ (<= 40)")
        )
        return None
    return slug


def read_row(
    number: int, raw: Mapping[str, str], problems: list[Problem]
) -> tuple[Applicant, date | None, int | None]:
    row = _Row(number, raw, problems)
    amount, term = row.integer("loan_amount"), row.integer("loan_term_months")
    for name, value in (("loan_amount", amount), ("loan_term_months", term)):
        if value is None and row.text(name) is None:
            problems.append(Problem(number, name, "required"))
        elif value == 0:
            problems.append(Problem(number, name, "must be above 0"))
    disbursed = None
    try:
        disbursed = date.fromisoformat(row.text("disbursed_on") or "")
    except ValueError:
        problems.append(Problem(number, "disbursed_on", "a date as YYYY-MM-DD is required"))
    applicant = Applicant(
        monthly_income=row.integer("monthly_income"),
        monthly_obligations=row.integer("monthly_obligations"),
        loan_amount=amount or 1,
        loan_term_months=term or 1,
        loan_purpose=_purpose(row),
        employment_months=row.integer("employment_months"),
        bureau=_bureau(row),
        average_balance=row.integer("average_balance"),
        statement_inflow=row.integer("average_monthly_inflow"),
        income_regularity=row.share("income_regularity"),
        disposable_income=row.integer("disposable_income"),
        betting_share=row.share("betting_share"),
        loan_stacking=row.integer("loan_stacking"),
    )
    return applicant, disbursed, row.integer("defaulted_within_days")


def read_book(header: Sequence[str], rows: Sequence[Mapping[str, str]]) -> LoanBook:
    """The loan book of a parsed CSV; LoanBookError with up to MAX_PROBLEMS problems.
    Statement columns must already hold an analysis's figures where a row names one."""
    problems = check_header(header)
    if problems:
        raise LoanBookError(problems[:MAX_PROBLEMS])
    if not rows:
        raise LoanBookError([Problem(None, None, "the file has no loans after its header")])
    book = LoanBook()
    protected = [name for name in header if name.startswith(PROTECTED_PREFIX)]
    book.protected = {name: [] for name in protected}
    seen: set[str] = set()
    for i, raw in enumerate(rows):
        number = i + 2
        loan_id = (raw.get("loan_id") or "").strip()
        if not loan_id:
            problems.append(Problem(number, "loan_id", "required"))
        elif loan_id in seen:
            problems.append(Problem(number, "loan_id", "the same loan_id is on an earlier row"))
        seen.add(loan_id)
        applicant, disbursed, defaulted = read_row(number, raw, problems)
        if len(problems) >= MAX_PROBLEMS:
            break
        book.loan_ids.append(loan_id)
        book.applicants.append(applicant)
        book.disbursed_on.append(disbursed or date.min)
        book.defaulted_within_days.append(defaulted)
        for name in protected:
            book.protected[name].append((raw.get(name) or "").strip() or "not given")
    if problems:
        raise LoanBookError(problems[:MAX_PROBLEMS])
    return book
