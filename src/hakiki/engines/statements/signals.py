"""Tamper and authenticity signals, each with its evidence, and the verdict they add up to:
``tampered`` on any high-severity signal, ``suspicious`` on a medium one, else ``genuine``."""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz

from hakiki.engines.statements import chain
from hakiki.engines.statements.model import Declared, Signal, Statement, Verdict
from hakiki.engines.statements.money import show
from hakiki.engines.statements.pdf_signals import file_signals

MAX_EVIDENCE = 20


def _signal(code: str, severity: Any, message: str, **evidence: Any) -> Signal:
    return Signal(code, severity, message, evidence)


def _break(b: chain.Break) -> dict[str, Any]:
    return {
        "receipt": b.row.receipt,
        "page": b.row.page,
        "time": b.row.time.isoformat(),
        "expected_balance": show(b.expected),
        "stated_balance": show(b.row.balance or 0),
        "previous_receipt": b.previous.receipt,
        "previous_page": b.previous.page,
    }


def balance_signals(statement: Statement) -> list[Signal]:
    """Rows of one second may be in any order that chains (engines/statements/chain); a break
    beside a Fuliza overdraft row is its own, informative signal."""
    found = list(chain.breaks(statement.transactions))
    plain = [_break(b) for b in found if not b.overdraft]
    near = [_break(b) for b in found if b.overdraft]
    signals: list[Signal] = []
    if plain:
        signals.append(
            _signal(
                "balance_break",
                "high",
                f"{len(plain)} transaction(s) whose balance does not follow from the one before.",
                breaks=plain[:MAX_EVIDENCE],
                count=len(plain),
            )
        )
    if near:
        signals.append(
            _signal(
                "overdraft_balance_gap",
                "info",
                f"{len(near)} balance(s) beside Fuliza overdraft rows that do not follow from "
                "the amounts printed (the issuer does not print every overdraft movement).",
                breaks=near[:MAX_EVIDENCE],
                count=len(near),
            )
        )
    return signals


def summary_mismatch(statement: Statement) -> Signal | None:
    total = statement.summary.get("TOTAL")
    if total is None:
        return None
    # The issuer's totals count every row it lists, Cancelled ones too (M-Pesa).
    listed = statement.transactions
    computed = (sum(t.paid_in for t in listed), sum(t.withdrawn for t in listed))
    if computed == total:
        return None
    return _signal(
        "summary_mismatch",
        "high",
        "The summary table's totals disagree with the transactions listed.",
        summary_paid_in=show(total[0]),
        transactions_paid_in=show(computed[0]),
        summary_paid_out=show(total[1]),
        transactions_paid_out=show(computed[1]),
    )


_PLACEHOLDER = re.compile(r"^(?:0+|-+|n/?a|none|null|row-\d+)?$", re.IGNORECASE)


def duplicate_receipts(statement: Statement) -> Signal | None:
    """The same receipt, day, details and amounts twice; placeholder references (GTBank's
    "0", empty cells) name no transaction and are left out."""
    rows: dict[tuple[object, ...], list[int]] = {}
    for t in statement.transactions:
        if _PLACEHOLDER.match(t.receipt.strip()):
            continue
        key = (t.receipt, t.time.date(), t.details, t.paid_in, t.withdrawn)
        rows.setdefault(key, []).append(t.page)
    repeated = [
        {"receipt": key[0], "date": str(key[1]), "pages": pages}
        for key, pages in rows.items()
        if len(pages) > 1
    ]
    if not repeated:
        return None
    return _signal(
        "duplicate_receipt",
        "high",
        f"{len(repeated)} receipt number(s) listed more than once.",
        receipts=sorted({str(r["receipt"]) for r in repeated})[:MAX_EVIDENCE],
        rows=repeated[:MAX_EVIDENCE],
    )


def _tokens(name: str) -> set[str]:
    return {t for t in re.split(r"[^A-Z]+", name.upper()) if len(t) > 1}


def names_agree(declared: str, stated: str) -> bool:
    a, b = _tokens(declared), _tokens(stated)
    if not a or not b:
        return False
    if a <= b or b <= a or len(a & b) >= 2:
        return True
    return fuzz.token_set_ratio(" ".join(sorted(a)), " ".join(sorted(b))) >= 90


def _digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-9:]


def declared_signals(statement: Statement, declared: Declared) -> list[Signal]:
    found: list[Signal] = []
    header = statement.header
    if declared.name and header.name and not names_agree(declared.name, header.name):
        found.append(
            _signal(
                "declared_name_mismatch",
                "medium",
                "The declared name is not the statement holder's.",
                field="declared_name",
            )
        )
    if declared.phone and header.phone and _digits(declared.phone) != _digits(header.phone):
        found.append(
            _signal(
                "declared_phone_mismatch",
                "medium",
                "The declared phone is not the statement's mobile number.",
                field="declared_phone",
            )
        )
    return found


def period_signal(statement: Statement) -> Signal | None:
    start, end = statement.header.period_start, statement.header.period_end
    if not (start and end):
        return None
    outside = [t.receipt for t in statement.transactions if not start <= t.time.date() <= end]
    if not outside:
        return None
    return _signal(
        "outside_period",
        "medium",
        "Transactions dated outside the statement period.",
        receipts=outside[:MAX_EVIDENCE],
    )


def formula_signal(statement: Statement) -> Signal | None:
    if not statement.formula_cells:
        return None
    return _signal(
        "formula_cells",
        "medium",
        "Cells computed by formulas (an exported statement has only values); read as "
        "text, never evaluated.",
        cells=statement.formula_cells[:MAX_EVIDENCE],
    )


def dimension_signal(statement: Statement) -> Signal | None:
    if statement.dimension_rows is None:
        return None
    declared, last = statement.dimension_rows
    return _signal(
        "dimension_mismatch",
        "high",
        f"The sheet declares rows up to {declared:,} but holds rows up to {last:,}: a reader "
        "that trusts the declaration sees only part of the statement. Every row was read.",
        declared_last_row=declared,
        last_row=last,
    )


def all_signals(statement: Statement, declared: Declared) -> list[Signal]:
    found = balance_signals(statement) + [
        s
        for s in (
            summary_mismatch(statement),
            duplicate_receipts(statement),
            period_signal(statement),
            formula_signal(statement),
            dimension_signal(statement),
        )
        if s is not None
    ]
    return file_signals(statement) + found + declared_signals(statement, declared)


def verdict(signals: list[Signal]) -> Verdict:
    severities = {s.severity for s in signals}
    if "high" in severities:
        return "tampered"
    if "medium" in severities:
        return "suspicious"
    return "genuine"
