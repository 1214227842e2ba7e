"""The uploaded loan book: CSV bytes to a checked ``LoanBook`` (400 with every problem's row and
column), and a statement analysis's figures put in the statement columns of a row naming it."""

from __future__ import annotations

import csv
import io
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from hakiki.core.errors import ApiError
from hakiki.engines.credit.loan_book import (
    STATEMENT,
    LoanBook,
    LoanBookError,
    Problem,
    read_book,
)

MAX_ROWS = 1_000_000
# The statement columns an analysis fills.
FIGURES = tuple(c for c in STATEMENT if c != "statement_analysis_id")
# A statement analysis by id: {"metrics", "score", ...} of a completed analysis, or None.
AnalysisLookup = Callable[[str], Awaitable[dict[str, Any] | None]]


def parse_csv(data: bytes) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of a UTF-8 CSV (comma or semicolon); LoanBookError when it is not
    one."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LoanBookError(
            [Problem(None, "file", "not UTF-8 text: save it as CSV UTF-8")]
        ) from error
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    try:
        names = reader.fieldnames or []
    except csv.Error as error:
        raise LoanBookError([Problem(1, "file", f"the header is not CSV: {error}")]) from error
    header = [name.strip() for name in names]
    if not header:
        raise LoanBookError([Problem(None, "file", "empty: the first row must be the header")])
    reader.fieldnames = header
    rows: list[dict[str, str]] = []
    try:
        for row in reader:
            if len(rows) >= MAX_ROWS:
                raise LoanBookError([Problem(None, "file", f"more than {MAX_ROWS:,} loans")])
            if None in row:
                raise LoanBookError(
                    [Problem(reader.line_num, None, "more values than the header has columns")]
                )
            rows.append(row)
    except csv.Error as error:  # a NUL byte, an unclosed quote at the end, a huge field
        problem = f"not a CSV file the reader can take: {error}"
        raise LoanBookError([Problem(reader.line_num, "file", problem)]) from error
    return header, rows


def read(data: bytes) -> LoanBook:
    header, rows = parse_csv(data)
    return read_book(header, rows)


def as_api_error(error: LoanBookError) -> ApiError:
    problems = error.problems
    more = f" ({len(problems)} problems; details lists them)" if len(problems) > 1 else ""
    return ApiError(
        400,
        "invalid_request",
        f"file: {problems[0].text()}{more}. The columns are in docs/credit-model.md.",
        details=[
            {"field": p.column or "file", "row": p.row, "problem": p.problem} for p in problems
        ],
    )


def analysis_figures(found: Mapping[str, Any]) -> dict[str, str]:
    """The statement columns of a completed analysis (the decision reads the same figures)."""
    m = found["metrics"]
    values = (
        m["balances"]["average"],
        m["average_monthly_inflow"],
        m["income"]["regularity"],
        m["affordability"]["disposable_income"],
        m["betting"]["share_of_inflow"],
        m["loans"]["max_lenders_in_30_days"],
    )
    return {name: _text(value) for name, value in zip(FIGURES, values, strict=True)}


def _text(value: object) -> str:
    return "" if value is None else str(value)


async def resolve_analyses(
    header: list[str], rows: list[dict[str, str]], lookup: AnalysisLookup
) -> list[str]:
    """Fill the statement columns of every row naming a ``statement_analysis_id`` from that
    analysis (in place); the header grows the columns. LoanBookError for an id that is not a
    completed analysis of the organisation's environment."""
    if "statement_analysis_id" not in header:
        return header
    problems = []
    for i, row in enumerate(rows):
        analysis_id = (row.get("statement_analysis_id") or "").strip()
        if not analysis_id:
            continue
        found = await lookup(analysis_id)
        if found is None:
            problems.append(
                Problem(
                    i + 2,
                    "statement_analysis_id",
                    f"{analysis_id} is not a completed statement analysis of this environment",
                )
            )
            continue
        row.update(analysis_figures(found))
    if problems:
        raise LoanBookError(problems[:20])
    return header + [c for c in FIGURES if c not in header]
