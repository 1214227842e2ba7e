"""M-Pesa full statements drawn as Safaricom's two generators draw them: the 2023/24 OpenPDF
one and the 2022 iText one. Every number below was measured on genuine statements (see
docs/benchmarks.md#m-pesa-pdf-generators; bench/real_statements.py compares them with a real
file when one is at hand). What reportlab cannot reproduce is listed in ``NOT_REPRODUCED``."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

if TYPE_CHECKING:
    from tests.statements.documents import Doctoring, Row

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@dataclass(frozen=True)
class Era:
    name: str
    page: tuple[float, float]
    producer: str
    creator: str
    author: str
    green: tuple[int, int, int]
    font: str  # the body font (a TrueType font is embedded as a subset when at hand)
    bold: str
    labels: tuple[str, ...]  # the header's labels, top to bottom
    label_x: float
    value_x: float
    label_size: float
    value_size: float
    value_lift: float  # points the value's baseline sits above its label's
    edges: tuple[float, ...]  # the detailed table's cell edges, left to right
    title_height: float  # the green title cells' height
    title_size: float
    title_base: float  # the titles' baseline below their cells' top
    wrapped_status: bool  # "Transaction" above "Status"
    total_label: str
    text_x: tuple[float, float, float, float]  # receipt, time, details, status
    inset: float  # amounts end this far left of their cell's right edge
    details_width: float
    table_top: float  # the first page's title cells' top, from the page's top
    modified_after: int  # seconds between CreationDate and ModDate
    encryption: int  # 128: RC4-128, 256: AES-256
    disclaimer: str
    colon: bool  # labels end with ":"


OPENPDF = Era(
    name="openpdf",
    page=(595, 848),
    producer="OpenPDF 1.3.26",
    creator="Safaricom PLC",
    author="Safaricom PLC",
    green=(67, 176, 42),
    font="DejaVuSans",
    bold="DejaVuSans",
    labels=(
        "Customer Name",
        "Mobile Number",
        "Email Address",
        "Statement Period",
        "Request Date",
    ),
    label_x=38.5,
    value_x=195.3,
    label_size=7,
    value_size=6,
    value_lift=1.0,
    edges=(36.0, 105.7, 175.5, 280.1, 349.8, 419.5, 489.3, 559.0),
    title_height=11,
    title_size=7,
    title_base=9,
    wrapped_status=False,
    total_label="TOTAL:",
    text_x=(38.6, 108.2, 177.8, 282.4),
    inset=2.2,  # measured 2.4 on the real file: glyph ink bounds differ by 0.2
    details_width=99,
    table_top=337,
    modified_after=5,
    encryption=128,
    disclaimer=(
        "Disclaimer: Any personal information shared with you should be handled in accordance "
        "with the Data Protection Act"
    ),
    colon=True,
)

ITEXT = Era(
    name="itext",
    page=(595, 842),
    producer="iText\u00ae 5.1.0 \u00a92000-2011 1T3XT BVBA",
    creator="M-PESA statement service",  # the real Creator names people: not reproduced
    author="Safaricom Ltd",
    green=(108, 179, 63),
    font="Helvetica",
    bold="Helvetica-Bold",
    labels=(
        "Customer Name",
        "Mobile Number",
        "Email Address",
        "Date of Statement",
        "Statement Period",
    ),
    label_x=38.3,
    value_x=116.7,
    label_size=6,
    value_size=6,
    value_lift=0.0,
    edges=(36.0, 88.3, 192.9, 349.8, 402.1, 454.4, 506.7, 559.0),
    title_height=16,
    title_size=6,
    title_base=8,
    wrapped_status=True,
    total_label="TOTAL",
    text_x=(38.2, 90.5, 195.2, 352.1),
    inset=2.0,  # measured 2.2 on the real file: glyph ink bounds differ by 0.2
    details_width=145,
    table_top=314,
    modified_after=0,
    encryption=256,
    disclaimer=(
        "Disclaimer: This record is produced for your personal use and is not transferable."
    ),
    colon=False,
)

ERAS = {era.name: era for era in (OPENPDF, ITEXT)}

# Facts of the real files this generator does not reproduce (reportlab's limits or privacy).
NOT_REPRODUCED = (
    "header %PDF-1.5 with catalog /Version 1.7 (OpenPDF): reportlab writes %PDF-1.4",
    "FuturaBT-Medium for the verification code (not free to embed): Helvetica-Bold is used",
    "the producer of the trailer's /ID and object layout of OpenPDF and iText",
    "the 2022 Creator (the generator's authors' names): a neutral text is written",
    "the QR code and logo images",
)

COLUMNS = (
    "Receipt No.",
    "Completion Time",
    "Details",
    "Transaction Status",
    "Paid In",
    "Withdrawn",
    "Balance",
)


class _Info(pdfdoc.PDFInfo):  # type: ignore[misc]
    """The Info dictionary with the generator's dates: ModDate ``seconds`` after CreationDate
    (East Africa Time, as Safaricom stamps them)."""

    def __init__(self, created: datetime, seconds: int) -> None:
        super().__init__()
        self.created, self.seconds = created, seconds

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        stamp = "D:%Y%m%d%H%M%S+03'00'"
        modified = self.created + timedelta(seconds=self.seconds)
        info = {
            "Title": pdfdoc.PDFString(self.title),
            "Author": pdfdoc.PDFString(self.author),
            "CreationDate": pdfdoc.PDFString(self.created.strftime(stamp)),
            "ModDate": pdfdoc.PDFString(modified.strftime(stamp)),
            "Producer": pdfdoc.PDFString(self.producer),
            "Creator": pdfdoc.PDFString(self.creator),
            "Subject": pdfdoc.PDFString(self.subject),
            "Keywords": pdfdoc.PDFString(self.keywords),
        }
        return pdfdoc.PDFDictionary(info).format(document)  # type: ignore[no-any-return]


def body_font(era: Era) -> str:
    """The font the body is set in: DejaVuSans where the machine has it, else Helvetica."""
    return _font(era)


def _money(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100:,}.{abs(minor) % 100:02d}"


def _font(era: Era) -> str:
    if era.font != "DejaVuSans":
        return era.font
    if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
        if not DEJAVU.exists():
            return "Helvetica"
        from reportlab.pdfbase.ttfonts import TTFont

        pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
    return "DejaVuSans"


def _wrap(text: str, width: float, font: str, size: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and pdfmetrics.stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line]


def printed_order(rows: list[Row]) -> list[Row]:
    """Newest first, as Safaricom prints; within one completion second the overdraft credit
    ("OverDraft of Credit Party") comes first, so the rows of that second are out of order."""
    out: list[Row] = []
    newest = list(reversed(rows))
    index = 0
    while index < len(newest):
        end = index + 1
        while end < len(newest) and newest[end].time == newest[index].time:
            end += 1
        group = newest[index:end]
        credit = [r for r in group if r.details.startswith("OverDraft of Credit Party")]
        out += credit + [r for r in group if r not in credit]
        index += len(group)
    return out


class _Draw:
    def __init__(self, canvas: Canvas, era: Era) -> None:
        self.c, self.era, self.font = canvas, era, _font(era)
        self.height = era.page[1]

    def text(
        self,
        x: float,
        top: float,
        text: str,
        size: float,
        *,
        colour: tuple[int, int, int] = (0, 0, 0),
        font: str | None = None,
        align: str = "left",
        mode: int = 0,
    ) -> None:
        """``top``: the baseline, from the page's top."""
        font = font or self.font
        width = pdfmetrics.stringWidth(text, font, size)
        left = x - width if align == "right" else x - width / 2 if align == "centre" else x
        t = self.c.beginText(left, self.height - top)
        t.setFont(font, size)
        t.setTextRenderMode(mode)
        t.setFillColorRGB(*(v / 255 for v in colour))
        t.textOut(text)
        self.c.drawText(t)

    def box(
        self, x0: float, x1: float, top: float, height: float, fill: tuple[int, int, int] | None
    ) -> None:
        if fill is not None:
            self.c.setFillColorRGB(*(v / 255 for v in fill))
            self.c.rect(x0, self.height - top - height, x1 - x0, height, stroke=0, fill=1)
        else:
            self.c.setLineWidth(0.5)
            self.c.setStrokeColorRGB(0, 0, 0)
            self.c.rect(x0, self.height - top - height, x1 - x0, height, stroke=1, fill=0)

    def titles(self, top: float, titles: tuple[str, ...], edges: tuple[float, ...]) -> None:
        era = self.era
        for x0, x1 in itertools.pairwise(edges):
            self.box(x0, x1, top, era.title_height, era.green)
        bold = era.bold if era.bold != "DejaVuSans" else self.font
        for (x0, x1), title in zip(itertools.pairwise(edges), titles, strict=True):
            middle = (x0 + x1) / 2
            if era.wrapped_status and title == "Transaction Status":
                self.text(
                    middle,
                    top + era.title_base,
                    "Transaction",
                    era.title_size,
                    colour=(255,) * 3,
                    font=bold,
                    align="centre",
                )
                self.text(
                    middle,
                    top + era.title_base + 6,
                    "Status",
                    era.title_size,
                    colour=(255,) * 3,
                    font=bold,
                    align="centre",
                )
            else:
                base = top + era.title_base
                self.text(
                    middle,
                    base,
                    title,
                    era.title_size,
                    colour=(255,) * 3,
                    font=bold,
                    align="centre",
                )


def statement(
    rows: list[Row],
    *,
    era: Era,
    name: str,
    phone: str,
    password: str | None,
    producer: str | None,
    creator: str | None,
    doctoring: Doctoring,
    compress: bool,
    summary: Callable[[list[Row]], list[tuple[str, int, int]]],
) -> bytes:
    out = io.BytesIO()
    encrypt = None
    if password and era.encryption == 256:  # reportlab's AES-256 needs pyaes: pypdf locks it
        plain = statement(
            rows,
            era=era,
            name=name,
            phone=phone,
            password=None,
            producer=producer,
            creator=creator,
            doctoring=doctoring,
            compress=compress,
            summary=summary,
        )
        return _aes256(plain, password)
    if password:
        from reportlab.lib.pdfencrypt import StandardEncryption

        encrypt = StandardEncryption(
            password, canPrint=1, canModify=0, canCopy=0, strength=era.encryption
        )
    canvas = Canvas(
        out,
        pagesize=era.page,
        pageCompression=1 if compress else 0,
        encrypt=encrypt,
        invariant=1,
    )
    requested = datetime.combine(rows[-1].time.date() + timedelta(days=1), datetime.min.time())
    canvas._doc.info = _Info(requested.replace(hour=10, minute=28, second=26), era.modified_after)
    canvas.setProducer(producer or era.producer)
    canvas.setCreator(creator or era.creator)
    canvas.setAuthor(era.author)
    canvas.setSubject("M-PESA Statement")
    canvas.setKeywords("M-PESA,Statement")
    first, last = rows[0].time.date(), rows[-1].time.date()
    canvas.setTitle(f"{phone}_{last + timedelta(days=1):%Y%m%d}_{first:%Y%m%d}_{last:%Y%m%d}.pdf")
    draw = _Draw(canvas, era)
    pages = _paginate(draw, printed_order(rows))
    colon = ":" if era.colon else ""
    for number, block in enumerate(pages, start=1):
        draw.text(
            558.7, 43.5, f"Page {number} of {len(pages)}", 5 if era.colon else 6, align="right"
        )
        top = 69.0
        if number == 1:
            draw.text(
                297.5,
                76,
                "M-PESA STATEMENT",
                14 if era.colon else 15,
                colour=era.green,
                font=era.bold if era.bold != "DejaVuSans" else draw.font,
                align="centre",
            )
            values = {
                "Customer Name": name,
                "Mobile Number": phone,
                "Email Address": "",
                "Statement Period": f"{first:%d %b %Y} - {last:%d %b %Y}",
                "Request Date": f"{last + timedelta(days=1):%d %b %Y}",
                "Date of Statement": f"{last + timedelta(days=1):%d %b %Y}",
            }
            label_top = 106.5 if era.colon else 106.0
            for label in era.labels:
                draw.text(
                    era.label_x,
                    label_top,
                    label + colon,
                    era.label_size,
                    colour=era.green,
                    font=era.bold if era.bold != "DejaVuSans" else draw.font,
                )
                if values[label]:
                    draw.text(
                        era.value_x, label_top - era.value_lift, values[label], era.value_size
                    )
                label_top += 17 if era.colon else 10
            _summary_table(draw, summary(rows), doctoring)
            draw.text(
                297.5,
                era.table_top - 5,
                "DETAILED STATEMENT",
                11 if era.colon else 10,
                colour=era.green,
                align="centre",
            )
            top = era.table_top
        draw.titles(top - 9 if number > 1 else top, COLUMNS, era.edges)
        y = (top - 9 if number > 1 else top) + era.title_height
        for row, lines in block:
            _row(draw, y, row, lines, doctoring)
            y += 10 + 6 * (len(lines) - 1)
        draw.text(38.6, 730.5, era.disclaimer, 7 if era.colon else 6)
        if number == len(pages) and era.colon:
            draw.text(46.6, 783, "KZ3FXNRZ", 20, colour=(64, 171, 42), font="Helvetica-Bold")
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def page_count(rows: list[Row], era: Era) -> int:
    """The pages ``rows`` fill in the look of ``era`` (without drawing them)."""
    canvas = Canvas(io.BytesIO(), pagesize=era.page)
    return len(_paginate(_Draw(canvas, era), printed_order(rows)))


def _aes256(data: bytes, password: str) -> bytes:
    import pypdf

    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(data)))
    writer.encrypt(password, algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _paginate(draw: _Draw, printed: list[Row]) -> list[list[tuple[Row, list[str]]]]:
    era = draw.era
    pages: list[list[tuple[Row, list[str]]]] = [[]]
    y = era.table_top + era.title_height
    for row in printed:
        lines = _wrap(row.details, era.details_width, draw.font, 6)
        height = 10 + 6 * (len(lines) - 1)
        if y + height > 712:
            pages.append([])
            y = 60 + era.title_height
        pages[-1].append((row, lines))
        y += height
    return pages


def _summary_table(draw: _Draw, kinds: list[tuple[str, int, int]], doctoring: Doctoring) -> None:
    era = draw.era
    draw.text(
        297.5,
        213.5 if era.colon else 193,
        "SUMMARY",
        11 if era.colon else 10,
        colour=era.green,
        align="centre",
    )
    edges = (36.0, 349.8, 454.4, 559.0)
    top = 218.5 if era.colon else 202
    for x0, x1 in itertools.pairwise(edges):
        draw.box(x0, x1, top, 11 if era.colon else 10, era.green)
    base = top + 9 if era.colon else top + 4
    bold = era.bold if era.bold != "DejaVuSans" else draw.font
    draw.text(38.0, base, "TRANSACTION TYPE", era.title_size, colour=(255,) * 3, font=bold)
    draw.text(402.1, base, "PAID IN", era.title_size, colour=(255,) * 3, font=bold, align="centre")
    draw.text(506.7, base, "PAID OUT", era.title_size, colour=(255,) * 3, font=bold, align="centre")
    for kind, paid_in, paid_out in kinds:
        base += 10
        total = kind == "TOTAL"
        if total:
            paid_in += doctoring.summary_extra
        # the 2022 generator forgot the colon after AGENT DEPOSIT (and TOTAL)
        plain = not era.colon and kind == "AGENT DEPOSIT"
        label = era.total_label if total else kind if plain else f"{kind}:"
        size, mode = (7, 2 if era.colon else 0) if total else (6, 0)
        font = bold if total else draw.font
        draw.text(38.0, base, label, size, font=font, mode=mode)
        draw.text(402.1, base, _money(paid_in), size, font=font, mode=mode, align="centre")
        draw.text(506.7, base, _money(paid_out), size, font=font, mode=mode, align="centre")


def _row(draw: _Draw, top: float, row: Row, lines: list[str], doctoring: Doctoring) -> None:
    era = draw.era
    base = top + 7
    receipt_x, time_x, details_x, status_x = era.text_x
    draw.text(receipt_x, base, row.receipt, 6)
    draw.text(time_x, base, f"{row.time:%Y-%m-%d %H:%M:%S}", 6)
    for index, line in enumerate(lines):
        draw.text(details_x, base + 6 * index, line, 6)
    draw.text(status_x, base, row.status, 6)
    font = doctoring.amount_font.get(row.receipt, draw.font)
    paid_in_x, withdrawn_x, balance_x = (e - era.inset for e in era.edges[5:])
    if row.paid_in:
        draw.text(paid_in_x, base, _money(row.paid_in), 6, font=font, align="right")
    if row.withdrawn:
        draw.text(withdrawn_x, base, _money(-row.withdrawn), 6, font=font, align="right")
    draw.text(balance_x, base, _money(row.balance), 6, font=font, align="right")
    if row.receipt in doctoring.covered:  # a white box over the balance, a new one on it
        draw.c.setFillColorRGB(1, 1, 1)
        draw.c.rect(balance_x - 40, draw.height - base - 2, 41, 8, stroke=0, fill=1)
        draw.text(balance_x, base, doctoring.covered[row.receipt], 6, align="right")
    if row.receipt in doctoring.white:  # for a parser's eyes only
        if doctoring.pale:
            draw.box(status_x + 38, status_x + 72, base - 6, 8, (245, 245, 245))
        draw.text(status_x + 40, base, doctoring.white[row.receipt], 6, colour=(255, 255, 255))
    if row.receipt in doctoring.overdrawn:
        draw.text(balance_x, base, doctoring.overdrawn[row.receipt], 6, align="right")
    height = 10 + 6 * (len(lines) - 1)
    for x0, x1 in zip(era.edges, era.edges[1:], strict=False):
        draw.box(x0, x1, top, height, None)
