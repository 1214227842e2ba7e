"""Reading an uploaded sheet (CSV or XLSX) into a header and rows of text, within limits.

Row numbers are the sheet's own (the header is row 1), so a problem can be found in the file.
Reading is bounded whatever the file claims: by the row limit, by the header's width (cells
further right are only noted, never kept), and by a wall-clock budget (``Deadline``).
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

XLSX_MAGIC = b"PK\x03\x04"
MAX_CELL_CHARS = 2000
MAX_COLUMNS = 100  # of a header; the layouts use at most nine
MAX_PROBLEMS = 50
# C0 controls other than tab, line feed and carriage return (PostgreSQL refuses NUL in text,
# XML and XLSX refuse the others) and unpaired surrogates (not encodable as UTF-8).
_BAD_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


@dataclass(frozen=True)
class Problem:
    row: int | None  # the sheet's row (header = 1); None for the file as a whole
    column: str | None  # the header's name of the column
    column_letter: str | None
    problem: str

    def detail(self) -> dict[str, Any]:
        found = {"field": "file", "row": self.row, "column": self.column}
        found["column_letter"] = self.column_letter
        found["problem"] = self.problem
        return {k: v for k, v in found.items() if v is not None}

    def text(self) -> str:
        where = []
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column} ({self.column_letter})")
        return (", ".join(where) + ": " if where else "") + self.problem


class SheetError(Exception):
    """The file cannot be scanned; ``problems`` say where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].text())
        self.problems = problems


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


@dataclass(frozen=True)
class Sheet:
    file_format: str  # csv | xlsx
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (sheet row number, cells), blank rows left out
    # rows with non-blank cells right of the header: sheet row -> how many cells it has
    widths: dict[int, int] = field(default_factory=dict)


class Deadline:
    """The wall-clock budget of reading one file; ``check`` raises once it is spent."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def check(self) -> None:
        if time.monotonic() > self.at:
            spent = f"reading the file took longer than its {self.seconds:g}-second budget"
            refused = f"{spent}; refused (split it, or save it as CSV)"
            raise SheetError([Problem(None, None, None, refused)])


# (sheet row, cells, how many cells up to its last non-blank one); ``cells`` may be shorter
# than that count (an XLSX row keeps only the header's width).
Row = tuple[int, list[str], int]


def read_sheet(data: bytes, *, max_rows: int, seconds: float = 20.0) -> Sheet:
    """The header and the non-blank rows; SheetError for an unreadable file, too many rows, or
    a file that takes longer than ``seconds`` to read."""
    deadline = Deadline(seconds)
    if not data.strip():
        raise SheetError([Problem(None, None, None, "the file is empty")])
    if data.startswith(XLSX_MAGIC):
        from hakiki.engines.xlsx import SheetRows  # on demand: most uploads are CSV

        sheet_rows = SheetRows(
            io.BytesIO(data),
            MAX_COLUMNS + 1,
            deadline=deadline.check,
            max_rows=max_rows,
            header_rows=1,
        )

        def narrow(width: int) -> None:
            sheet_rows.columns = width

        return _limited("xlsx", _xlsx_text(sheet_rows), max_rows, deadline, narrow)
    return _limited("csv", _csv_rows(data), max_rows, deadline, None)


def _xlsx_text(rows: Iterable[tuple[int, list[Any], int]]) -> Iterator[Row]:
    """The XLSX reader's rows as text, its refusals as a SheetError with the place."""
    from hakiki.engines.xlsx import XlsxRefused

    try:
        for number, cells, width in rows:
            yield number, [cell_text(value) for value in cells], width
    except XlsxRefused as error:
        letter = column_letter(error.column - 1) if error.column else None
        raise SheetError([Problem(error.row, None, letter, error.problem)]) from error


def _character_problem(text: str) -> str | None:
    if len(text) > MAX_CELL_CHARS:
        return f"longer than {MAX_CELL_CHARS:,} characters"
    bad = _BAD_CHARACTER.search(text)
    if bad is None:
        return None
    code = f"U+{ord(bad.group()):04X}"
    if "\ud800" <= bad.group() <= "\udfff":
        return f"contains an unpaired surrogate ({code}), which is not valid text; remove it"
    return f"contains a control character ({code}); remove it"


def _limited(
    file_format: str,
    rows: Iterable[Row],
    max_rows: int,
    deadline: Deadline,
    narrow: Callable[[int], None] | None,
) -> Sheet:
    header: list[str] | None = None
    kept: list[tuple[int, list[str]]] = []
    widths: dict[int, int] = {}
    problems: list[Problem] = []
    for number, cells, width in rows:
        deadline.check()
        if not width:
            continue
        if header is None:
            if width > MAX_COLUMNS:
                where = column_letter(MAX_COLUMNS)
                too_wide = f"the header has more than {MAX_COLUMNS} columns"
                raise SheetError([Problem(number, None, where, too_wide)])
            header = cells[:width]
            for position, text in enumerate(header):
                if found := _character_problem(text):
                    problems.append(Problem(number, None, column_letter(position), found))
            if narrow is not None:
                narrow(len(header))
            continue
        if len(kept) == max_rows:
            raise SheetError(
                [Problem(number, None, None, f"more than {max_rows:,} rows; split the file")]
            )
        if width > len(header):
            widths[number] = width
        cells = cells[: min(width, len(header))]
        if max(map(len, cells)) > MAX_CELL_CHARS or _BAD_CHARACTER.search("".join(cells)):
            for position, text in enumerate(cells):  # rare: find the cells
                if len(problems) < MAX_PROBLEMS and (found := _character_problem(text)):
                    name = header[position] or "(blank)"
                    problems.append(Problem(number, name, column_letter(position), found))
        if len(problems) >= MAX_PROBLEMS:
            break
        kept.append((number, cells))
    if problems:
        raise SheetError(problems[:MAX_PROBLEMS])
    if header is None:
        raise SheetError([Problem(None, None, None, "the file has no header row")])
    return Sheet(file_format, header, kept, widths)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # Excel's "CSV" on Windows


def _csv_rows(data: bytes) -> Iterator[Row]:
    text = _decode(data)
    first_line = text.split("\n", 1)[0]
    if "\x00" in first_line:  # UTF-16 text, a spreadsheet of another kind, a binary file
        raise SheetError([Problem(None, None, None, "not a CSV or XLSX file")])
    delimiter = max(",;\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for cells in reader:
            width = len(cells)
            while width and not cells[width - 1].strip():
                width -= 1  # trailing empty cells (Excel pads rows to the widest one)
            yield reader.line_num, cells, width
    except csv.Error as error:
        raise SheetError([Problem(reader.line_num, None, None, f"bad CSV: {error}")]) from error


def cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # an identity number typed as a number: 22222222222.0
    return str(value)
