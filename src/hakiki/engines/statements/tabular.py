"""Bank (and mobile-money) statements exported as CSV or XLSX: the header row found among the
first rows, its columns recognised by their names, each row read as a transaction.

Cells are data, never code: a formula in an XLSX cell is read as its text (never evaluated)
and noted, a CSV cell that looks like a formula is text like any other. An XLSX is checked
before it is read: the zip's declared uncompressed sizes and compression ratios, no DOCTYPE in
its XML, a declared dimension over the limits; then its first sheet is read as a stream
(``engines/xlsx``, the bulk scans' reader): every row whatever the dimension declares (a
dimension that leaves rows out is reported, ``dimension_rows``), the rows counted cheaply
before the parse and again as read."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from hakiki.engines.statements.model import Header, Refused, Statement, Transaction
from hakiki.engines.statements.money import to_minor
from hakiki.engines.xlsx import SheetRows, XlsxRefused

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


Rows = Iterator[tuple[int, list[Any]]]  # (the sheet's row or the CSV's record number, cells)


@dataclass
class SheetFacts:
    """What reading a sheet found besides its rows."""

    formulas: list[str] = field(default_factory=list)
    declared_rows: int | None = None  # the last row of the XLSX's <dimension>
    last_row: int = 0  # the last row holding a value


def _csv_rows(data: bytes, limits: Limits) -> Rows:
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
            yield count, row[: limits.max_columns]
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


def _xlsx_rows(data: bytes, limits: Limits, facts: SheetFacts) -> Rows:
    check_xlsx(data, limits)
    sheet = SheetRows(
        io.BytesIO(data),
        limits.max_columns,
        max_unpacked=limits.max_uncompressed,
        max_rows=limits.max_rows,
        formulas_as_text=True,
    )
    try:
        for count, (number, cells, _width) in enumerate(sheet, start=1):
            if count > limits.max_rows:
                raise _too_many(limits)
            facts.last_row = number
            yield number, cells
    except XlsxRefused as error:
        code = "too_large" if error.too_large else "unreadable"
        raise Refused(code, f"file: {error.problem}.") from None
    facts.formulas = sheet.formulas
    facts.declared_rows = sheet.declared_rows


def _header(rows: list[tuple[int, list[Any]]]) -> tuple[int, dict[str, int]] | None:
    for index, (_number, row) in enumerate(rows[:HEADER_SEARCH_ROWS]):
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
    facts = SheetFacts()
    source = _csv_rows(data, limits) if file_format == "csv" else _xlsx_rows(data, limits, facts)
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
    for number, row in rows[start + 1 :]:

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
        formula_cells=facts.formulas[:50],
        dimension_rows=_dimension_rows(facts),
    )


def _dimension_rows(facts: SheetFacts) -> tuple[int, int] | None:
    """(declared last row, real last row) when the XLSX declares fewer rows than it holds: a
    reader that trusts the declaration (openpyxl's read-only mode, some viewers) sees only part
    of the statement."""
    declared = facts.declared_rows
    if declared is None or facts.last_row <= declared:
        return None
    return declared, facts.last_row
