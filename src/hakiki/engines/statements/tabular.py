"""Bank (and mobile-money) statements exported as CSV or XLSX: the header row found among the
first rows, its columns recognised by their names, each row read as a transaction.

Cells are data, never code: a formula in an XLSX cell is read as its text (never evaluated)
and noted, a CSV cell that looks like a formula is text like any other. An XLSX is checked
before openpyxl loads it: the zip's declared uncompressed sizes and compression ratios, no
DOCTYPE in its XML, the first sheet's declared dimension, then the rows are counted as read."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from hakiki.engines.statements.model import Header, Refused, Statement, Transaction
from hakiki.engines.statements.money import to_minor

VERSION = "1"
HEADER_SEARCH_ROWS = 20
MAX_CELL_CHARS = 1000


@dataclass(frozen=True)
class Limits:
    max_rows: int = 50_000
    max_columns: int = 50
    max_uncompressed: int = 64 * 1024 * 1024
    max_ratio: int = 100  # uncompressed / compressed, per part


SYNONYMS: dict[str, tuple[str, ...]] = {
    "time": (
        "date",
        "transaction date",
        "txn date",
        "value date",
        "posting date",
        "trans date",
        "completion time",
        "date/time",
        "booking date",
    ),
    "details": (
        "description",
        "details",
        "narration",
        "narrative",
        "particulars",
        "remarks",
        "transaction details",
        "memo",
    ),
    "paid_in": (
        "credit",
        "credits",
        "deposit",
        "deposits",
        "paid in",
        "money in",
        "cr",
        "credit amount",
    ),
    "withdrawn": (
        "debit",
        "debits",
        "withdrawal",
        "withdrawals",
        "withdrawn",
        "paid out",
        "money out",
        "dr",
        "debit amount",
    ),
    "amount": ("amount", "transaction amount", "amount (kes)", "amount (ugx)"),
    "balance": ("balance", "running balance", "closing balance", "book balance", "ledger balance"),
    "receipt": (
        "reference",
        "ref",
        "ref no",
        "reference number",
        "receipt no",
        "receipt no.",
        "transaction id",
        "transaction ref",
        "cheque no",
        "id",
    ),
    "status": ("status", "transaction status"),
}
_LOOKUP = {name: field for field, names in SYNONYMS.items() for name in names}
DATE_FORMATS = (
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%d/%m/%Y",
    "%d-%m-%Y %H:%M",
    "%d-%m-%Y",
    "%d %b %Y",
    "%d-%b-%Y",
    "%d %B %Y",
    "%d.%m.%Y",
)
_SPACE = re.compile(r"\s+")


def _clean(value: Any) -> str:
    text = "" if value is None else str(value)
    text = "".join(
        ch for ch in text[:MAX_CELL_CHARS] if ch >= " " and not 0xD800 <= ord(ch) <= 0xDFFF
    )
    return _SPACE.sub(" ", text).strip()


def _when(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    text = _clean(value)
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _amount(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value * 100
    if isinstance(value, float):
        return round(value * 100)
    return to_minor(_clean(value))


def _csv_rows(data: bytes, limits: Limits) -> Iterator[list[Any]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused("unreadable", "file: a CSV must be UTF-8 text.") from None
    if "\x00" in text:
        raise Refused("unreadable", "file: a CSV must not contain NUL characters.")
    sample = text[:4096]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        for count, row in enumerate(reader, start=1):
            if count > limits.max_rows:
                raise _too_many(limits)
            yield row[: limits.max_columns]
    except csv.Error as error:
        raise Refused("unreadable", f"file: not a readable CSV ({error}).") from None


def _too_many(limits: Limits) -> Refused:
    return Refused("too_large", f"file: more than {limits.max_rows:,} rows.")


def check_xlsx(data: bytes, limits: Limits) -> str:
    """Refuse a zip bomb before anything is inflated; return the first sheet's part name."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise Refused("unreadable", "file: not a readable XLSX (a broken zip).") from None
    total = sum(info.file_size for info in infos)
    if total > limits.max_uncompressed:
        raise Refused(
            "too_large",
            f"file: the XLSX expands to {total:,} bytes, over the "
            f"{limits.max_uncompressed:,}-byte limit.",
        )
    for info in infos:
        if info.file_size > 1_000_000 and info.file_size > limits.max_ratio * max(
            info.compress_size, 1
        ):
            raise Refused("too_large", f"file: {info.filename} is compressed suspiciously well.")
    names = {info.filename for info in infos}
    sheet = "xl/worksheets/sheet1.xml"
    if sheet not in names:
        sheets = sorted(n for n in names if n.startswith("xl/worksheets/sheet"))
        if not sheets:
            raise Refused("unreadable", "file: an XLSX without a worksheet.")
        sheet = sheets[0]
    for name in names:
        if name.endswith((".xml", ".rels")):
            with archive.open(name) as part:
                head = part.read(4096)
            if b"<!DOCTYPE" in head.upper() or b"<!ENTITY" in head.upper():
                raise Refused("unreadable", "file: an XLSX part declares a DOCTYPE; refused.")
    with archive.open(sheet) as part:
        start = part.read(4096).decode("utf-8", "replace")
    match = re.search(r'<(?:\w+:)?dimension ref="[A-Z]+\d+:([A-Z]+)(\d+)"', start)
    if match:
        columns = 0
        for letter in match.group(1):
            columns = columns * 26 + ord(letter) - 64
        rows = int(match.group(2))
        if rows > limits.max_rows or columns > 16_384 or rows * columns > limits.max_rows * 20:
            raise Refused(
                "too_large",
                f"file: the sheet declares {rows:,} rows by {columns:,} columns, over the "
                f"{limits.max_rows:,}-row limit.",
            )
    return sheet


def _xlsx_rows(data: bytes, limits: Limits, formulas: list[str]) -> Iterator[list[Any]]:
    import openpyxl  # only for XLSX uploads

    check_xlsx(data, limits)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except Exception as error:  # openpyxl raises many kinds on a broken file
        raise Refused(
            "unreadable", f"file: not a readable XLSX ({type(error).__name__})."
        ) from None
    try:
        sheet = book.worksheets[0]
        for count, row in enumerate(
            sheet.iter_rows(max_col=limits.max_columns, values_only=False), start=1
        ):
            if count > limits.max_rows:
                raise _too_many(limits)
            values = []
            for cell in row:
                value = getattr(cell, "value", None)
                if isinstance(value, str) and value.startswith("="):
                    formulas.append(f"{getattr(cell, 'coordinate', '?')}")
                values.append(value)
            yield values
    finally:
        book.close()


def _header(rows: list[list[Any]]) -> tuple[int, dict[str, int]] | None:
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        found: dict[str, int] = {}
        for position, value in enumerate(row):
            field = _LOOKUP.get(_clean(value).lower().rstrip(":"))
            if field and field not in found:
                found[field] = position
        has_money = "amount" in found or ("paid_in" in found or "withdrawn" in found)
        if "time" in found and has_money:
            return index, found
    return None


def read_sheet(data: bytes, file_format: str, statement_type: str, limits: Limits) -> Statement:
    formulas: list[str] = []
    source = _csv_rows(data, limits) if file_format == "csv" else _xlsx_rows(data, limits, formulas)
    rows = list(source)
    found = _header(rows)
    if found is None:
        raise Refused(
            "unsupported_layout",
            "file: no header row with a date column and an amount (or credit/debit) column in "
            f"the first {HEADER_SEARCH_ROWS} rows.",
        )
    start, columns = found
    transactions: list[Transaction] = []
    for number, row in enumerate(rows[start + 1 :], start=start + 2):

        def cell(field: str, row: list[Any] = row) -> Any:
            position = columns.get(field)
            return row[position] if position is not None and position < len(row) else None

        moment = _when(cell("time"))
        if moment is None:
            continue  # blank, totals or notes rows
        paid_in = _amount(cell("paid_in")) or 0
        withdrawn = _amount(cell("withdrawn")) or 0
        if "amount" in columns and not (paid_in or withdrawn):
            signed = _amount(cell("amount")) or 0
            paid_in, withdrawn = (signed, 0) if signed > 0 else (0, -signed)
        transactions.append(
            Transaction(
                receipt=_clean(cell("receipt")) or f"row-{number}",
                time=moment,
                details=_clean(cell("details")),
                status=_clean(cell("status")) or "Completed",
                paid_in=abs(paid_in),
                withdrawn=abs(withdrawn),
                balance=_amount(cell("balance")),
                page=number,
            )
        )
    if not transactions:
        raise Refused("no_transactions", "file: no transaction rows under the header.")
    if len(transactions) > 1 and transactions[0].time > transactions[-1].time:
        transactions.reverse()  # newest first in the file
    issuer = "bank" if statement_type == "auto" else statement_type
    return Statement(
        layout=f"{file_format}_columns_v{VERSION}",
        parser_version=VERSION,
        issuer=issuer,
        file_format=file_format,
        header=Header(),
        transactions=transactions,
        formula_cells=formulas[:50],
    )
