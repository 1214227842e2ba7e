"""The dates of a sheet's date column, read in one order for the whole column.

"09-01-24" is the 9th of January or the 1st of September: one cell cannot say. The column can:
a day over 12 in the first place (or the second) settles it for every row, and so does the
order of the rows (a statement is sorted by time). A column that neither settles is refused,
never guessed row by row."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from itertools import pairwise

from hakiki.engines.statements.model import Refused

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_TIME = r"(?:[T\s,]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*([AaPp][Mm])?)?\s*$"
_YMD = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})" + _TIME)
_NUMERIC = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})" + _TIME)
_DAY_NAME = re.compile(r"^(\d{1,2})[-\s/.]*([A-Za-z]{3,9})[-\s/.,]*(\d{4}|\d{2})" + _TIME)
_NAME_DAY = re.compile(r"^([A-Za-z]{3,9})[-\s/.]*(\d{1,2})(?:st|nd|rd|th)?[\s,/.-]+(\d{4})" + _TIME)


@dataclass(frozen=True)
class _Parts:
    """A cell split into its numbers; ``first``/``second`` are day and month in some order
    when ``ordered`` is false (a numeric date such as 09-01-24)."""

    year: int
    first: int
    second: int
    ordered: bool  # first is the month, second the day, for sure
    clock: tuple[int, int, int]


def _year(text: str) -> int:
    value = int(text)
    if len(text) == 2:
        value += 2000 if value < 70 else 1900
    return value


def _clock(
    hour: str | None, minute: str | None, second: str | None, half: str | None
) -> tuple[int, int, int]:
    if hour is None or minute is None:
        return (0, 0, 0)
    value = int(hour)
    if half:
        value = value % 12 + (12 if half.lower() == "pm" else 0)
    return (value, int(minute), int(second or 0))


def _parts(text: str) -> _Parts | None:
    match = _YMD.match(text)
    if match:
        year, month, day, *clock = match.groups()
        return _Parts(int(year), int(month), int(day), True, _clock(*clock))
    match = _NUMERIC.match(text)
    if match:
        first, second, year, *clock = match.groups()
        return _Parts(_year(year), int(first), int(second), False, _clock(*clock))
    match = _DAY_NAME.match(text)
    if match and match.group(2).lower() in MONTHS:
        day, month, year, *clock = match.groups()
        return _Parts(_year(year), MONTHS[month.lower()], int(day), True, _clock(*clock))
    match = _NAME_DAY.match(text)
    if match and match.group(1).lower() in MONTHS:
        month, day, year, *clock = match.groups()
        return _Parts(_year(year), MONTHS[month.lower()], int(day), True, _clock(*clock))
    return None


def looks_like_date(value: object) -> bool:
    return isinstance(value, (date, datetime)) or (
        isinstance(value, str) and _parts(value.strip()) is not None
    )


def _build(parts: _Parts, day_first: bool) -> datetime | None:
    month, day = (
        (parts.second, parts.first)
        if day_first and not parts.ordered
        else (
            parts.first,
            parts.second,
        )
    )
    try:
        return datetime(parts.year, month, day, *parts.clock)
    except ValueError:
        return None


def _sorted(moments: list[datetime]) -> bool:
    pairs = list(pairwise(moments))
    return all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs)


@dataclass(frozen=True)
class DateColumn:
    """How to read the cells of one column: ``day_first`` settles 09-01-24 for all of them."""

    day_first: bool

    def read(self, value: object) -> datetime | None:
        if isinstance(value, datetime):
            return value
        if isinstance(value, date):
            return datetime(value.year, value.month, value.day)
        if not isinstance(value, str):
            return None
        parts = _parts(value.strip())
        return None if parts is None else _build(parts, self.day_first)


def infer(values: Iterable[object], column: str) -> DateColumn:
    """The order of the column's numeric dates, from all of them (``column`` names it in the
    refusal of an ambiguous or mixed column)."""
    numeric = [
        parts
        for value in values
        if isinstance(value, str) and (parts := _parts(value.strip())) and not parts.ordered
    ]
    if not numeric:
        return DateColumn(day_first=True)
    day_first = any(p.first > 12 for p in numeric)
    month_first = any(p.second > 12 for p in numeric)
    example = next((p for p in numeric if p.first != p.second), numeric[0])
    shown = f"{example.first:02d}-{example.second:02d}-{example.year}"
    if day_first and month_first:
        raise Refused(
            "ambiguous_dates",
            f"file: the '{column}' column mixes day-first and month-first dates; export the "
            "statement again with one date format (e.g. 2024-01-31).",
        )
    if day_first or month_first:
        return DateColumn(day_first=day_first)
    if all(p.first == p.second for p in numeric):
        return DateColumn(day_first=True)
    readings = {
        order: [m for p in numeric if (m := _build(p, order)) is not None]
        for order in (True, False)
    }
    sorted_orders = [order for order, moments in readings.items() if _sorted(moments)]
    if len(sorted_orders) == 1:
        return DateColumn(day_first=sorted_orders[0])
    raise Refused(
        "ambiguous_dates",
        f"file: the dates of the '{column}' column (e.g. {shown}) read as day-month and as "
        "month-day alike; export the statement with the year first (2024-01-31) or the month "
        "in words (31 Jan 2024).",
    )
