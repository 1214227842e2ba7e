"""The facts of an M-Pesa statement's generator, measured on its file: metadata, encryption,
page size, the detailed table's title cells (colour, edges, white titles), where amounts and
receipts sit against them, the header's label/value baselines, the summary's TOTAL label.
Measured the same way on a real statement and on our look-alike, so the two can be compared
(tests/engines/statements/test_real_statements.py, bench/real_statements.py)."""

from __future__ import annotations

import io
import statistics
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from hakiki.engines.statements import pdf_reader
from hakiki.engines.statements.layouts import MPESA
from hakiki.engines.statements.money import to_minor

TITLES = [title for title, _ in MPESA.columns]
AMOUNTS = ("Paid In", "Withdrawn", "Balance")


def metadata(data: bytes, password: str | None) -> dict[str, Any]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    encryption = None
    if reader.is_encrypted:
        reader.decrypt(password or "")
        crypt = reader.trailer["/Encrypt"].get_object()
        encryption = "AES-256" if int(crypt.get("/V", 0)) == 5 else f"RC4-{crypt.get('/Length')}"
    info = reader.metadata or {}
    created, modified = reader.metadata.creation_date, reader.metadata.modification_date
    box = reader.pages[0].mediabox
    return {
        "producer": info.get("/Producer"),
        "creator": info.get("/Creator"),
        "author": info.get("/Author"),
        "subject": info.get("/Subject"),
        "keywords": info.get("/Keywords"),
        "encryption": encryption,
        "page_size": (round(float(box.width)), round(float(box.height))),
        "modified_after_s": int((modified - created).total_seconds()) if created else None,
    }


def _title_colour(page: Any) -> tuple[int, int, int] | None:
    textpage = pdfium_c.FPDFText_LoadPage(page.raw)
    try:
        for item in pdf_reader._objects(page.raw):
            if pdfium_c.FPDFPageObj_GetType(item) != pdf_reader._TEXT:
                continue
            if pdf_reader._text(item, textpage).strip() == "Receipt No.":
                return pdf_reader._fill(item)[:3]
    finally:
        pdfium_c.FPDFText_ClosePage(textpage)
    return None


def layout(data: bytes, password: str | None) -> dict[str, Any]:
    document = pdfium.PdfDocument(data, password=password or None)
    try:
        raw = document[0]
        page = pdf_reader.read_page(1, raw)
        colour = _title_colour(raw)
        raw.close()
    finally:
        document.close()
    lines = page.lines
    at = next(i for i, line in enumerate(lines) if any(c.text == "Receipt No." for c in line))
    row = {c.text: c for c in lines[at]}
    wrapped = "Transaction Status" not in row
    if wrapped:  # "Transaction" above "Status"
        row["Transaction Status"] = row["Transaction"]
    fills = []
    for title in TITLES:
        cell = row[title]
        middle = (cell.x0 + cell.x1) / 2
        fills.append(next(f for f in page.fills if f.holds(middle, cell.baseline - 1)))
    insets: dict[str, list[float]] = {title: [] for title in AMOUNTS}
    receipt_offsets = []
    for line in lines[at + 2 :]:
        for cell in line:
            for title, fill in zip(TITLES, fills, strict=True):
                if fill.x0 <= (cell.x0 + cell.x1) / 2 < fill.x1:
                    if title in AMOUNTS and to_minor(cell.text) is not None:
                        insets[title].append(fill.x1 - cell.x1)
                    if title == "Receipt No." and MPESA.receipt.match(cell.text):
                        receipt_offsets.append(cell.x0 - row[title].x0)
    label = next(c for line in lines for c in line if c.text.startswith("Mobile Number"))
    value = next(c for line in lines for c in line if c.x0 > label.x1 and c.text.strip().isdigit())
    total = next(line[0].text for line in lines if line and line[0].text.startswith("TOTAL"))
    return {
        "title_fill": fills[0].rgb,
        "title_colour": colour,
        "title_edges": [round(f.x0, 1) for f in fills] + [round(fills[-1].x1, 1)],
        "titles_centred": all(
            abs((row[t].x0 + row[t].x1) / 2 - (f.x0 + f.x1) / 2) < 3
            for t, f in zip(TITLES, fills, strict=True)
        ),
        "wrapped_status_title": wrapped,
        "amount_inset": round(statistics.median(v for vs in insets.values() for v in vs), 1),
        "receipts_left_of_title": round(statistics.median(receipt_offsets), 1),
        "label_value_baselines": round(label.baseline - value.baseline, 1),
        "total_label": total,
        "fonts": sorted({f for line in lines for c in line for f in c.fonts}),
        "page_label": any(c.text.startswith("Page 1 of ") for line in lines for c in line),
    }


def facts(data: bytes, password: str | None) -> dict[str, Any]:
    return metadata(data, password) | layout(data, password)
