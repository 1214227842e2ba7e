"""Bank statements as PDFs, read without a layout per bank.

The header row is found by its words (date, value date, narration, debit, credit, balance and
their synonyms), each cell of the rows under it goes to a column by geometry (text by where it
starts, amounts by the title they sit under), narrations wrapped over several lines go to the
row printed nearest, and the reading must then prove itself: every balance follows from the
one before and the row's amounts. A reading whose balances do not chain is refused
(``unproven_reading``), never reported: a column taken for another would chain nowhere."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from hakiki.engines.statements import dates
from hakiki.engines.statements.model import Header, Refused, Transaction
from hakiki.engines.statements.money import show
from hakiki.engines.statements.pdf_reader import Cell, Page

# Column titles as printed by the banks we measured (docs/api.md#bank-statement-pdfs), keyed
# without case, spaces, punctuation or a bracketed currency ("Balance (KES)" is "balance").
TITLES: dict[str, tuple[str, ...]] = {
    "date": (
        "date",
        "transdate",
        "transactiondate",
        "trandate",
        "txndate",
        "postingdate",
        "postdate",
        "posteddate",
        "dateposted",
        "bookingdate",
        "entrydate",
        "trxdate",
    ),
    "value_date": ("valuedate", "valdate", "valuedt", "effectivedate"),
    "details": (
        "narration",
        "narrative",
        "narrations",
        "description",
        "descriptions",
        "transactiondescription",
        "particulars",
        "transactionparticulars",
        "details",
        "transactiondetails",
        "remarks",
        "remark",
        "memo",
    ),
    "reference": (
        "reference",
        "referenceno",
        "referencenumber",
        "ref",
        "refno",
        "chqno",
        "chequeno",
        "chequenumber",
        "chqrefno",
        "chqref",
        "instrumentno",
        "transactionid",
        "transactionref",
        "transactionreference",
        "customerreference",
        "bankreference",
        "docno",
        "receiptno",
    ),
    "debit": (
        "debit",
        "debits",
        "debitamount",
        "withdrawal",
        "withdrawals",
        "withdrawn",
        "moneyout",
        "paidout",
        "payments",
        "payment",
        "amountout",
        "dr",
    ),
    "credit": (
        "credit",
        "credits",
        "creditamount",
        "deposit",
        "deposits",
        "lodgement",
        "lodgements",
        "lodgment",
        "moneyin",
        "paidin",
        "receipts",
        "amountin",
        "cr",
    ),
    "amount": ("amount", "transactionamount"),
    "balance": (
        "balance",
        "runningbalance",
        "bookbalance",
        "ledgerbalance",
        "availablebalance",
        "closingbalance",
    ),
}
FIELD_OF_TITLE = {key: name for name, keys in TITLES.items() for key in keys}
DATE_FIELDS = ("date", "value_date")
AMOUNT_FIELDS = ("debit", "credit", "amount", "balance")

# Figures a statement states about itself, above its table or in a totals row.
STATED: dict[str, tuple[str, ...]] = {
    "opening": ("openingbalance", "openingbal", "balancebf", "balancebroughtforward"),
    "closing": ("closingbalance", "closingbal", "balancecf", "balancecarriedforward"),
    "credits": (
        "totalcredit",
        "totalcredits",
        "creditturnover",
        "totaldeposits",
        "totallodgements",
        "totalmoneyin",
        "totalpaidin",
    ),
    "debits": (
        "totaldebit",
        "totaldebits",
        "debitturnover",
        "totalwithdrawals",
        "totalmoneyout",
        "totalpaidout",
    ),
}
STATED_OF_LABEL = {key: name for name, keys in STATED.items() for key in keys}

# Rows of the table that are not transactions: balances brought or carried, totals.
_OPENING = re.compile(
    r"opening\s+bal|bal(ance)?\s+b/?f|brought\s+f(orwar)?d|b/fwd|balance\s+forward|"
    r"previous\s+balance|^b/f\b",
    re.I,
)
_CLOSING = re.compile(
    r"closing\s+bal|bal(ance)?\s+c/?f|carried\s+f(orwar)?d|c/fwd|new\s+balance|^c/f\b", re.I
)
_TOTAL = re.compile(r"^\s*(grand\s+)?totals?\b", re.I)
_FOOTER = re.compile(
    r"^\s*page\s*:?\s*\d+(\s*(of|/)\s*\d+)?\s*$|end\s+of\s+statement|^\W*page\s+\d+\s+of\s+\d+",
    re.I,
)
_AMOUNT = re.compile(
    r"^(?P<open>[(\-\u2212])?\s*(?:(?:NGN|KES|KSHS?|UGX|TZS|USD|GHS|ZAR|GBP|EUR)\.?|[\u20a6$\u00a3\u20ac])?"
    r"\s*(?P<minus>[-\u2212])?\s*(?P<whole>\d{1,3}(?:[,\s\u00a0\u202f]\d{3})+|\d*)\.(?P<cents>\d{2})"
    r"\s*(?P<close>\))?\s*(?P<side>CR|DR|C|D|-)?$",
    re.I,
)
TITLE_SLACK = 6.0  # points a left-aligned value may start left of its title
HEADER_GAP = 9.0  # points between the lines of a title printed over two or three lines
HEADER_TRIES = 4  # lines of title words tried a page (a page of nothing else is no table)
WRAP_GAP = 12.0  # points a wrapped narration line may lie from its row
MAX_BROKEN = 0.1  # share of links a proven reading may break (each is a balance_break signal)


@dataclass(frozen=True)
class Money:
    minor: int  # signed: negative for "-", "(...)" or a DR suffix
    side: str | None  # "cr", "dr" or None when the text does not say


def money(text: str) -> Money | None:
    """A bank amount: 1,234.56, 1 234.56, .50, (20.00), -5.00, 5.00-, KES 5.00, ₦5.00,
    5.00 CR / DR. Two decimals are required: a bare number is a reference, not money."""
    match = _AMOUNT.match(text.strip())
    if match is None or not (match.group("whole") or match.group("cents")):
        return None
    digits = re.sub(r"\D", "", match.group("whole") or "0")
    value = int(digits or "0") * 100 + int(match.group("cents"))
    suffix = (match.group("side") or "").upper()
    side = "cr" if suffix.startswith("C") else "dr" if suffix.startswith("D") else None
    negative = bool(match.group("open") or match.group("minus")) or suffix in ("D", "DR", "-")
    return Money(-value if negative else value, side)


def title_key(text: str) -> str:
    lowered = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text.lower())
    lowered = re.sub(r"\b(ngn|kes|kshs?|ugx|tzs|usd|ghs|zar|gbp|eur)\b", " ", lowered)
    return re.sub(r"[^a-z]", "", lowered)


@dataclass
class Column:
    field: str | None  # None: a title we do not read (S/N, Branch, ...)
    x0: float
    x1: float
    title: str


def _is_data(cell: Cell) -> bool:
    return money(cell.text) is not None or dates.looks_like_date(cell.text)


@dataclass
class Columns:
    columns: list[Column]  # left to right

    @property
    def fields(self) -> set[str]:
        return {c.field for c in self.columns if c.field}

    def field_of(self, cell: Cell) -> str | None:
        amounts = [c for c in self.columns if c.field in AMOUNT_FIELDS]
        if money(cell.text) is not None and cell.x1 >= min(c.x0 for c in amounts) - 30:
            # Right-aligned, an amount ends inside its column: after its title starts and
            # before the next title does, whether the title is left-aligned, centred or not.
            under = [c for c in self.columns if c.x0 <= cell.x1 - 1]
            if under and under[-1].field in AMOUNT_FIELDS:
                return under[-1].field
            return min(amounts, key=lambda c: _distance(cell, c)).field
        is_date = dates.looks_like_date(cell.text)
        texts = [
            c
            for c in self.columns
            if c.field not in AMOUNT_FIELDS and (is_date or c.field not in DATE_FIELDS)
        ]
        if not texts:
            return None
        started = [c for c in texts if c.x0 <= cell.x0 + TITLE_SLACK]
        return (max(started, key=lambda c: c.x0) if started else texts[0]).field

    def describe(self) -> str:
        return ", ".join(f"{c.title!r} as {c.field}" for c in self.columns if c.field)


def _distance(cell: Cell, column: Column) -> tuple[float, float, float]:
    """How far an amount lies from a title: the gap between them (0 when they overlap), then
    the overlap (more is nearer), then how far their right edges are apart."""
    gap = max(column.x0 - cell.x1, cell.x0 - column.x1, 0.0)
    overlap = min(cell.x1, column.x1) - max(cell.x0, column.x0)
    return gap, -overlap, abs(cell.x1 - column.x1)


def _complete(fields: Iterable[str | None]) -> bool:
    found = {f for f in fields if f}
    dated = bool(found & set(DATE_FIELDS))
    amounts = {"debit", "credit"} <= found or "amount" in found
    return dated and "balance" in found and amounts


def find_header(lines: list[list[Cell]]) -> tuple[Columns, int] | None:
    """The table's column titles on a page and the index of their last line: a line naming a
    date, debit and credit (or an amount) and a balance, completed by the lines just above and
    below it that carry the rest of titles printed over two or three lines."""
    tries = 0
    for index, line in enumerate(lines):
        if sum(1 for c in line if title_key(c.text) in FIELD_OF_TITLE) < 3:
            continue
        tries += 1
        if tries > HEADER_TRIES:
            return None
        titles = [Column(None, c.x0, c.x1, c.text) for c in line]
        last = index
        for other in (index - 1, index + 1, index - 2, index + 2):
            if not 0 <= other < len(lines) or not lines[other]:
                continue
            gap = abs(lines[other][0].baseline - line[0].baseline)
            near = gap <= HEADER_GAP * abs(other - index)
            if near and not any(_is_data(c) for c in lines[other]):
                _merge_titles(titles, lines[other], above=other < index)
                last = max(last, other)
        for title in titles:
            title.field = FIELD_OF_TITLE.get(title_key(title.title))
        _name_twice_once(titles)
        if _complete(c.field for c in titles):
            return Columns(sorted(titles, key=lambda c: c.x0)), last
    return None


def _merge_titles(titles: list[Column], line: list[Cell], above: bool) -> None:
    for cell in line:
        over = [t for t in titles if min(t.x1, cell.x1) - max(t.x0, cell.x0) > 0]
        if not over:
            titles.append(Column(None, cell.x0, cell.x1, cell.text))
            continue
        title = over[0]
        title.title = f"{cell.text} {title.title}" if above else f"{title.title} {cell.text}"
        title.x0, title.x1 = min(title.x0, cell.x0), max(title.x1, cell.x1)


def _name_twice_once(titles: list[Column]) -> None:
    seen: set[str] = set()
    for title in sorted(titles, key=lambda c: c.x0):
        if title.field in seen:
            title.field = None
        elif title.field:
            seen.add(title.field)


_ACCOUNT = re.compile(r"\baccount\s*(no\b|number|name|type|overview|summary|statement)", re.I)


def looks_like_statement(page: Page) -> bool:
    """Page 1 of a bank statement: its table's header, or the words of a bank account's
    statement (Heritage Bank's page 1 is an overview, the table starts on page 2)."""
    if find_header(page.lines) is not None:
        return True
    text = " ".join(c.text for line in page.lines for c in line)
    return all(
        pattern.search(text)
        for pattern in (_ACCOUNT, re.compile(r"statement", re.I), re.compile(r"balance", re.I))
    )


@dataclass
class _Row:
    page: int
    y: float
    cells: dict[str, list[Cell]]
    kind: str  # row, opening, closing, total, checkpoint
    wrapped: list[tuple[float, str]] = field(default_factory=list)

    def text(self, name: str) -> str:
        return " ".join(c.text for c in self.cells.get(name, []))

    def amount(self, name: str) -> Money | None:
        cells = self.cells.get(name, [])
        return money(cells[0].text) if cells else None

    def details(self) -> str:
        parts = sorted([*self.wrapped, (self.y, self.text("details"))])
        return " ".join(text for _, text in parts if text)


@dataclass
class _Link:
    page: int
    expected: int
    printed: int


class BankTable:
    """Reads a bank statement's pages one at a time, then proves the reading."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.columns: Columns | None = None
        self.rows: list[_Row] = []  # transactions and balance lines, as printed
        self.stated: dict[str, int] = {}
        self.summary: dict[str, tuple[int, int]] = {}
        self.amount_fonts: dict[str, list[str]] = {}
        self.newest_first = False

    def read(self, page: Page) -> None:
        found = find_header(page.lines)
        start = 0
        if found is not None:
            self.columns, last = found
            self._stated(page.lines[: last + 1])
            start = last + 1
        elif self.columns is None:
            self._stated(page.lines)
            return
        self._table(page, page.lines[start:])

    def _stated(self, lines: list[list[Cell]]) -> None:
        cells = [c for line in lines for c in line]
        tried: set[str] = set()  # each label once a page: the cells are scanned for its value
        for label in cells:
            name = STATED_OF_LABEL.get(title_key(label.text))
            if name is None or name in self.stated or name in tried:
                continue
            tried.add(name)
            values = [
                c
                for c in cells
                if c.x0 > label.x1
                and abs(c.baseline - label.baseline) <= 3
                and money(c.text) is not None
            ]
            if values:
                found = money(min(values, key=lambda c: c.x0).text)
                if found is not None:
                    self.stated[name] = found.minor

    def _table(self, page: Page, lines: list[list[Cell]]) -> None:
        columns = self.columns
        assert columns is not None
        anchors: list[_Row] = []
        wraps: list[tuple[float, str]] = []
        for line in lines:
            joined = " ".join(c.text for c in line)
            if _FOOTER.search(joined):
                continue
            cells: dict[str, list[Cell]] = {}
            for cell in (part for printed in line for part in _amounts_apart(printed)):
                name = columns.field_of(cell)
                if name is not None:
                    cells.setdefault(name, []).append(cell)
            if any(name in cells for name in AMOUNT_FIELDS):
                row = _Row(page.number, line[0].baseline, cells, "row")
                row.kind = _kind(row)
                anchors.append(row)
            elif cells and set(cells) == {"details"} and len(cells["details"]) == len(line):
                wraps.append((line[0].baseline, joined))
        _attach(anchors, wraps)
        self.rows.extend(anchors)

    def transactions(self) -> list[Transaction]:
        """The rows oldest first, once their balances prove the reading; else refused."""
        columns = self.columns
        if columns is None:
            raise Refused(
                "unsupported_layout",
                "file: no transaction table found: no row of column titles naming a date, "
                "debit and credit (or amount) and balance.",
            )
        rows = [r for r in self.rows if r.kind == "row"]
        if not rows:
            raise Refused("no_transactions", "file: no transactions found in the statement.")
        date_field = "date" if "date" in columns.fields else "value_date"
        title = next(c.title for c in columns.columns if c.field == date_field)
        column = dates.infer([r.text(date_field) for r in rows if r.text(date_field)], title)
        read: list[Transaction] = []
        moment = None
        for number, row in enumerate(rows, start=1):
            text = row.text(date_field)
            if text or moment is None:
                moment = column.read(text)
                if moment is None:
                    held = f"holds '{text[:20]}'" if text else "is empty"
                    raise Refused(
                        "unsupported_layout",
                        f"file: page {row.page}: the '{title}' column {held} where the date "
                        "of a row with amounts belongs.",
                    )
            read.append(self._transaction(row, number, moment))
        self._prove(read, columns)
        return list(reversed(read)) if self.newest_first else read

    def _transaction(self, row: _Row, number: int, moment: datetime) -> Transaction:
        paid_in, withdrawn = _amounts(row)
        balance = row.amount("balance")
        receipt = row.text("reference").strip(" '") or f"row-{number}"
        for name in AMOUNT_FIELDS:
            for cell in row.cells.get(name, [])[:1]:
                for font in cell.fonts:
                    self.amount_fonts.setdefault(font, []).append(receipt)
        return Transaction(
            receipt=receipt,
            time=moment,
            details=row.details(),
            status="",
            paid_in=paid_in,
            withdrawn=withdrawn,
            balance=balance.minor if balance else None,
            page=row.page,
        )

    def _prove(self, read: list[Transaction], columns: Columns) -> None:
        printed = self._events(read)
        forward, backward = _chain(printed), _chain(list(reversed(printed)))
        if not any(forward + backward):  # one row: chained to the balances stated above
            forward = _chain(self._stated_ends(printed))
        self.newest_first = len(backward[0]) > len(forward[0])
        held, broken = backward if self.newest_first else forward
        links = len(held) + len(broken)
        if held and len(broken) <= MAX_BROKEN * links:
            if "credits" in self.stated and "debits" in self.stated:
                self.summary["TOTAL"] = (abs(self.stated["credits"]), abs(self.stated["debits"]))
            return
        if not links:
            reason = "no two balances to chain"
        else:
            first = broken[0]
            reason = (
                f"{len(broken)} of {links} balances do not follow from the one before and "
                f"the row's amounts (e.g. page {first.page}: {show(first.expected)} expected, "
                f"{show(first.printed)} printed)"
            )
        raise Refused(
            "unproven_reading",
            f"file: the statement's columns ({columns.describe()}) were read but the reading "
            f"does not prove itself: {reason}. The layout is not one we read with certainty; "
            "send the statement as CSV or XLSX if the bank offers it.",
        )

    def _events(self, read: list[Transaction]) -> list[_Event]:
        """(page, signed amount, balance printed) in print order, balance lines included."""
        events: list[_Event] = []
        transactions = iter(read)
        for row in self.rows:
            if row.kind == "row":
                t = next(transactions)
                events.append(_Event(t.page, t.paid_in - t.withdrawn, t.balance))
                continue
            if row.kind == "total":
                debit, credit = row.amount("debit"), row.amount("credit")
                if debit and credit:
                    self.stated.setdefault("debits", abs(debit.minor))
                    self.stated.setdefault("credits", abs(credit.minor))
            balance = row.amount("balance")
            if balance is not None:
                events.append(_Event(row.page, 0, balance.minor))
        return events

    def _stated_ends(self, events: list[_Event]) -> list[_Event]:
        """The events between the opening and closing balances stated above the table. Only
        where the rows give no link: a bank may state them rounded (Access Bank's opening
        balance is a kobo off its first row), so they prove less than the rows do."""
        opening = self.stated.get("opening")
        closing = self.stated.get("closing")
        return (
            ([_Event(1, 0, opening)] if opening is not None else [])
            + events
            + ([_Event(1, 0, closing)] if closing is not None else [])
        )


@dataclass(frozen=True)
class _Event:
    page: int
    amount: int  # signed: paid in minus withdrawn
    balance: int | None


_JOINED = re.compile(r"(?<=\.\d\d)(?:\s+|(?=[\d(\-\u2212]))")


def _amounts_apart(cell: Cell) -> list[Cell]:
    """Two amounts printed so close that they came as one cell ("77,776.83 2,009,081.28",
    even "44,111.1512,613,526.05": an amount has two decimals), split where each ends, each
    with its share of the cell's width."""
    if "." not in cell.text or money(cell.text) is not None:
        return [cell]
    parts = [part for part in _JOINED.split(cell.text) if part]
    if len(parts) < 2 or any(money(part) is None for part in parts):
        return [cell]
    width = (cell.x1 - cell.x0) / max(len(cell.text), 1)
    split: list[Cell] = []
    start = 0
    for part in parts:
        start = cell.text.index(part, start)
        end = start + len(part)
        x0, x1 = cell.x0 + start * width, cell.x0 + end * width
        split.append(Cell(x0, x1, part, set(cell.fonts), cell.baseline))
        start = end
    return split


def _attach(anchors: list[_Row], wraps: list[tuple[float, str]]) -> None:
    """Gives each wrapped narration line to its row: the lines between two rows are split
    where they lie furthest apart (a bank prints a narration below its row, or centred on
    it), and a line further than WRAP_GAP from the lines of any row (a footer) to none."""
    rows = sorted(anchors, key=lambda r: r.y)
    lines = sorted(wraps)
    heights = [y for y, _ in lines]
    for index in range(len(rows) + 1):
        before = rows[index - 1] if index else None
        after = rows[index] if index < len(rows) else None
        low = bisect_right(heights, before.y) if before else 0
        high = bisect_left(heights, after.y) if after else len(lines)
        between = lines[low:high]
        up, down = _split(
            before.y if before else None, [y for y, _ in between], after.y if after else None
        )
        if before is not None:
            before.wrapped.extend(between[:up])
        if after is not None and down:
            after.wrapped.extend(between[len(between) - down :])


def _split(before: float | None, ys: list[float], after: float | None) -> tuple[int, int]:
    """How many of the lines ``ys`` (top to bottom) go to the row above, how many to the row
    below: each side takes the lines chained to it by gaps of at most WRAP_GAP; where both
    could take a line, the widest gap decides (a tie to the row above)."""
    count = len(ys)
    up, last = 0, before
    while up < count and last is not None and ys[up] - last <= WRAP_GAP:
        last, up = ys[up], up + 1
    down, last = 0, after
    while down < count and last is not None and last - ys[count - 1 - down] <= WRAP_GAP:
        last, down = ys[count - 1 - down], down + 1
    if up + down <= count or before is None or after is None:
        return up, down
    edges = [before, *ys, after]
    split = max(range(count + 1), key=lambda i: (edges[i + 1] - edges[i], i))
    return split, count - split


def _kind(row: _Row) -> str:
    details = row.text("details")
    moved = [row.amount(name) for name in ("debit", "credit", "amount")]
    moves = any(m is not None and m.minor != 0 for m in moved)
    if _TOTAL.search(details):
        return "total"
    if not moves and _OPENING.search(details):
        return "opening"
    if not moves and _CLOSING.search(details):
        return "closing"
    if not moves and not row.text("date") and not row.text("value_date"):
        return "checkpoint"  # a balance printed on its own line
    return "row"


def _amounts(row: _Row) -> tuple[int, int]:
    """(paid in, withdrawn) of a row: from its debit and credit columns, or from one amount
    column by its sign or its CR/DR suffix."""
    debit, credit, amount = row.amount("debit"), row.amount("credit"), row.amount("amount")
    if debit is not None or credit is not None:
        return (abs(credit.minor) if credit else 0, abs(debit.minor) if debit else 0)
    if amount is None:
        return 0, 0
    outgoing = amount.side == "dr" or (amount.side is None and amount.minor < 0)
    return (0, abs(amount.minor)) if outgoing else (abs(amount.minor), 0)


def _chain(events: list[_Event]) -> tuple[list[_Link], list[_Link]]:
    """The links that hold and those that break, reading the events in the order given: each
    balance printed is the one before plus the amounts since."""
    held: list[_Link] = []
    broken: list[_Link] = []
    previous: int | None = None
    moved = 0
    for event in events:
        moved += event.amount
        if event.balance is None:
            continue
        if previous is not None:
            link = _Link(event.page, previous + moved, event.balance)
            (held if link.expected == link.printed else broken).append(link)
        previous, moved = event.balance, 0
    return held, broken
