"""Statements generated with reportlab in the layouts the engine reads (M-Pesa full statement,
Airtel Money), genuine and doctored in each way a fraudster does it."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

import pypdf
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from tests.statements import mpesa_look

MPESA_PRODUCER = mpesa_look.OPENPDF.producer
MPESA_CREATOR = mpesa_look.OPENPDF.creator
AIRTEL_PRODUCER = "Qt 4.8.7"
NAME, PHONE, ID_NUMBER = "JANE WANJIKU MWANGI", "0722000111", "23456789"
FONT, BOLD = "Helvetica", "Helvetica-Bold"
SIZE, LEADING = 7, 10.5


@dataclass
class Row:
    receipt: str
    time: datetime
    details: str
    status: str
    paid_in: int  # minor units
    withdrawn: int
    balance: int


@dataclass
class Doctoring:
    """Edits drawn into the file as it is generated (as an editor would leave them)."""

    amount_font: dict[str, str] = field(default_factory=dict)  # receipt -> font of its amounts
    covered: dict[str, str] = field(default_factory=dict)  # receipt -> balance drawn over a box
    overdrawn: dict[str, str] = field(default_factory=dict)  # receipt -> balance drawn on top
    summary_extra: int = 0  # added to the summary's total paid in
    white: dict[str, str] = field(default_factory=dict)  # receipt -> text drawn white on white
    pale: bool = False  # the white text drawn on a pale grey box (as invisible as on white)


def money(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100:,}.{abs(minor) % 100:02d}"


PEOPLE = ["JOHN KAMAU", "MARY ATIENO", "PETER OTIENO", "GRACE NJERI", "ALI HASSAN", "RUTH CHEBET"]
SHOPS = ["NAIVAS SUPERMARKET", "QUICKMART", "CARREFOUR", "JAVA HOUSE"]


def mpesa_rows(
    count: int = 120,
    months: int = 3,
    seed: int = 7,
    start: date = date(2024, 1, 1),
    quirks: bool = False,
) -> list[Row]:
    """Chronological rows whose balances follow, with a monthly salary, transfers, bills,
    airtime, a little betting and a mobile loan; transfer charges share their receipt.
    ``quirks``: as real statements also have, payments beyond the balance paid by Fuliza
    (an "OverDraft of Credit Party" credit, the payment and its charge in one second) and
    Cancelled rows (amounts listed, balance unchanged, counted in the summary's TOTAL)."""
    rng = random.Random(seed)
    span = months * 30 * 24 * 3600
    moments = sorted(
        datetime(start.year, start.month, start.day) + timedelta(seconds=rng.randrange(span))
        for _ in range(count)
    )
    for month in range(months):
        payday = datetime(start.year, start.month, 25, 9, 0, 0) + timedelta(days=30 * month)
        moments.append(payday)
    moments.sort()
    balance = 0 if quirks else 1_500_00
    rows: list[Row] = []
    for moment in moments:
        receipt = "S" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(9))
        if moment.hour == 9 and moment.minute == 0 and moment.second == 0:
            details, paid_in, out = "Salary Payment from 555555 - ACME LIMITED", 65_000_00, 0
        else:
            pick = rng.random()
            person = rng.choice(PEOPLE)
            if pick < 0.25:
                details = f"Funds received from 0722****{rng.randrange(100, 999)} - {person}"
                paid_in, out = rng.randrange(200, 5000) * 100, 0
            elif pick < 0.30:
                details, paid_in, out = "Business Payment from 303030 - Tala via API", 3_000_00, 0
            elif pick < 0.55:
                details = f"Customer Transfer to 0733****{rng.randrange(100, 999)} - {person}"
                paid_in, out = 0, rng.randrange(100, 3000) * 100
            elif pick < 0.65:
                details = "Pay Bill Online to 888880 - KPLC PREPAID Acc. 14253647"
                paid_in, out = 0, rng.randrange(5, 30) * 100_0
            elif pick < 0.80:
                details = f"Merchant Payment Online to 123456 - {rng.choice(SHOPS)}"
                paid_in, out = 0, rng.randrange(100, 4000) * 100
            elif pick < 0.88:
                details, paid_in, out = "Airtime Purchase", 0, rng.choice([50, 100, 200]) * 100
            elif pick < 0.93:
                details = "Pay Bill Online to 290290 - SportPesa Acc. 0722000111"
                paid_in, out = 0, rng.choice([50, 100, 200]) * 100
            elif pick < 0.96:
                details = "Pay Bill Online to 851900 - Tala Acc. 0722000111"
                paid_in, out = 0, 1_000_00
            else:
                details = "Customer Withdrawal At Agent Till 54321 - MAMA MBOGA AGENCIES"
                paid_in, out = 0, rng.randrange(5, 50) * 100_0
        if quirks and details.startswith("Pay Bill") and (out > balance or rng.random() < 0.3):
            rows += _fuliza(receipt, moment, details, max(out, balance + 50_00), balance)
            balance = 0
            continue
        if quirks and pick_cancelled(rng):
            rows.append(Row(receipt, moment, "M-Shwari Withdraw", "Cancelled", out, 0, balance))
            continue
        if out > balance:
            details = (
                f"Funds received from 0722****{rng.randrange(100, 999)} - {rng.choice(PEOPLE)}"
            )
            paid_in, out = rng.randrange(1000, 5000) * 100, 0
        balance += paid_in - out
        rows.append(Row(receipt, moment, details, "Completed", paid_in, out, balance))
        if details.startswith("Customer Transfer to") and balance >= 1_300:
            balance -= 13_00
            charge = moment + timedelta(seconds=1)
            rows.append(
                Row(
                    receipt,
                    charge,
                    "Customer Transfer of Funds Charge",
                    "Completed",
                    0,
                    13_00,
                    balance,
                )
            )
    return rows


def pick_cancelled(rng: random.Random) -> bool:
    return rng.random() < 0.02


def _fuliza(receipt: str, moment: datetime, details: str, out: int, balance: int) -> list[Row]:
    """A Pay Bill beyond the balance, as Safaricom records it in one second: the overdraft
    credit, the payment, the charge (chronological; printed out of order)."""
    charge = 1_00
    credit = out + charge - balance
    fuliza = details.replace("Pay Bill Online to", "Pay Bill Fuliza M-Pesa to")
    return [
        Row(receipt, moment, "OverDraft of Credit Party", "Completed", credit, 0, balance + credit),
        Row(receipt, moment, fuliza, "Completed", 0, out, balance + credit - out),
        Row(receipt, moment, "Pay Bill Charge", "Completed", 0, charge, 0),
    ]


def _summary(rows: list[Row]) -> list[tuple[str, int, int]]:
    kinds: dict[str, list[int]] = {}
    for row in rows:
        text = row.details
        kind = (
            "RECEIVED MONEY"
            if text.startswith("Funds received")
            else "SEND MONEY"
            if text.startswith("Customer Transfer")
            else "LIPA NA M-PESA (PAYBILL)"
            if text.startswith("Pay Bill")
            else "LIPA NA M-PESA (BUY GOODS)"
            if text.startswith("Merchant")
            else "AGENT WITHDRAWAL"
            if "Withdrawal" in text
            else "OTHERS"
        )
        totals = kinds.setdefault(kind, [0, 0])
        totals[0] += row.paid_in
        totals[1] += row.withdrawn
    order = (
        "SEND MONEY",
        "RECEIVED MONEY",
        "AGENT DEPOSIT",
        "AGENT WITHDRAWAL",
        "LIPA NA M-PESA (PAYBILL)",
        "LIPA NA M-PESA (BUY GOODS)",
        "OTHERS",
    )
    listed = [(k, *kinds.get(k, [0, 0])) for k in order]
    listed.append(("TOTAL", sum(r.paid_in for r in rows), sum(r.withdrawn for r in rows)))
    return listed


class _Writer:
    def __init__(self, canvas: Canvas, doctoring: Doctoring) -> None:
        self.c = canvas
        self.doctoring = doctoring
        self.y = A4[1] - 40

    def text(
        self, x: float, text: str, font: str = FONT, size: float = SIZE, right: bool = False
    ) -> None:
        self.c.setFont(font, size)
        (self.c.drawRightString if right else self.c.drawString)(x, self.y, text)

    def newline(self, by: float = LEADING) -> None:
        self.y -= by

    def room(self, lines: int, title: list[tuple[float, str, bool]]) -> None:
        if self.y - lines * LEADING < 40:
            self.c.showPage()
            self.y = A4[1] - 40
            self.header_row(title)

    def header_row(self, title: list[tuple[float, str, bool]]) -> None:
        self.c.setFillGray(0.85)
        self.c.rect(25, self.y - 3, A4[0] - 50, LEADING, stroke=0, fill=1)
        self.c.setFillGray(0)
        for x, label, right in title:
            self.text(x, label, BOLD, right=right)
        self.newline()


def _wrap(text: str, width: int = 48) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def mpesa_pdf(
    rows: list[Row],
    *,
    name: str = NAME,
    phone: str = PHONE,
    password: str | None = None,
    producer: str | None = None,
    creator: str | None = None,
    doctoring: Doctoring | None = None,
    compress: bool = True,
    era: str = "openpdf",
) -> bytes:
    """An M-Pesa full statement as Safaricom's generator of ``era`` draws it ("openpdf":
    2023/24, "itext": 2022; tests/statements/mpesa_look.py holds their measured facts)."""
    return mpesa_look.statement(
        rows,
        era=mpesa_look.ERAS[era],
        name=name,
        phone=phone,
        password=password,
        producer=producer,
        creator=creator,
        doctoring=doctoring or Doctoring(),
        compress=compress,
        summary=_summary,
    )


AIRTEL_COLUMNS = [
    (30, "Transaction ID", False),
    (95, "Transaction Date", False),
    (170, "Description", False),
    (380, "Status", False),
    (465, "Credit", True),
    (515, "Debit", True),
    (568, "Balance", True),
]


def airtel_pdf(
    rows: list[Row],
    *,
    producer: str = AIRTEL_PRODUCER,
    name: str = NAME,
    phone: str = "256701000111",
) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=1)
    canvas.setProducer(producer)
    canvas.setCreator("Airtel Money")
    w = _Writer(canvas, Doctoring())
    w.text(30, "AIRTEL MONEY STATEMENT", BOLD, 14)
    w.newline(20)
    first, last = rows[0].time.date(), rows[-1].time.date()
    for label, value in (
        ("Customer Name:", name),
        ("Msisdn:", phone),
        ("Period:", f"{first:%d-%m-%Y} to {last:%d-%m-%Y}"),
    ):
        w.text(30, label, BOLD)
        w.text(110, value)
        w.newline()
    w.newline()
    w.header_row(AIRTEL_COLUMNS)
    for index, row in enumerate(rows):  # oldest first
        w.room(1, AIRTEL_COLUMNS)
        w.text(30, f"{98_000_000_00 + index}")
        w.text(95, f"{row.time:%d-%m-%Y %H:%M}")
        w.text(170, _wrap(row.details, 50)[0])
        w.text(380, "Success")
        if row.paid_in:
            w.text(465, money(row.paid_in), right=True)
        if row.withdrawn:
            w.text(515, money(row.withdrawn), right=True)
        w.text(568, money(row.balance), right=True)
        w.newline()
    canvas.save()
    return out.getvalue()


def scanned_pdf() -> bytes:
    """A statement photographed: one page that is only a picture."""
    picture = Image.new("RGB", (600, 800), "white")
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=1)
    canvas.drawImage(ImageReader(io.BytesIO(buffer.getvalue())), 20, 20, 555, 800)
    canvas.save()
    return out.getvalue()


def incremental_edit(data: bytes, old: str, new: str) -> bytes:
    """Change an amount in a page's content and save incrementally (the original bytes kept,
    the edit appended with a second %%EOF and /Prev), as PDF editors do."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    writer = pypdf.PdfWriter(reader, incremental=True)
    for page in writer.pages:
        content = page.get_contents()
        if content is None:
            continue
        raw = content.get_data()
        needle = f"({old})".encode()
        if needle in raw:
            content.set_data(raw.replace(needle, f"({new})".encode(), 1))
            page.replace_contents(content)
            break
    else:
        raise AssertionError(f"{old} not found")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def resaved(
    data: bytes,
    producer: str,
    *,
    creator: str | None = None,
    modified: str | None = None,
    password: str | None = None,
) -> bytes:
    """The whole file written again by another program (``creator``: kept as given, else the
    producer's name; ``modified``: a PDF date for ModDate). A locked file is opened with its
    password and written unlocked, as password-removal tools do."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    if password:
        reader.decrypt(password)
    writer = pypdf.PdfWriter(clone_from=reader)
    info = {"/Producer": producer, "/Creator": creator or producer}
    if modified:
        info["/ModDate"] = modified
    writer.add_metadata(info)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def painted_over(data: bytes, old: str, new: str, *, incremental: bool = False) -> bytes:
    """What an applicant does in a PDF editor: a white box drawn over an amount and the new
    amount typed on it (in the editor's font), the file saved whole (or, ``incremental``, the
    edit appended to the original bytes)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(data)
    try:
        for index in range(len(document)):
            page = document[index]
            found = page.get_textpage().search(old, match_whole_word=True).get_next()
            if found:
                box = page.get_textpage().get_charbox(found[0])
                end = page.get_textpage().get_charbox(found[0] + found[1] - 1)
                width, height = page.get_width(), page.get_height()
                break
        else:
            raise AssertionError(f"{old} not found")
    finally:
        document.close()
    left, bottom, right = box[0], box[1], end[2]
    overlay = io.BytesIO()
    canvas = Canvas(overlay, pagesize=(width, height), invariant=1)
    canvas.setFillGray(1)
    canvas.rect(left - 1, bottom - 1.5, right - left + 2, 7, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.setFont("Helvetica", 6)
    canvas.drawRightString(right, bottom, new)
    canvas.save()
    reader = pypdf.PdfReader(io.BytesIO(data))
    writer = (
        pypdf.PdfWriter(reader, incremental=True)
        if incremental
        else pypdf.PdfWriter(clone_from=reader)
    )
    writer.pages[index].merge_page(pypdf.PdfReader(overlay).pages[0])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def page_removed(data: bytes, page: int) -> bytes:
    """The statement with one page (1-based) taken out, the rest saved whole."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(data)))
    writer.remove_page(page - 1)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def with_duplicate(rows: list[Row]) -> list[Row]:
    """A credit listed twice (income inflated); balances after it follow the new total."""
    index = next(i for i, r in enumerate(rows) if r.details.startswith("Funds received"))
    copy = replace(rows[index], time=rows[index].time + timedelta(minutes=5))
    out = [*rows[: index + 1], copy]
    shift = copy.paid_in
    copy.balance += shift
    out += [replace(r, balance=r.balance + shift) for r in rows[index + 1 :]]
    return out
