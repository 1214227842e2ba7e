"""Reading an uploaded sheet (CSV or XLSX) into a header and rows of text, within limits.

Row numbers are the sheet's own (the header is row 1), so a problem can be found in the file.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

XLSX_MAGIC = b"PK\x03\x04"
MAX_XLSX_UNPACKED = 256 * 1024 * 1024  # a zip that inflates beyond this is refused (a bomb)
MAX_CELL_CHARS = 2000


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


def read_sheet(data: bytes, *, max_rows: int) -> Sheet:
    """The header and the non-blank rows; SheetError for an unreadable file or too many rows."""
    if not data.strip():
        raise SheetError([Problem(None, None, None, "the file is empty")])
    if data.startswith(XLSX_MAGIC):
        return _limited("xlsx", _xlsx_rows(data), max_rows)
    return _limited("csv", _csv_rows(data), max_rows)


def _limited(file_format: str, rows: Iterator[tuple[int, list[str]]], max_rows: int) -> Sheet:
    header: list[str] | None = None
    kept: list[tuple[int, list[str]]] = []
    for number, cells in rows:
        while cells and not cells[-1].strip():
            cells.pop()  # trailing empty cells (Excel pads rows to the widest one)
        if not cells:
            continue
        if header is None:
            header = cells
            continue
        if len(kept) == max_rows:
            raise SheetError(
                [Problem(number, None, None, f"more than {max_rows:,} rows; split the file")]
            )
        kept.append((number, cells))
    if header is None:
        raise SheetError([Problem(None, None, None, "the file has no header row")])
    return Sheet(file_format, header, kept)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # Excel's "CSV" on Windows


def _csv_rows(data: bytes) -> Iterator[tuple[int, list[str]]]:
    text = _decode(data)
    if "\x00" in text:
        raise SheetError([Problem(None, None, None, "not a CSV or XLSX file")])
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for cells in reader:
            yield reader.line_num, cells
    except csv.Error as error:
        raise SheetError([Problem(reader.line_num, None, None, f"bad CSV: {error}")]) from error


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # an identity number typed as a number: 22222222222.0
    return str(value)


def _xlsx_rows(data: bytes) -> Iterator[tuple[int, list[str]]]:
    from openpyxl import load_workbook  # imported on demand: most uploads are CSV

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        if unpacked > MAX_XLSX_UNPACKED:
            raise SheetError(
                [Problem(None, None, None, "the XLSX file inflates beyond 256 MB; refused")]
            )
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except SheetError:
        raise
    except Exception as error:  # openpyxl raises many kinds for a damaged file
        raise SheetError([Problem(None, None, None, "not a readable XLSX file")]) from error
    try:
        sheet = book.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            yield number, [_cell_text(value) for value in values]
    finally:
        book.close()
