"""The running balance, checked the way issuers print it.

Rows that share a completion second are not printed in the order they were applied (M-Pesa:
a Fuliza "OverDraft of Credit Party" credit, the payment it funds and its charge, all in one
second, in any order), so within one second the rows may be taken in any order that makes
the balances follow; across seconds the order is the statement's. Negative balances are
balances like any other (an overdraft)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby

from hakiki.engines.statements.model import Transaction

MAX_REORDERED = 12  # rows of one second put in another order than printed (M-Pesa: 2 to 4)
MAX_STEPS = 5_000  # tries per second's rows before the printed order is taken as is


@dataclass(frozen=True)
class Break:
    row: Transaction
    expected: int  # the balance before it plus its credit minus its debit
    previous: Transaction  # the row whose balance it should have followed
    # next to a Fuliza row (or in a run of breaks that started next to one): Safaricom does
    # not print every movement around an overdraft (measured on a genuine statement)
    overdraft: bool = False


def _after(balance: int, row: Transaction) -> int:
    return balance + row.paid_in - row.withdrawn


def _chains(rows: list[Transaction], balance: int | None) -> bool:
    for row in rows:
        if balance is not None and _after(balance, row) != row.balance:
            return False
        balance = row.balance
    return True


class _Search:
    """Depth first through the orders of a few rows, at most MAX_STEPS tries."""

    def __init__(self) -> None:
        self.steps = 0

    def order(self, left: list[Transaction], balance: int | None) -> list[Transaction] | None:
        if not left:
            return []
        for index, row in enumerate(left):
            self.steps += 1
            if self.steps > MAX_STEPS:
                return None
            if balance is not None and _after(balance, row) != row.balance:
                continue
            rest = self.order(left[:index] + left[index + 1 :], row.balance)
            if rest is not None:
                return [row, *rest]
        return None


def _order(rows: list[Transaction], balance: int | None) -> list[Transaction] | None:
    """An order of ``rows`` in which every balance follows from the one before (``balance``
    before the first; None: the first row starts the chain); None when there is none."""
    if _chains(rows, balance):
        return rows
    if len(rows) > MAX_REORDERED:
        return None
    return _Search().order(rows, balance)


_OVERDRAFT = re.compile(r"fuliza|overdraft|overdraw|\bod loan", re.IGNORECASE)


def overdraft(row: Transaction) -> bool:
    """A Fuliza row: the overdraft credit, a payment it funded, or its repayment."""
    return bool(_OVERDRAFT.search(row.details))


def _lone_credit(group: list[Transaction]) -> bool:
    """An "OverDraft of Credit Party" credit alone in its second: the payment it funded is
    not printed, so its balance and the next one's may not follow from the amounts shown."""
    return len(group) == 1 and group[0].paid_in > 0 and overdraft(group[0])


def breaks(transactions: list[Transaction]) -> Iterator[Break]:
    """Each completed row with a balance that does not follow from the row before it, after
    the rows of each second have been put in an order that chains, where one exists; an
    overdraft credit printed without the payment it funded is taken as the issuer prints it
    (the next row may follow from its balance or from the balance before it)."""
    rows = [t for t in transactions if t.completed and t.balance is not None]
    previous: Transaction | None = None
    run: Transaction | None = None  # the last break next to an overdraft
    starts: list[int | None] = [None]
    for _second, same in groupby(rows, key=lambda t: t.time):
        group = list(same)
        if previous is not None and _lone_credit(group):
            previous = group[0]
            assert previous.balance is not None
            starts = [previous.balance, previous.balance - previous.paid_in]
            continue
        ordered = next(
            (found for start in starts if (found := _order(group, start)) is not None), None
        )
        if ordered is not None:
            previous = ordered[-1]
            starts = [previous.balance]
            continue
        for row in group:  # no order chains: as printed, each break named
            if previous is not None and previous.balance is not None:
                expected = _after(previous.balance, row)
                if expected != row.balance:
                    near = overdraft(row) or overdraft(previous) or previous is run
                    yield Break(row, expected, previous, near)
                    run = row if near else None
            previous = row
        starts = [None if previous is None else previous.balance]
