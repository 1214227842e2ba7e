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
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hakiki.engines.statements.dates import DateColumn, infer, looks_like_date
from hakiki.engines.statements.html_table import html_rows
from hakiki.engines.statements.legacy_xls import xls_rows
from hakiki.engines.statements.model import Header, Refused, Statement, Transaction
from hakiki.engines.statements.money import to_minor
from hakiki.engines.xlsx import SheetRows, XlsxRefused

VERSION = "2"
HEADER_SEARCH_ROWS = 20
MAX_SPAN_DAYS = 3660  # ten years: the metrics walk every day between the first and last row
MAX_CELL_CHARS = 1000


@dataclass(frozen=True)
class Limits:
    max_rows: int = 50_000
    max_columns: int = 50
    max_uncompressed: int = 64 * 1024 * 1024
    max_ratio: int = 100  # uncompressed / compressed, per part
    max_seconds: float = 10.0  # reading an HTML page


SYNONYMS: dict[str, tuple[str, ...]] = {
    "time": (
        "date",
        "transaction date",
        "txn date",
        "value date",
        "posting date",
        "trans date",
        "transaction time",
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
_SPACE = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def _squash(name: str) -> str:
    """A header name without case, spaces or punctuation: "Paid_In", "PaidIn" and "paid in"
    are one name."""
    return _NOT_WORD.sub("", name.lower())


_LOOKUP = {_squash(name): field for field, names in SYNONYMS.items() for name in names}


def _clean(value: Any) -> str:
    text = "" if value is None else str(value)
    text = "".join(
        ch if ch >= " " else " "
        for ch in text[:MAX_CELL_CHARS]
        if not 0xD800 <= ord(ch) <= 0xDFFF and ch != "\x00"
    )
    return _SPACE.sub(" ", text).strip()


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


# What the zip module raises on a damaged archive: a bad header, CRC or deflate stream, an
# unsupported version or method, an encrypted member
BROKEN_ZIP = (
    zipfile.BadZipFile,
    zlib.error,
    NotImplementedError,
    RuntimeError,
    EOFError,
    OSError,
    ValueError,
)


def check_xlsx(data: bytes, limits: Limits) -> str:
    """Refuse a zip bomb before anything is inflated; return the first sheet's part name."""
    try:
        return _check_xlsx(data, limits)
    except BROKEN_ZIP:
        raise Refused("unreadable", "file: not a readable XLSX (a broken zip).") from None


def _check_xlsx(data: bytes, limits: Limits) -> str:
    archive = zipfile.ZipFile(io.BytesIO(data))
    infos = archive.infolist()
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
            field = _LOOKUP.get(_squash(_clean(value)))
            if field and field not in found:
                found[field] = position
        has_money = "amount" in found or ("paid_in" in found or "withdrawn" in found)
        if "time" in found and has_money:
            return index, found
    return None


def _rows_of(data: bytes, file_format: str, limits: Limits, facts: SheetFacts) -> Rows:
    if file_format == "csv":
        return _csv_rows(data, limits)
    if file_format == "html":
        return html_rows(
            data, limits.max_rows, limits.max_columns, MAX_CELL_CHARS, limits.max_seconds
        )
    if file_format == "xls":
        return xls_rows(data, limits.max_rows, limits.max_columns)
    return _xlsx_rows(data, limits, facts)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _mend(rows: list[tuple[int, list[Any]]], width: int, when: int) -> list[tuple[int, list[Any]]]:
    """Records split by a line break inside an unquoted cell joined again: a record shorter
    than the header that starts a transaction takes the next records (its last cell continued
    by their first) while they start none and the whole fits the header's width."""
    mended: list[tuple[int, list[Any]]] = []
    index = 0
    while index < len(rows):
        number, row = rows[index]
        index += 1
        if len(row) < width and when < len(row) and looks_like_date(row[when]):
            row = list(row)
            while index < len(rows):
                following = rows[index][1]
                starts = when < len(following) and looks_like_date(following[when])
                if starts or not following or len(row) + len(following) - 1 > width:
                    break
                row[-1] = f"{row[-1]}\n{following[0]}"
                row.extend(following[1:])
                index += 1
        mended.append((number, row))
    return mended


def _continues(row: list[Any], columns: dict[str, int]) -> bool:
    """A row that only carries more of the previous row's details (M-Pesa CSV exports print a
    long name on the next line, every other cell empty)."""
    details = columns.get("details")
    if details is None or details >= len(row) or _blank(row[details]):
        return False
    return all(_blank(value) for position, value in enumerate(row) if position != details)


def _cell(row: list[Any], columns: dict[str, int], field: str) -> Any:
    position = columns.get(field)
    return row[position] if position is not None and position < len(row) else None


def _transaction(
    number: int, row: list[Any], columns: dict[str, int], dates: DateColumn
) -> Transaction | None:
    moment = dates.read(_cell(row, columns, "time"))
    if moment is None:
        return None  # blank, totals, notes or repeated header rows
    paid_in = _amount(_cell(row, columns, "paid_in")) or 0
    withdrawn = _amount(_cell(row, columns, "withdrawn")) or 0
    if "amount" in columns and not (paid_in or withdrawn):
        signed = _amount(_cell(row, columns, "amount")) or 0
        paid_in, withdrawn = (signed, 0) if signed > 0 else (0, -signed)
    return Transaction(
        receipt=_clean(_cell(row, columns, "receipt")) or f"row-{number}",
        time=moment,
        details=_clean(_cell(row, columns, "details")),
        status=_clean(_cell(row, columns, "status")) or "Completed",
        paid_in=abs(paid_in),
        withdrawn=abs(withdrawn),
        balance=_amount(_cell(row, columns, "balance")),
        page=number,
    )


def read_sheet(data: bytes, file_format: str, statement_type: str, limits: Limits) -> Statement:
    facts = SheetFacts()
    rows = list(_rows_of(data, file_format, limits, facts))
    found = _header(rows)
    if found is None:
        raise Refused(
            "unsupported_layout",
            "file: no header row with a date column and an amount (or credit/debit) column in "
            f"the first {HEADER_SEARCH_ROWS} rows.",
        )
    start, columns = found
    header_row = rows[start][1]
    body = _mend(rows[start + 1 :], len(header_row), columns["time"])
    dates = infer(
        (_cell(row, columns, "time") for _number, row in body),
        _clean(header_row[columns["time"]]),
    )
    transactions: list[Transaction] = []
    for number, row in body:
        if transactions and _continues(row, columns):
            last = transactions[-1]
            extra = _clean(_cell(row, columns, "details"))
            last.details = f"{last.details} {extra}"[:MAX_CELL_CHARS]
            continue
        transaction = _transaction(number, row, columns, dates)
        if transaction is not None:
            transactions.append(transaction)
    if not transactions:
        raise Refused("no_transactions", "file: no transaction rows under the header.")
    _check_span(transactions)
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


def _check_span(transactions: list[Transaction]) -> None:
    first = min(t.time for t in transactions)
    last = max(t.time for t in transactions)
    if (last - first).days > MAX_SPAN_DAYS:
        raise Refused(
            "too_large",
            f"file: the rows are dated from {first.date()} to {last.date()}; a statement covers "
            f"at most {MAX_SPAN_DAYS // 366} years.",
        )


def _dimension_rows(facts: SheetFacts) -> tuple[int, int] | None:
    """(declared last row, real last row) when the XLSX declares fewer rows than it holds: a
    reader that trusts the declaration (openpyxl's read-only mode, some viewers) sees only part
    of the statement."""
    declared = facts.declared_rows
    if declared is None or facts.last_row <= declared:
        return None
    return declared, facts.last_row
