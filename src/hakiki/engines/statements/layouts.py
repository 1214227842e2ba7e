"""The PDF layouts we read, one versioned description each, and the one table reader they
share: the header's fields, an optional summary table, then the transaction table whose
column titles repeat on every page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from hakiki.engines.statements import bank_pdf
from hakiki.engines.statements.model import Header, Refused, Transaction
from hakiki.engines.statements.money import to_minor
from hakiki.engines.statements.pdf_reader import Cell, Page

AMOUNT_FIELDS = ("paid_in", "withdrawn", "balance")


@dataclass(frozen=True)
class PdfLayout:
    name: str  # e.g. mpesa_full
    version: str  # bumped when the reading changes
    issuer: str
    title: re.Pattern[str]  # found on page 1
    columns: tuple[tuple[str, str], ...]  # (title printed, field)
    receipt: re.Pattern[str]
    time_formats: tuple[str, ...]
    newest_first: bool
    name_label: re.Pattern[str]
    phone_label: re.Pattern[str]
    period_label: re.Pattern[str]
    period_format: str
    summary_title: str | None  # the summary table's title, if the layout has one
    table_title: str | None

    @property
    def layout_id(self) -> str:
        return f"{self.name}_v{self.version}"


MPESA = PdfLayout(
    name="mpesa_full",
    version="1",
    issuer="mpesa",
    title=re.compile(r"M-PESA STATEMENT", re.I),
    columns=(
        ("Receipt No.", "receipt"),
        ("Completion Time", "time"),
        ("Details", "details"),
        ("Transaction Status", "status"),
        ("Paid In", "paid_in"),
        ("Withdrawn", "withdrawn"),
        ("Balance", "balance"),
    ),
    receipt=re.compile(r"^[A-Z0-9]{10}$"),
    time_formats=("%Y-%m-%d %H:%M:%S",),
    newest_first=True,
    name_label=re.compile(r"Customer Name:\s*(.+)$"),
    phone_label=re.compile(r"Mobile Number:\s*(\+?[\d ]{9,15})$"),
    period_label=re.compile(r"Statement Period:\s*(\d{2} \w{3} \d{4})\s*-\s*(\d{2} \w{3} \d{4})"),
    period_format="%d %b %Y",
    summary_title="SUMMARY",
    table_title="DETAILED STATEMENT",
)

AIRTEL = PdfLayout(
    name="airtel_money",
    version="1",
    issuer="airtel_money",
    title=re.compile(r"AIRTEL MONEY STATEMENT", re.I),
    columns=(
        ("Transaction ID", "receipt"),
        ("Transaction Date", "time"),
        ("Description", "details"),
        ("Status", "status"),
        ("Credit", "paid_in"),
        ("Debit", "withdrawn"),
        ("Balance", "balance"),
    ),
    receipt=re.compile(r"^\d{8,14}$"),
    time_formats=("%d-%m-%Y %H:%M",),
    newest_first=False,
    name_label=re.compile(r"Customer Name:\s*(.+)$"),
    phone_label=re.compile(r"Msisdn:\s*(\+?[\d ]{9,15})$"),
    period_label=re.compile(r"Period:\s*(\d{2}-\d{2}-\d{4})\s*to\s*(\d{2}-\d{2}-\d{4})"),
    period_format="%d-%m-%Y",
    summary_title=None,
    table_title=None,
)

PDF_LAYOUTS: dict[str, PdfLayout] = {MPESA.issuer: MPESA, AIRTEL.issuer: AIRTEL}

_NEVER = re.compile(r"(?!)")
# Bank statements: no layout per bank; read by bank_pdf.BankTable when no layout above matches.
BANK = PdfLayout(
    name="bank_pdf",
    version="1",
    issuer="bank",
    title=_NEVER,
    columns=(),
    receipt=_NEVER,
    time_formats=(),
    newest_first=False,
    name_label=_NEVER,
    phone_label=_NEVER,
    period_label=_NEVER,
    period_format="",
    summary_title=None,
    table_title=None,
)


def detect(first_page: Page, statement_type: str) -> PdfLayout:
    text = "\n".join(" ".join(c.text for c in line) for line in first_page.lines)
    for layout in PDF_LAYOUTS.values():
        if layout.title.search(text):
            if statement_type not in ("auto", layout.issuer):
                raise Refused(
                    "layout_mismatch",
                    f"statement_type: the file is an {layout.issuer} statement, not "
                    f"{statement_type}.",
                    "statement_type",
                )
            return layout
    if statement_type in ("auto", "bank") and bank_pdf.looks_like_statement(first_page):
        return BANK
    wanted = "" if statement_type == "auto" else f" {statement_type}"
    raise Refused(
        "unsupported_layout",
        f"file: not a{wanted} statement layout we read (M-Pesa full statement, Airtel Money, "
        "a bank statement whose table has date, debit/credit and balance columns).",
    )


@dataclass
class Columns:
    left: list[tuple[float, str]]  # text columns by the x where their title starts
    right: dict[str, float]  # amount columns by the x where their title ends

    def field_of(self, cell: Cell) -> str | None:
        if to_minor(cell.text) is not None:
            for name, x1 in self.right.items():
                if abs(cell.x1 - x1) <= 4:
                    return name
        chosen = None
        for x0, name in self.left:
            if x0 - 2 <= cell.x0:
                chosen = name
        return chosen


def _columns(layout: PdfLayout, line: list[Cell]) -> Columns | None:
    titles = {cell.text: cell for cell in line}
    if not all(title in titles for title, _ in layout.columns):
        return None
    left = sorted((titles[t].x0, f) for t, f in layout.columns if f not in AMOUNT_FIELDS)
    right = {f: titles[t].x1 for t, f in layout.columns if f in AMOUNT_FIELDS}
    return Columns(left, right)


class TableReader:
    """Reads a layout's pages one at a time (so a job can report progress)."""

    def __init__(self, layout: PdfLayout) -> None:
        self.layout = layout
        self.header = Header()
        self.summary: dict[str, tuple[int, int]] = {}
        self.rows: list[Transaction] = []
        self.amount_fonts: dict[str, list[str]] = {}
        self.overlays: list[dict[str, Any]] = []
        self._in_summary = False
        self._parse_time = _time_parser(layout.time_formats)
        self.bank = bank_pdf.BankTable(self.header) if layout is BANK else None

    def read(self, page: Page) -> None:
        self.overlays.extend(page.overlays)
        if self.bank is not None:
            self.bank.read(page)
            return
        columns: Columns | None = None
        for line in page.lines:
            joined = " ".join(c.text for c in line)
            if page.number == 1:
                self._header_field(joined)
            if self.layout.summary_title and joined == self.layout.summary_title:
                self._in_summary = True
                continue
            if self.layout.table_title and joined == self.layout.table_title:
                self._in_summary = False
                continue
            found = _columns(self.layout, line)
            if found is not None:
                columns, self._in_summary = found, False
                continue
            if self._in_summary:
                self._summary_row(line)
            elif columns is not None:
                self._row(line, columns, page.number)

    def _header_field(self, text: str) -> None:
        layout, header = self.layout, self.header
        if header.name is None and (m := layout.name_label.search(text)):
            header.name = m.group(1).strip()
        if header.phone is None and (m := layout.phone_label.search(text)):
            header.phone = m.group(1).replace(" ", "")
        if header.period_start is None and (m := layout.period_label.search(text)):
            header.period_start = _day(m.group(1), layout.period_format)
            header.period_end = _day(m.group(2), layout.period_format)

    def _summary_row(self, line: list[Cell]) -> None:
        amounts = [to_minor(c.text) for c in line[1:]]
        if len(line) == 3 and all(a is not None for a in amounts):
            paid_in, paid_out = (abs(a or 0) for a in amounts)
            self.summary[line[0].text.upper()] = (paid_in, paid_out)

    def _row(self, line: list[Cell], columns: Columns, page: int) -> None:
        values: dict[str, Cell] = {}
        for cell in line:
            name = columns.field_of(cell)
            if name is not None and name not in values:
                values[name] = cell
            elif name == "details" and "details" in values:
                values["details"].text += " " + cell.text
        receipt = values.get("receipt")
        if receipt is None or not self.layout.receipt.match(receipt.text):
            if set(values) == {"details"} and self.rows:  # a wrapped Details line
                self.rows[-1].details += " " + values["details"].text
            return
        moment = self._parse_time(values["time"].text) if "time" in values else None
        if moment is None:
            return
        amounts = {f: to_minor(values[f].text) if f in values else None for f in AMOUNT_FIELDS}
        for name in AMOUNT_FIELDS:
            if name in values:
                for font in values[name].fonts:
                    self.amount_fonts.setdefault(font, []).append(receipt.text)
        self.rows.append(
            Transaction(
                receipt=receipt.text,
                time=moment,
                details=values["details"].text if "details" in values else "",
                status=values["status"].text if "status" in values else "",
                paid_in=abs(amounts["paid_in"] or 0),
                withdrawn=abs(amounts["withdrawn"] or 0),
                balance=amounts["balance"],
                page=page,
            )
        )

    def chronological(self) -> list[Transaction]:
        if self.bank is not None:  # proven by the balances, or refused
            rows = self.bank.transactions()
            self.summary.update(self.bank.summary)
            self.amount_fonts.update(self.bank.amount_fonts)
            return rows
        return list(reversed(self.rows)) if self.layout.newest_first else list(self.rows)


def _day(text: str, fmt: str) -> date | None:
    try:
        return datetime.strptime(text, fmt).date()
    except ValueError:
        return None


def _time_parser(formats: Iterable[str]) -> Callable[[str], datetime | None]:
    ordered = tuple(formats)

    def parse(text: str) -> datetime | None:
        for fmt in ordered:
            try:
                return datetime.strptime(text, fmt)
            except ValueError:
                continue
        return None

    return parse
