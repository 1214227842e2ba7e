"""The PDF layouts we read, one versioned description each, and the one table reader they
share: the header's fields, an optional summary table, then the transaction table whose
column titles repeat on every page."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from hakiki.engines.statements import bank_pdf
from hakiki.engines.statements.model import Header, Refused, Transaction
from hakiki.engines.statements.money import to_minor
from hakiki.engines.statements.pdf_reader import Cell, Fill, Page

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
    # Words on page 1 that tell this generator from the issuer's others (all must be there).
    markers: tuple[re.Pattern[str], ...] = ()
    # A line that ends the page's table (the disclaimer under the last row).
    table_end: re.Pattern[str] | None = None

    @property
    def layout_id(self) -> str:
        return f"{self.name}_v{self.version}"


MPESA = PdfLayout(  # any M-Pesa full statement: the columns found by their titles
    name="mpesa_full",
    version="2",  # 2: columns from their title cells, lines by baseline tolerance
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
    name_label=re.compile(r"Customer Name:?\s*(.+)$"),
    phone_label=re.compile(r"Mobile Number:?\s*(\+?[\d ]{9,15})$"),
    period_label=re.compile(r"Statement Period:?\s*(\d{2} \w{3} \d{4})\s*-\s*(\d{2} \w{3} \d{4})"),
    period_format="%d %b %Y",
    summary_title="SUMMARY",
    table_title="DETAILED STATEMENT",
    table_end=re.compile(r"^Disclaimer:"),
)
# Safaricom's 2023/24 generator (OpenPDF 1.3.26): labels with colons ("Request Date:"), white
# column titles centred on green cells, header values a point off their labels' baselines.
MPESA_OPENPDF = replace(
    MPESA, name="mpesa_openpdf", version="1", markers=(re.compile(r"^Request Date:", re.M),)
)
# Safaricom's 2022 generator (iText 5.1.0): labels without colons ("Date of Statement"),
# "Transaction Status" wrapped over two lines, "TOTAL" without a colon.
MPESA_ITEXT = replace(
    MPESA, name="mpesa_itext", version="1", markers=(re.compile(r"^Date of Statement\b", re.M),)
)

AIRTEL = PdfLayout(
    name="airtel_money",
    version="2",  # 2: columns between the gaps of their titles, lines by baseline tolerance
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

# Tried in order: a generator's own layout before its issuer's general one.
PDF_LAYOUTS: tuple[PdfLayout, ...] = (MPESA_OPENPDF, MPESA_ITEXT, MPESA, AIRTEL)


def page_text(page: Page) -> str:
    return "\n".join(" ".join(c.text for c in line) for line in page.lines)


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
    text = page_text(first_page)
    for layout in PDF_LAYOUTS:
        if layout.title.search(text) and all(m.search(text) for m in layout.markers):
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
    """Each column's horizontal span; a cell belongs to the column that holds its middle."""

    spans: list[tuple[float, float, str]]  # (x0, x1, field), left to right

    def field_of(self, cell: Cell) -> str | None:
        middle = (cell.x0 + cell.x1) / 2
        for x0, x1, name in self.spans:
            if x0 <= middle < x1:
                if name in AMOUNT_FIELDS and to_minor(cell.text) is None:
                    return None
                return name
        return None


def _title_cells(line: list[Cell], below: list[Cell] | None) -> list[Cell]:
    """The line's cells, each joined with the cell printed under it on the next line (a
    title wrapped over two lines: "Transaction" above "Status")."""
    if not below:
        return line
    joined = [Cell(c.x0, c.x1, c.text, set(c.fonts), c.baseline) for c in line]
    for cell in below:
        middle = (cell.x0 + cell.x1) / 2
        for above in joined:
            if above.x0 <= middle <= above.x1:
                above.text += " " + cell.text
                break
        else:
            return line
    return joined


def _columns(
    layout: PdfLayout, line: list[Cell], fills: list[Fill], below: list[Cell] | None = None
) -> Columns | None:
    titles = {cell.text: cell for cell in _title_cells(line, below)}
    if not all(title in titles for title, _ in layout.columns):
        return None
    placed = sorted(((titles[t], f) for t, f in layout.columns), key=lambda p: p[0].x0)
    cells = [_cell_under(title, fills, [t for t, _ in placed]) for title, _ in placed]
    if all(cell is not None for cell in cells):
        return Columns([(c.x0, c.x1, f) for c, (_, f) in zip(cells, placed, strict=True) if c])
    # No cell of its own under each title: the column boundaries are the middles of the gaps
    # between titles (amounts are right-aligned under theirs, text starts under its title).
    edges = [float("-inf")]
    for (left, _), (right, _) in itertools.pairwise(placed):
        edges.append((left.x1 + right.x0) / 2)
    edges.append(float("inf"))
    return Columns([(edges[i], edges[i + 1], f) for i, (_, f) in enumerate(placed)])


def _cell_under(title: Cell, fills: list[Fill], titles: list[Cell]) -> Fill | None:
    """The filled cell a title is printed on, if it holds that title alone."""
    middle, y = (title.x0 + title.x1) / 2, title.baseline - 1
    for fill in fills:
        if fill.holds(middle, y):
            others = [t for t in titles if t is not title and fill.holds((t.x0 + t.x1) / 2, y)]
            return None if others else fill
    return None


_PAGE_OF = re.compile(r"^Page (\d+) of (\d+)$")


class TableReader:
    """Reads a layout's pages one at a time (so a job can report progress)."""

    def __init__(self, layout: PdfLayout) -> None:
        self.layout = layout
        self.header = Header()
        self.summary: dict[str, tuple[int, int]] = {}
        self.rows: list[Transaction] = []
        self.amount_fonts: dict[str, list[str]] = {}
        self.overlays: list[dict[str, Any]] = []
        self.page_labels: dict[int, tuple[int, int]] = {}  # page -> "Page n of N" printed
        self._in_summary = False
        self._parse_time = _time_parser(layout.time_formats)
        self.bank = bank_pdf.BankTable(self.header) if layout is BANK else None

    def read(self, page: Page) -> None:
        self.overlays.extend(page.overlays)
        if self.bank is not None:
            self.bank.read(page)
            return
        columns: Columns | None = None
        skip = False
        for index, line in enumerate(page.lines):
            if skip:
                skip = False
                continue
            joined = " ".join(c.text for c in line)
            if page.number == 1:
                self._header_field(joined)
            if m := _PAGE_OF.match(joined):
                self.page_labels[page.number] = (int(m.group(1)), int(m.group(2)))
                continue
            if self.layout.summary_title and joined == self.layout.summary_title:
                self._in_summary = True
                continue
            if self.layout.table_title and joined == self.layout.table_title:
                self._in_summary = False
                continue
            if self.layout.table_end and self.layout.table_end.match(joined):
                columns = None
                continue
            found = _columns(self.layout, line, page.fills)
            if found is None and index + 1 < len(page.lines):
                below = page.lines[index + 1]
                if below and below[0].baseline - line[0].baseline < 12:
                    found = _columns(self.layout, line, page.fills, below)
                    skip = found is not None
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
            # "TOTAL:" (2023/24) and "TOTAL" (2022) name the same row
            self.summary[line[0].text.rstrip(": ").upper()] = (paid_in, paid_out)

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
