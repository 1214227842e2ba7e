"""A PDF statement as its reader sees it: the file's facts (metadata, incremental saves),
then per page the visible text as lines of cells, and the drawing evidence of edits (text
covered by a shape or by other text, white text)."""

from __future__ import annotations

import io
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pdfplumber
import pypdf
from pdfminer.layout import LTChar, LTContainer, LTImage, LTRect
from pypdf.errors import PdfReadError

from hakiki.engines.statements.model import PdfFacts, Refused

_PREV = re.compile(rb"/Prev\s+(\d+)")
_SUBSET = re.compile(r"^[A-Z]{6}\+")
# Characters overlapping by more than this share of the smaller box sit on one another.
OVERLAP = 0.5
SCAN_PAGES = 3  # pages looked at for text before a PDF is called image-only


@dataclass
class Cell:
    x0: float
    x1: float
    text: str
    fonts: set[str] = field(default_factory=set)


@dataclass
class Page:
    number: int
    lines: list[list[Cell]]
    overlays: list[dict[str, Any]]
    chars: int
    images: int


def _date(value: Any) -> datetime | None:
    return value if isinstance(value, datetime) else None


def facts_of(data: bytes, password: str | None) -> PdfFacts:
    """Open the file (its password checked) and read what it says about itself."""
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
        if encrypted:
            if not password:
                raise Refused(
                    "password_required",
                    "password: the PDF is locked; send its password (M-Pesa statements: the "
                    "customer's ID number).",
                    "password",
                )
            if reader.decrypt(password) == pypdf.PasswordType.NOT_DECRYPTED:
                raise Refused(
                    "wrong_password", "password: wrong password for this PDF.", "password"
                )
        info = reader.metadata
        pages = len(reader.pages)
    except Refused:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as error:
        raise Refused("unreadable", f"file: not a readable PDF ({error}).") from None
    prevs = [int(m.group(1)) for m in _PREV.finditer(data)]
    return PdfFacts(
        producer=str(info.producer) if info and info.producer else None,
        creator=str(info.creator) if info and info.creator else None,
        created=_date(info.creation_date) if info else None,
        modified=_date(info.modification_date) if info else None,
        eof_markers=data.count(b"%%EOF"),
        prev_offsets=prevs,
        linearized=b"/Linearized" in data[:4096],
        encrypted=encrypted,
        pages=pages,
    )


def open_pdf(data: bytes, password: str | None) -> Any:
    try:
        return pdfplumber.open(io.BytesIO(data), password=password or "")
    except Exception as error:  # pdfminer raises many kinds on a broken file
        raise Refused("unreadable", f"file: not a readable PDF ({type(error).__name__}).") from None


def _walk(container: LTContainer, out: list[Any]) -> None:
    for item in container:
        if isinstance(item, (LTChar, LTRect, LTImage)):
            out.append(item)
        elif isinstance(item, LTContainer):
            _walk(item, out)


def _white(char: LTChar) -> bool:
    color = getattr(char.graphicstate, "ncolor", None)
    if isinstance(color, (int, float)):
        color = (color,)
    if not isinstance(color, tuple) or not color:
        return False
    if len(color) == 4:  # CMYK: white is no ink
        return all(float(c) <= 0.02 for c in color)
    return all(float(c) >= 0.98 for c in color)


def _overlap(a: Any, b: Any) -> float:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.y1, b.y1) - max(a.y0, b.y0)
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0)) or 1.0
    return (width * height) / smaller


def _font(char: LTChar) -> str:
    return _SUBSET.sub("", char.fontname)


def read_page(number: int, layout: LTContainer, height: float) -> Page:
    """The visible characters as lines of cells, and the evidence of hidden ones."""
    items: list[Any] = []
    _walk(layout, items)
    chars: list[tuple[int, LTChar]] = []
    shapes: list[tuple[int, LTRect]] = []
    images = 0
    for index, item in enumerate(items):
        if isinstance(item, LTChar):
            chars.append((index, item))
        elif isinstance(item, LTRect):
            if item.fill and item.width > 2 and item.height > 2:
                shapes.append((index, item))
        else:
            images += 1
    hidden: set[int] = set()
    overlays: list[dict[str, Any]] = []
    grid: dict[tuple[int, int], list[tuple[int, LTChar]]] = defaultdict(list)
    for index, char in chars:
        text = char.get_text()
        if not text.strip():
            continue
        if _white(char):
            hidden.add(index)
            overlays.append(_evidence(number, "white text", char, height))
            continue
        key = (int(char.x0 // 6), int(char.y0 // 6))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for earlier_index, earlier in grid.get((key[0] + dx, key[1] + dy), ()):
                    if earlier_index in hidden or earlier.get_text() == text:
                        continue
                    if _overlap(earlier, char) > OVERLAP:
                        hidden.add(earlier_index)
                        overlays.append(
                            _evidence(number, "text drawn over other text", earlier, height)
                        )
        grid[key].append((index, char))
    for shape_index, shape in shapes:
        for index, char in chars:
            if index < shape_index and index not in hidden and char.get_text().strip():
                if _overlap(char, shape) > 0.6:
                    hidden.add(index)
                    overlays.append(_evidence(number, "text covered by a drawn shape", char, height))
    visible = [c for i, c in chars if i not in hidden]
    return Page(number, _lines(visible, height), overlays, len(chars), images)


def _evidence(page: int, how: str, char: LTChar, height: float) -> dict[str, Any]:
    return {
        "page": page,
        "how": how,
        "x": round(char.x0, 1),
        "y": round(height - char.y1, 1),
    }


def _lines(chars: list[LTChar], height: float) -> list[list[Cell]]:
    rows: dict[int, list[LTChar]] = defaultdict(list)
    for char in chars:
        rows[round((height - char.matrix[5]) / 2)].append(char)
    lines: list[list[Cell]] = []
    for key in sorted(rows):
        line = sorted(rows[key], key=lambda c: c.x0)
        cells: list[Cell] = []
        last: LTChar | None = None
        for char in line:
            gap_limit = max(1.0, 0.3 * char.size)
            if last is None or char.x0 - last.x1 > gap_limit:
                cells.append(Cell(char.x0, char.x1, "", set()))
            cell = cells[-1]
            cell.text += char.get_text()
            cell.x1 = char.x1
            if char.get_text().strip():
                cell.fonts.add(_font(char))
            last = char
        for cell in cells:
            cell.text = cell.text.strip()
        lines.append([c for c in cells if c.text])
    return [line for line in lines if line]


def pages(pdf: Any, first: int = 0, last: int | None = None) -> Iterator[Page]:
    for number, page in enumerate(pdf.pages[first:last], start=first + 1):
        try:
            yield read_page(number, page.layout, float(page.height))
        finally:
            page.close()


def image_only(pdf: Any) -> bool:
    """No text on the first pages, only pictures: a scan or a photograph of a statement."""
    looked = list(pages(pdf, 0, SCAN_PAGES))
    return sum(p.chars for p in looked) == 0
