"""A PDF statement as its reader sees it: the file's facts (metadata, incremental saves),
then per page the visible text as lines of cells, and the drawing evidence of edits (text
covered by a shape or by other text, white text)."""

from __future__ import annotations

import ctypes
import io
import re
import threading
import zlib
from collections import defaultdict
from collections.abc import Generator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from hakiki.engines.statements.model import PdfFacts, Refused
from hakiki.engines.statements.money import to_minor

_PREV = re.compile(rb"/Prev\s+(\d+)")
_SIZE = re.compile(rb"/Size\s+(\d+)")
_INDEX = re.compile(rb"/Index\s*\[([\d\s]*)\]")
_SUBSET = re.compile(r"^[A-Z]{6}\+")
# Characters overlapping by more than this share of the smaller box sit on one another.
OVERLAP = 0.5
# White text shows on a fill whose mean channel is below this (Safaricom's greens: 95, 117).
DARK_ENOUGH = 200
SCAN_PAGES = 3  # pages looked at for text before a PDF is called image-only
MAX_PAGES = 2000
# What the file's compressed streams may inflate to, together: a PDF bomb (a small file whose
# streams inflate to gigabytes) is refused before PDFium decodes a page.
MAX_INFLATED = 400 * 1024 * 1024
# Objects a cross-reference section may declare: a 2,000-page statement has tens of thousands.
# pypdf walks every declared entry, about 40 us each (8 s at the limit): an xref stream of 117
# bytes claiming 10^8 kept it busy for hours, a warning logged per entry.
MAX_OBJECTS = 200_000
_STREAM = re.compile(rb"stream\r?\n")


@dataclass
class Cell:
    x0: float
    x1: float
    text: str
    fonts: set[str] = field(default_factory=set)
    baseline: float = 0.0  # from the top of the page


@dataclass(frozen=True)
class Fill:
    """A filled, coloured (not white) rectangle: a table's title cell, a band, a box."""

    x0: float
    x1: float
    y0: float  # from the top of the page
    y1: float
    rgb: tuple[int, int, int]

    def holds(self, x: float, y: float) -> bool:
        return self.x0 - 0.5 <= x <= self.x1 + 0.5 and self.y0 - 0.5 <= y <= self.y1 + 0.5


@dataclass
class Page:
    number: int
    lines: list[list[Cell]]
    overlays: list[dict[str, Any]]
    chars: int
    images: int
    fills: list[Fill] = field(default_factory=list)


# PDFium is not thread-safe (pypdfium2's documentation): two analyses in two worker threads
# crashed the process (a segfault in FPDF_LoadPage). Every use of it, from opening a document
# to closing it and its pages, holds this lock. The service reads each file in a process of
# its own (hakiki.statements.confined), so the lock is never shared by two organisations.
PDFIUM_LOCK = threading.Lock()


def declared_objects(data: bytes) -> int:
    """The most entries any cross-reference section of the file declares (``/Size``, or the
    counts of an xref stream's ``/Index``)."""
    sizes = [int(m.group(1)) for m in _SIZE.finditer(data)]
    for match in _INDEX.finditer(data):
        numbers = [int(n) for n in match.group(1).split()]
        sizes.append(sum(numbers[1::2]))
    return max(sizes, default=0)


def facts_of(data: bytes, password: str | None) -> PdfFacts:
    """Open the file (its password checked) and read what it says about itself."""
    import pypdf  # a tenth of a second of CPU: imported by the first statement, not at start

    from hakiki.engines.statements import unlock  # imports pypdf

    objects = declared_objects(data)
    if objects > MAX_OBJECTS:
        raise Refused(
            "too_large", f"file: declares {objects:,} objects, over the {MAX_OBJECTS:,} limit."
        )
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
        if encrypted:
            if not password and not unlock.opens_without_password(reader):
                raise Refused(
                    "password_required",
                    "password: the PDF is locked; send its password (M-Pesa statements: the "
                    "customer's ID number).",
                    "password",
                )
            if password and reader.decrypt(password) == pypdf.PasswordType.NOT_DECRYPTED:
                raise Refused(
                    "wrong_password", "password: wrong password for this PDF.", "password"
                )
        info = reader.metadata
        pages = len(reader.pages)
        producer, creator = _text_of(info, "/Producer"), _text_of(info, "/Creator")
        created, modified = _date(info, "creation_date"), _date(info, "modification_date")
        active = active_content(reader)
    except Refused:
        raise
    except Exception as error:
        # pypdf meets a broken file with whatever its code trips on (NotImplementedError for
        # an unknown /Encrypt filter, AttributeError for a /Root that is not a dictionary,
        # ValueError for a bad date...): all of them say the same to the sender.
        raise Refused("unreadable", f"file: not a readable PDF ({error}).") from None
    if pages > MAX_PAGES:
        raise Refused("too_large", f"file: {pages:,} pages, over the {MAX_PAGES:,}-page limit.")
    if not encrypted and inflated_size(data, MAX_INFLATED) > MAX_INFLATED:
        raise Refused(
            "too_large",
            f"file: its streams inflate to more than {MAX_INFLATED // 2**20} MB; refused.",
        )
    prevs = [int(m.group(1)) for m in _PREV.finditer(data)]
    return PdfFacts(
        producer=producer,
        creator=creator,
        author=_text_of(info, "/Author"),
        created=created,
        modified=modified,
        eof_markers=data.count(b"%%EOF"),
        prev_offsets=prevs,
        linearized=b"/Linearized" in data[:4096],
        encrypted=encrypted,
        pages=pages,
        active_content=active,
    )


def _text_of(info: Any, key: str) -> str | None:
    value = info.get(key) if info else None
    return str(value) if value else None


def _date(info: Any, attribute: str) -> datetime | None:
    """A metadata date, or None when it is missing or not a date (a broken date is not a
    reason to refuse the file)."""
    try:
        value = getattr(info, attribute) if info else None
    except (ValueError, TypeError, AttributeError):
        return None
    return value if isinstance(value, datetime) else None


def active_content(reader: Any) -> list[str]:
    """What the file carries beyond a statement's text and drawings: ``javascript`` (a script
    in the document's names or in an open, page or annotation action) and
    ``embedded_file`` (an attachment or a file attachment annotation)."""
    found: set[str] = set()
    root = reader.trailer["/Root"].get_object()
    names = _dict(root.get("/Names"))
    if "/JavaScript" in names:
        found.add("javascript")
    if "/EmbeddedFiles" in names:
        found.add("embedded_file")
    actions = [root.get("/OpenAction"), root.get("/AA")]
    for page in reader.pages:
        actions.append(page.get("/AA"))
        annotations = page.get("/Annots")
        annotations = annotations.get_object() if annotations is not None else None
        for annotation in annotations if isinstance(annotations, list) else ():
            annotation = _dict(annotation)
            if annotation.get("/Subtype") == "/FileAttachment":
                found.add("embedded_file")
            actions += [annotation.get("/A"), annotation.get("/AA")]
    if any(_has_script(action) for action in actions):
        found.add("javascript")
    return sorted(found)


def _dict(value: Any) -> Any:
    value = value.get_object() if value is not None else None
    return value if hasattr(value, "keys") else {}


def _has_script(action: Any, depth: int = 0) -> bool:
    """Whether an action, or one it holds (an /AA's triggers, /Next), runs JavaScript; three
    levels deep, so a cycle of references ends."""
    action = _dict(action)
    if action.get("/S") == "/JavaScript" or "/JS" in action:
        return True
    return depth < 3 and any(
        _has_script(action[key], depth + 1) for key in action if key != "/Parent"
    )


def inflated_size(data: bytes, cap: int) -> int:
    """The inflated size of the file's Flate streams, counted up to ``cap`` (output is
    discarded as it comes; streams that are not zlib data are skipped)."""
    view = memoryview(data)
    total = 0
    for match in _STREAM.finditer(data):
        inflater = zlib.decompressobj()
        pending: bytes | memoryview = view[match.end() : match.end() + 1024 * 1024]
        offset = match.end() + len(pending)
        try:
            while pending and not inflater.eof:
                total += len(inflater.decompress(pending, 1024 * 1024))
                if total > cap:
                    return total
                pending = inflater.unconsumed_tail
                if not pending and not inflater.eof and offset < len(data):
                    pending = view[offset : offset + 1024 * 1024]
                    offset += len(pending)
        except zlib.error:
            continue
    return total


def open_pdf(data: bytes, password: str | None) -> Any:
    try:
        return pdfium.PdfDocument(data, password=password or None)
    except pdfium.PdfiumError as error:
        from hakiki.engines.statements import unlock  # imports pypdf: not at start

        if not password and (recovered := unlock.user_password(data)) is not None:
            return open_pdf(data, recovered)
        raise Refused("unreadable", f"file: not a readable PDF ({error}).") from None


@dataclass
class _Run:
    """One text-showing operation: its text, box, baseline, font and paint order."""

    order: int
    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    baseline: float
    size: float
    font: str


_TEXT, _PATH, _IMAGE, _FORM = 1, 2, 3, 5
_INVISIBLE = 3  # text render mode: neither filled nor stroked


def _objects(page: Any) -> list[Any]:
    found: list[Any] = []

    def walk(count: int, get: Any) -> None:
        for index in range(count):
            item = get(index)
            if pdfium_c.FPDFPageObj_GetType(item) == _FORM:
                walk(
                    pdfium_c.FPDFFormObj_CountObjects(item),
                    lambda i, form=item: pdfium_c.FPDFFormObj_GetObject(form, i),
                )
            else:
                found.append(item)

    walk(pdfium_c.FPDFPage_CountObjects(page), lambda i: pdfium_c.FPDFPage_GetObject(page, i))
    return found


def _bounds(item: Any) -> tuple[float, float, float, float]:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    pdfium_c.FPDFPageObj_GetBounds(item, left, bottom, right, top)
    return left.value, bottom.value, right.value, top.value


def _fill(item: Any) -> tuple[int, int, int, int]:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    pdfium_c.FPDFPageObj_GetFillColor(item, r, g, b, a)
    return r.value, g.value, b.value, a.value


_FONT_NAMES: dict[int, str] = {}


def _font_name(item: Any) -> str:
    font = pdfium_c.FPDFTextObj_GetFont(item)
    key = ctypes.cast(font, ctypes.c_void_p).value or 0
    if key not in _FONT_NAMES:
        buffer = ctypes.create_string_buffer(256)
        size = pdfium_c.FPDFFont_GetBaseFontName(font, buffer, 256)
        _FONT_NAMES[key] = _SUBSET.sub("", buffer.raw[: max(size - 1, 0)].decode("latin-1"))
    return _FONT_NAMES[key]


def _text(item: Any, textpage: Any) -> str:
    size = pdfium_c.FPDFTextObj_GetText(item, textpage, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFTextObj_GetText(
        item, textpage, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), size
    )
    return buffer.raw[: size - 2].decode("utf-16-le", "replace")


def read_page(number: int, page: Any) -> Page:
    """The visible text runs as lines of cells, and the evidence of hidden ones."""
    height = float(page.get_height())
    textpage = pdfium_c.FPDFText_LoadPage(page.raw)
    _FONT_NAMES.clear()  # font handles belong to the page
    runs: list[_Run] = []
    shapes: list[tuple[int, tuple[float, float, float, float]]] = []
    fills: list[tuple[int, Fill]] = []
    whites: list[_Run] = []
    overlays: list[dict[str, Any]] = []
    images = 0
    try:
        for order, item in enumerate(_objects(page.raw)):
            kind = pdfium_c.FPDFPageObj_GetType(item)
            if kind == _IMAGE:
                images += 1
            elif kind == _PATH:
                fill, stroke = ctypes.c_int(), ctypes.c_int()
                pdfium_c.FPDFPath_GetDrawMode(item, fill, stroke)
                box = _bounds(item)
                if fill.value and box[2] - box[0] > 2 and box[3] - box[1] > 2:
                    shapes.append((order, box))
                    red, green, blue, alpha = _fill(item)
                    if alpha and min(red, green, blue) < 250:
                        left, bottom, right, top = box
                        colour = (red, green, blue)
                        fills.append(
                            (order, Fill(left, right, height - top, height - bottom, colour))
                        )
            elif kind == _TEXT:
                text = _text(item, textpage).strip()
                if not text:
                    continue
                x0, y0, x1, y1 = _bounds(item)
                matrix = pdfium_c.FS_MATRIX()
                pdfium_c.FPDFPageObj_GetMatrix(item, matrix)
                size = ctypes.c_float()
                pdfium_c.FPDFTextObj_GetFontSize(item, size)
                run = _Run(
                    order,
                    text,
                    x0,
                    x1,
                    height - y1,
                    height - y0,
                    height - matrix.f,
                    size.value * abs(matrix.d or 1),
                    _font_name(item),
                )
                red, green, blue, alpha = _fill(item)
                mode = pdfium_c.FPDFTextObj_GetTextRenderMode(item)
                if mode == _INVISIBLE or alpha == 0:
                    overlays.append(_evidence(number, "invisible text", run))
                    continue
                if min(red, green, blue) >= 250:
                    whites.append(run)
                    continue
                runs.append(run)
    finally:
        pdfium_c.FPDFText_ClosePage(textpage)
    runs.extend(_on_a_fill(number, whites, fills, overlays))
    hidden = _hidden(number, runs, shapes, height, overlays)
    visible = [r for r in runs if r.order not in hidden]
    return Page(number, _lines(visible), overlays, len(runs), images, [f for _, f in fills])


def _on_a_fill(
    number: int, whites: list[_Run], fills: list[tuple[int, Fill]], overlays: list[dict[str, Any]]
) -> list[_Run]:
    """White text is real where it sits on a dark enough shape painted before it (a table's
    title on its green cell); anywhere else, on white or on a pale tint, it is text nobody is
    meant to see."""
    shown: list[_Run] = []
    dark = [(order, f) for order, f in fills if sum(f.rgb) / 3 < DARK_ENOUGH]
    for run in whites:
        middle_x, middle_y = (run.x0 + run.x1) / 2, (run.y0 + run.y1) / 2
        if any(order < run.order and f.holds(middle_x, middle_y) for order, f in dark):
            shown.append(run)
        else:
            overlays.append(_evidence(number, "white text", run))
    return shown


def _hidden(
    number: int,
    runs: list[_Run],
    shapes: list[tuple[int, tuple[float, float, float, float]]],
    height: float,
    overlays: list[dict[str, Any]],
) -> set[int]:
    """Runs painted over later: by another run with other text, or by a filled shape."""
    hidden: set[int] = set()
    for order, (left, bottom, right, top) in shapes:
        box = _Box(left, right, height - top, height - bottom)
        for run in runs:
            if run.order < order and run.order not in hidden and _overlap(run, box) > 0.6:
                hidden.add(run.order)
                on_top = next((r for r in runs if r.order > order and _overlap(r, box) > 0.6), None)
                overlays.append(_evidence(number, "text covered by a drawn shape", run, on_top))
    grid: dict[tuple[int, int], list[_Run]] = defaultdict(list)
    for run in runs:
        key = (int(run.x0 // 40), int(run.y0 // 6))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for earlier in grid.get((key[0] + dx, key[1] + dy), ()):
                    if earlier.order in hidden or earlier.text == run.text:
                        continue
                    if _overlap(earlier, run) > OVERLAP:
                        hidden.add(earlier.order)
                        overlays.append(
                            _evidence(number, "text drawn over other text", earlier, run)
                        )
        grid[key].append(run)
    return hidden


@dataclass
class _Box:
    x0: float
    x1: float
    y0: float
    y1: float


def _overlap(a: Any, b: Any) -> float:
    """The share of the smaller box that the two boxes have in common (y grows downwards)."""
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.y1, b.y1) - max(a.y0, b.y0)
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0)) or 1.0
    return (width * height) / smaller


def _evidence(page: int, how: str, run: _Run, on_top: _Run | None = None) -> dict[str, Any]:
    """Where, and the two values when both are amounts (other text may be personal)."""
    found = {"page": page, "how": how, "x": round(run.x0, 1), "y": round(run.y0, 1)}
    if on_top is not None and to_minor(run.text) is not None and to_minor(on_top.text) is not None:
        found |= {"hidden": run.text, "shown": on_top.text}
    return found


def _lines(runs: list[_Run]) -> list[list[Cell]]:
    """Runs whose baselines lie within a third of their size of each other form a line (a
    value set a point off its label's baseline is still on the label's line)."""
    rows: list[list[_Run]] = []
    for run in sorted(runs, key=lambda r: r.baseline):
        if rows and run.baseline - rows[-1][0].baseline <= 0.3 * min(run.size, rows[-1][0].size):
            rows[-1].append(run)
        else:
            rows.append([run])
    lines: list[list[Cell]] = []
    for row in rows:
        cells: list[Cell] = []
        for run in sorted(row, key=lambda r: r.x0):
            if cells and run.x0 - cells[-1].x1 <= 0.25 * run.size:
                cells[-1].text += ("" if run.x0 - cells[-1].x1 < 0.1 * run.size else " ") + run.text
                cells[-1].x1 = run.x1
                cells[-1].fonts.add(run.font)
            else:
                cells.append(Cell(run.x0, run.x1, run.text, {run.font}, run.baseline))
        lines.append(cells)
    return lines


def pages(pdf: Any, first: int = 0, last: int | None = None) -> Generator[Page, None, None]:
    stop = len(pdf) if last is None else min(last, len(pdf))
    for index in range(first, stop):
        page = pdf[index]
        try:
            yield read_page(index + 1, page)
        finally:
            page.close()
