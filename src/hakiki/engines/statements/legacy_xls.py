"""Legacy binary Excel (BIFF, ``.xls``; MTN Uganda's exports among others), read with xlrd:
cell values only (formulas are read as the values they last showed), dates from their
number formats, the first sheet only. A BIFF file is not compressed, so its cells are bounded
by the upload's size; the sheet's rows and columns by the sheet limits."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import xlrd

from hakiki.engines.statements.model import Refused

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def is_xls(data: bytes) -> bool:
    return data.startswith(OLE2_MAGIC)


def _value(cell: xlrd.sheet.Cell, datemode: int) -> Any:
    if cell.ctype == xlrd.XL_CELL_DATE:
        try:
            return xlrd.xldate_as_datetime(cell.value, datemode)
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return None
    if cell.ctype == xlrd.XL_CELL_NUMBER:
        value = float(cell.value)
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if cell.ctype in (xlrd.XL_CELL_TEXT,):
        return str(cell.value)
    return None  # empty, blank, boolean, error


def xls_rows(data: bytes, max_rows: int, max_columns: int) -> Iterator[tuple[int, list[Any]]]:
    try:
        book = xlrd.open_workbook(
            file_contents=data, logfile=io.StringIO(), on_demand=True, formatting_info=False
        )
        sheet = book.sheet_by_index(0)
    except Exception:  # xlrd raises many kinds on a broken file; each means the same to us
        raise Refused("unreadable", "file: not a readable XLS (legacy Excel) file.") from None
    if sheet.nrows > max_rows:
        raise Refused("too_large", f"file: more than {max_rows:,} rows.")
    width = min(sheet.ncols, max_columns)
    for number in range(sheet.nrows):
        cells = sheet.row_slice(number, 0, width)
        yield number + 1, [_value(cell, book.datemode) for cell in cells]
    book.release_resources()
