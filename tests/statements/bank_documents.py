"""Bank statement PDFs generated with reportlab as look-alikes of the ones banks send.

The Nigerian looks reproduce what was measured on the real files of devcenter-square/ng-bank-parser
(producer and creator strings, column titles as printed, titles white on a coloured cell,
titles over three lines, narrations wrapped below or around their row, balance lines, totals,
the locks); the Kenyan ones carry the column words public parsers document for those banks,
and a producer seen on real bank files: no real Kenyan file was at hand (docs/api.md says so)."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from reportlab.lib import pdfencrypt
from reportlab.lib.arciv import ArcIV
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

FONT, BOLD, SIZE = "Helvetica", "Helvetica-Bold", 6.5
PITCH, WRAP = 14.0, 8.0  # points between rows, between the lines of a wrapped narration


@dataclass(frozen=True)
class Col:
    title: tuple[str, ...]  # the title as printed, one entry per line
    x0: float
    x1: float
    field: str  # date, value_date, details, reference, debit, credit, amount, balance
    right: bool = False  # values right-aligned in the cell


@dataclass
class BankRow:
    day: date
    value_day: date
    details: str
    reference: str
    debit: int  # minor units
    credit: int
    balance: int


def plain(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100:,}.{abs(minor) % 100:02d}"


def spaced(minor: int) -> str:
    return plain(minor).replace(",", " ")


def kes(minor: int) -> str:
    return f"KES {plain(minor)}"


def naira(minor: int) -> str:
    return f"\u20a6{plain(minor)}"


def crdr(minor: int) -> str:
    return f"{plain(abs(minor))} {'DR' if minor < 0 else 'CR'}"


def parens(minor: int) -> str:
    return f"({plain(-minor)})" if minor < 0 else plain(minor)


def dotless(minor: int) -> str:
    """UBA prints amounts under one naira without the leading zero: ".50"."""
    text = plain(minor)
    return text[1:] if text.startswith("0.") else text


@dataclass(frozen=True)
class BankLook:
    bank: str
    producer: str
    creator: str | None
    columns: tuple[Col, ...]
    date_format: str = "%d-%b-%y"
    amount: Callable[[int], str] = plain
    balance: Callable[[int], str] = plain
    title_fill: tuple[float, float, float] | None = None  # white titles on this fill
    wrap: str = "below"  # or "around": narration lines centred on the row
    wrap_width: int = 34
    preamble: bool = False  # opening/closing balances and totals above the table
    brought_forward: str | None = None  # a balance line before the first row
    carried_forward: str | None = None  # balance lines at the foot and head of pages
    closing_row: str | None = None
    totals_row: str | None = None  # debits, credits and the new balance in one row
    zero_fill: bool = False  # 0.00 printed in the empty amount column
    newest_first: bool = False
    rows_per_page: int = 28
    overview_page: bool = False  # page 1 an account overview, the table from page 2
    user_password: str | None = None
    owner_password: str | None = None  # "" : an empty owner password (opens without one)
    title: str = "Account Statement"
    footer: str = "Page : {page}"


def rows(count: int = 40, seed: int = 11, start: date = date(2024, 1, 3)) -> list[BankRow]:
    """Chronological rows whose balances follow, with wrapped narrations and references."""
    rng = random.Random(seed)
    balance = 250_000_00
    out: list[BankRow] = []
    day = start
    words = [
        "ATM WITHDRAWAL WESTLANDS BRANCH NAIROBI",
        "MPESA C2B TRANSFER FROM 2547XXXXX123 JOHN KAMAU",
        "SALARY ACME LIMITED JANUARY",
        "POS PURCHASE NAIVAS SUPERMARKET KILIMANI",
        "SMS ALERT CHARGES",
        "RTGS TRANSFER TO GRACE NJERI HOUSING RENT FOR THE MONTH",
        "INTEREST PAID",
        "WITHHOLDING TAX",
    ]
    for index in range(count):
        day += timedelta(days=rng.choice((0, 0, 1, 2)))
        details = rng.choice(words)
        credit = debit = 0
        if details.startswith(("SALARY", "MPESA", "INTEREST")):
            credit = rng.randrange(1_000, 90_000_00)
        else:
            debit = rng.randrange(50, min(balance, 40_000_00))
        balance += credit - debit
        value_day = day - timedelta(days=rng.choice((0, 0, 1)))
        reference = f"FT{24000 + index:05d}{rng.randrange(100, 999)}"
        out.append(BankRow(day, value_day, details, reference, debit, credit, balance))
    return out


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


@contextlib.contextmanager
def _empty_owner_password() -> Iterator[None]:
    """reportlab (like pypdf) takes an empty owner password for "the user's": UBA's files
    have a truly empty one, so the owner key is computed from "" here."""
    original = pdfencrypt.computeO

    def compute(user: str, owner: str, revision: int) -> bytes:
        digest = pdfencrypt.md5(pdfencrypt.PadString[:32]).digest()
        for _ in range(50):
            digest = pdfencrypt.md5(digest).digest()
        value = (pdfencrypt.asBytes(user) + pdfencrypt.PadString)[:32]
        for step in range(20):
            value = ArcIV(pdfencrypt.xorKey(step, digest[:16])).encode(value)
        return value

    pdfencrypt.computeO = compute
    try:
        yield
    finally:
        pdfencrypt.computeO = original


@dataclass
class _Page:
    canvas: Canvas
    look: BankLook
    y: float = 60.0

    def text(self, x: float, y: float, text: str, font: str = FONT, right: bool = False) -> None:
        self.canvas.setFont(font, SIZE)
        draw = self.canvas.drawRightString if right else self.canvas.drawString
        draw(x, A4[1] - y, text)

    def header(self) -> None:
        look = self.look
        depth = max(len(c.title) for c in look.columns)
        top = self.y
        if look.title_fill is not None:
            self.canvas.setFillColorRGB(*look.title_fill)
            bottom = A4[1] - top - 6.0 * (depth - 1) - 3
            for col in look.columns:
                self.canvas.rect(col.x0, bottom, col.x1 - col.x0, 6.0 * (depth - 1) + 11, 0, 1)
            self.canvas.setFillColorRGB(1, 1, 1)
        for col in look.columns:
            for line, words in enumerate(col.title):
                self.text(col.x0 + 1, top + 6.0 * line, words, BOLD)
        self.canvas.setFillColorRGB(0, 0, 0)
        self.y = top + 6.0 * depth + 12


def statement_pdf(
    look: BankLook, listed: list[BankRow] | None = None, compress: bool = True
) -> bytes:
    """The statement as the bank's generator prints it (``compress=False``: page streams
    left readable, for tests that edit the file's bytes as an editor would)."""
    listed = rows() if listed is None else listed
    out = io.BytesIO()
    encrypt = None
    if look.user_password is not None:
        encrypt = pdfencrypt.StandardEncryption(
            look.user_password, look.owner_password or None, strength=128
        )
    canvas = Canvas(
        out, pagesize=A4, encrypt=encrypt, invariant=1, pageCompression=1 if compress else 0
    )
    canvas.setProducer(look.producer)
    if look.creator:
        canvas.setCreator(look.creator)
    opening = listed[0].balance - listed[0].credit + listed[0].debit
    printed = list(reversed(listed)) if look.newest_first else listed
    _draw(canvas, look, printed, opening)
    if look.owner_password == "":
        with _empty_owner_password():
            canvas.save()
    else:
        canvas.save()
    return out.getvalue()


def _draw(canvas: Canvas, look: BankLook, printed: list[BankRow], opening: int) -> None:
    page = _Page(canvas, look)
    number = 1
    page.text(40, 30, look.title, BOLD)
    if look.overview_page:
        page.text(40, 60, "Here is your statement for the period. ACCOUNT OVERVIEW", FONT)
        page.text(40, 72, "AVAILABLE BALANCE", FONT)
        page.text(200, 72, plain(printed[-1].balance), FONT)
        canvas.showPage()
        number += 1
        page = _Page(canvas, look)
    if look.preamble:
        debits = sum(r.debit for r in printed)
        credits = sum(r.credit for r in printed)
        closing = opening + credits - debits
        for line, (label, value) in enumerate(
            (
                ("Opening Balance:", opening),
                ("Closing Balance:", closing),
                ("Total Credit", credits),
                ("Total Debit", debits),
            )
        ):
            page.text(300, 60 + 12 * line, label)
            page.text(540, 60 + 12 * line, plain(value), right=True)
        page.y = 120
    page.header()
    if look.brought_forward:
        _balance_line(page, look.brought_forward, opening)
    balance = opening
    for index, row in enumerate(printed):
        if index and (index % look.rows_per_page == 0 or page.y > 760):
            if look.carried_forward:
                _balance_line(page, look.carried_forward, balance)
            page.text(280, 800, look.footer.format(page=number))
            canvas.showPage()
            number += 1
            page = _Page(canvas, look)
            page.header()
            if look.carried_forward:
                _balance_line(page, look.carried_forward, balance)
        _row(page, row)
        balance = row.balance
    if look.closing_row:
        _balance_line(page, look.closing_row, printed[-1].balance if printed else opening)
    if look.totals_row:
        debits = sum(r.debit for r in printed)
        credits = sum(r.credit for r in printed)
        cells = {"details": look.totals_row, "debit": plain(debits), "credit": plain(credits)}
        cells["balance"] = plain(printed[-1].balance)
        _cells(page, cells, page.y)
        page.y += PITCH
    page.text(280, 800, look.footer.format(page=number))


def _balance_line(page: _Page, words: str, balance: int) -> None:
    cells = {"details": words, "balance": page.look.balance(balance)}
    if page.look.zero_fill:
        cells["debit"] = cells["credit"] = "0.00"
    _cells(page, cells, page.y)
    page.y += PITCH


def _row(page: _Page, row: BankRow) -> None:
    look = page.look
    lines = _wrap(row.details, look.wrap_width)
    above = lines[:1] if look.wrap == "around" and len(lines) > 1 else []
    below = lines[len(above) + 1 :]
    anchor = page.y + WRAP * len(above)
    for offset, words in enumerate(above):
        _cells(page, {"details": words}, page.y + WRAP * offset)
    fmt = look.date_format
    cells = {
        "date": row.day.strftime(fmt),
        "value_date": row.value_day.strftime(fmt),
        "details": lines[len(above)] if lines else "",
        "reference": row.reference,
        "balance": look.balance(row.balance),
    }
    if "amount" in {c.field for c in look.columns}:
        cells["amount"] = look.amount(row.credit - row.debit)
    else:
        if row.debit or look.zero_fill:
            cells["debit"] = look.amount(row.debit)
        if row.credit or look.zero_fill:
            cells["credit"] = look.amount(row.credit)
    _cells(page, cells, anchor)
    for offset, words in enumerate(below, start=1):
        _cells(page, {"details": words}, anchor + WRAP * offset)
    page.y = anchor + WRAP * len(below) + PITCH


def _cells(page: _Page, cells: dict[str, str], y: float) -> None:
    for col in page.look.columns:
        text = cells.get(col.field)
        if not text:
            continue
        if col.right:
            page.text(col.x1 - 2, y, text, right=True)
        else:
            page.text(col.x0 + 1, y, text)


def _cols(*specs: tuple[tuple[str, ...] | str, float, float, str]) -> tuple[Col, ...]:
    return tuple(
        Col(
            (title,) if isinstance(title, str) else title,
            x0,
            x1,
            name,
            right=name in ("debit", "credit", "amount", "balance"),
        )
        for title, x0, x1, name in specs
    )


# -- the looks: Nigerian banks measured on real files -------------------------------------------

UBA = BankLook(
    bank="uba",
    producer="DynamicPDF Generator for Java v3.0.2",
    creator="UBA Account Statement Generator 2.0",
    columns=_cols(
        ("Date", 15, 76, "date"),
        ("Description", 76, 252, "details"),
        ("Chq. No", 252, 312, "reference"),
        ("Val Date", 312, 380, "value_date"),
        ("Debit", 380, 432, "debit"),
        ("Credit", 432, 492, "credit"),
        ("Balance", 492, 563, "balance"),
    ),
    date_format="%d-%m-%Y",
    amount=dotless,
    title_fill=(216 / 255, 33 / 255, 35 / 255),
    brought_forward="Balance B/F",
    totals_row="Total Debit/Total Credit/New Balance",
    user_password="135246",
    owner_password="",
    title="Monthly Account Statement of Transactions",
    footer="All correspondence regarding exceptions should be addressed to the bank.",
)
FIRST_BANK = BankLook(
    bank="firstbank",
    producer="iTextSharp 4.1.2 (based on iText 2.1.2u)",
    creator=None,
    columns=_cols(
        ("TransDate", 50, 107, "date"),
        ("Reference", 107, 163, "reference"),
        ("Transaction Details", 163, 305, "details"),
        ("ValueDate", 305, 361, "value_date"),
        ("Deposit", 361, 418, "credit"),
        ("Withdrawal", 418, 474, "debit"),
        ("Balance", 474, 545, "balance"),
    ),
    title_fill=(0, 0, 1),
    preamble=True,
    brought_forward="Balance B/F",
    user_password="24680",
    owner_password="97531",
)
HERITAGE = BankLook(
    bank="hb",
    producer="iTextSharp 5.1.3 (c) 1T3XT BVBA",
    creator="Heritage Bank",
    columns=_cols(
        ("value date", 28, 99, "value_date"),
        ("reference", 99, 141, "reference"),
        ("narration", 141, 340, "details"),
        ("debit", 340, 390, "debit"),
        ("credit", 420, 478, "credit"),
        ("balance", 500, 568, "balance"),
    ),
    date_format="%d %b %Y",
    zero_fill=True,
    wrap_width=44,
    brought_forward="opening balance",
    carried_forward="balance carried forward",
    closing_row="closing balance",
    rows_per_page=20,
    overview_page=True,
)
ACCESS = BankLook(
    bank="accessbank",
    producer="iText 2.0.6 (by lowagie.com)",
    creator=None,
    columns=_cols(
        (("Transaction", "", "Date"), 24, 84, "date"),
        (("", "Value Date"), 88, 146, "value_date"),
        (("", "Description"), 148, 326, "details"),
        (("Reference", "", "No."), 326, 386, "reference"),
        (("", "Withdrawal"), 386, 459, "debit"),
        (("", "Deposit"), 459, 522, "credit"),
        (("", "Balance"), 522, 574, "balance"),
    ),
    preamble=True,
    wrap="around",
    footer="Copyright(c)2011 Access Bank Page {page}",
)
ECOBANK = BankLook(
    bank="ecobank",
    producer="PD4ML. HTML to PDF Converter for Java (393)",
    creator="PD4ML. HTML to PDF Converter for Java (393)",
    columns=_cols(
        ("Transaction Date", 32, 118, "date"),
        ("Value Date", 120, 191, "value_date"),
        ("Description", 194, 352, "details"),
        ("Reference", 354, 445, "reference"),
        ("Payments", 447, 485, "debit"),
        ("Deposits", 487, 523, "credit"),
        ("Balance", 525, 562, "balance"),
    ),
    date_format="%d-%b-%Y",
    title_fill=(1 / 255, 77 / 255, 109 / 255),
    wrap="around",
)

# -- Kenyan banks: column words from public parsers' profiles, not from real files ---------------

EQUITY = BankLook(
    bank="equity",
    producer="iTextSharp 5.5.13 (c) 1T3XT BVBA",
    creator=None,
    columns=_cols(
        ("Transaction Date", 30, 95, "date"),
        ("Value Date", 95, 150, "value_date"),
        ("Narrative", 150, 330, "details"),
        ("Debit", 330, 400, "debit"),
        ("Credit", 400, 470, "credit"),
        ("Running Balance", 470, 565, "balance"),
    ),
    date_format="%d/%m/%Y",
    amount=kes,
    balance=kes,
)
KCB = BankLook(
    bank="kcb",
    producer="wkhtmltopdf 0.12.5 / Qt 4.8.7",
    creator="wkhtmltopdf 0.12.5",
    columns=_cols(
        ("Txn Date", 30, 85, "date"),
        ("Value Date", 85, 140, "value_date"),
        ("Description", 140, 320, "details"),
        ("Money Out", 320, 400, "debit"),
        ("Money In", 400, 480, "credit"),
        ("Ledger Balance", 480, 565, "balance"),
    ),
    date_format="%d %b %y",
    newest_first=True,
    footer="Page {page} of 9",
)
COOP = BankLook(
    bank="coop",
    producer="iText 2.1.7 by 1T3XT",
    creator=None,
    columns=_cols(
        ("Transaction Date", 30, 92, "date"),
        ("Value Date", 92, 148, "value_date"),
        ("Narration", 148, 300, "details"),
        ("Reference", 300, 365, "reference"),
        ("Debit", 365, 430, "debit"),
        ("Credit", 430, 495, "credit"),
        ("Book Balance", 495, 565, "balance"),
    ),
    date_format="%Y-%m-%d",
    amount=spaced,
    balance=spaced,
)
STANBIC = BankLook(
    bank="stanbic",
    producer="DynamicPDF Generator for .NET v6.0.3",
    creator=None,
    columns=_cols(
        ("Post Date", 30, 85, "date"),
        ("Value Date", 85, 140, "value_date"),
        ("Description", 140, 300, "details"),
        ("Reference", 300, 360, "reference"),
        ("Debits", 360, 430, "debit"),
        ("Credits", 430, 495, "credit"),
        ("Balance", 495, 565, "balance"),
    ),
    date_format="%d-%b-%Y",
    balance=crdr,
    preamble=True,
)
ABSA_KE = BankLook(
    bank="absa_ke",
    producer="PD4ML. HTML to PDF Converter for Java (393)",
    creator=None,
    columns=_cols(
        ("Date", 30, 90, "date"),
        ("Transaction Description", 90, 380, "details"),
        ("Amount", 380, 470, "amount"),
        ("Balance", 470, 565, "balance"),
    ),
    date_format="%d/%m/%Y",
    amount=parens,
)

NIGERIAN = (UBA, FIRST_BANK, HERITAGE, ACCESS, ECOBANK)
KENYAN = (EQUITY, KCB, COOP, STANBIC, ABSA_KE)
LOOKS = {look.bank: look for look in (*NIGERIAN, *KENYAN)}


def overdrawn(listed: list[BankRow]) -> list[BankRow]:
    """The same rows on an account that starts overdrawn (negative balances throughout)."""
    shift = -(max(r.balance for r in listed) + 1_000_00)
    return [replace(r, balance=r.balance + shift) for r in listed]


@dataclass
class Doctored:
    """A statement as an applicant edits it: one amount changed, balances kept."""

    rows: list[BankRow] = field(default_factory=rows)

    def amount_raised(self, index: int, by: int) -> list[BankRow]:
        edited = list(self.rows)
        row = edited[index]
        if row.credit:
            edited[index] = replace(row, credit=row.credit + by)
        else:
            edited[index] = replace(row, debit=max(row.debit - by, 1))
        return edited
