"""The first worksheet of an uploaded XLSX, read as a stream of its XML with expat: the bulk
scans' files and the statements' sheets.

Nothing here trusts what the file says about itself: the declared ``<dimension>`` is only
reported (``declared_rows``), never used to stop or to pad; absent rows are never padded (a
sheet with rows 1, 2 and 1,048,576 is three rows of work); a row keeps only its first
``columns`` cells (the header's width once it is known; a cell further right is only noted as
there); every XML part is read in 64 KB pieces with the deadline checked between them; the
parts' unpacked sizes are checked in the zip directory before any is opened (and counted again
while inflating); a sheet with more rows than the caller's limit is refused by a cheap count
before the parse (``max_rows``); a DOCTYPE or entity declaration in any part refuses the file
(no entity expansion, no external entities). openpyxl is used only for its tables of Excel's
date formats and its serial-date conversion. Cells are read as values (text, int, float, bool,
datetime, timedelta): a formula's cached value, or its text with ``formulas_as_text``.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import IO, Any
from xml.parsers import expat

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format
from openpyxl.utils.datetime import (
    CALENDAR_MAC_1904,
    CALENDAR_WINDOWS_1900,
    from_excel,
    from_ISO8601,
)

CHUNK = 64 * 1024
MAX_UNPACKED = 100 * 1024 * 1024  # all parts of the zip together, as its directory declares
MAX_PARTS = 1000
MAX_SHEET_ROW = 1_048_576  # Excel's own limits
MAX_SHEET_COLUMN = 16_384
MAX_FORMULAS_KEPT = 50
_MAIN_RELS = "_rels/.rels"
_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

# (sheet row, its first cells (None where blank), the width of its non-blank cells)
Row = tuple[int, list[Any], int]
# A row element that holds a cell, as the quick count before the parse finds it.
_ROW_WITH_CELLS = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row\b[^>]*>\s*<(?:[A-Za-z_][\w.-]*:)?c\b")
_ROW_NUMBER = re.compile(rb'\sr="(\d{1,7})"')
_COUNT_OVERLAP = 1024


class XlsxRefused(Exception):
    """The file cannot be read: ``problem`` says why, ``row`` and ``column`` (numbers from 1)
    where, when known; ``too_large`` when it is over a limit rather than unreadable."""

    def __init__(
        self,
        problem: str,
        row: int | None = None,
        column: int | None = None,
        *,
        too_large: bool = False,
    ) -> None:
        super().__init__(problem)
        self.problem, self.row, self.column = problem, row, column
        self.too_large = too_large


def refused(problem: str, row: int | None = None, column: int | None = None) -> XlsxRefused:
    return XlsxRefused(problem, row, column)


class _Refused(Exception):
    """Raised inside an expat handler; turned into an XlsxRefused with the place."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def _no_deadline() -> None:
    return None


def _doctype(*_args: object) -> None:
    raise _Refused("the XLSX file declares a DOCTYPE; refused (no DTDs or entities)")


def _entity(*_args: object) -> None:
    raise _Refused("the XLSX file declares an XML entity; refused (no DTDs or entities)")


def _local(name: str) -> str:
    return name[name.rfind(" ") + 1 :]  # "namespace local" -> local


class _Part:
    """One XML part of the package, parsed by expat in pieces: the handlers are the caller's."""

    def __init__(
        self,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
    ) -> None:
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.buffer_text = True
        parser.StartDoctypeDeclHandler = _doctype
        parser.EntityDeclHandler = _entity
        parser.UnparsedEntityDeclHandler = _entity
        parser.StartElementHandler = start
        if end is not None:
            parser.EndElementHandler = end
        if text is not None:
            parser.CharacterDataHandler = text
        self.parser = parser

    def feed(self, data: bytes, final: bool = False) -> None:
        self.parser.Parse(data, final)


class _Package:
    def __init__(
        self, archive: zipfile.ZipFile, deadline: Callable[[], None], max_unpacked: int
    ) -> None:
        self.archive = archive
        self.deadline = deadline
        self.max_unpacked = max_unpacked
        self.names = set(archive.namelist())
        self.inflated = 0

    def pieces(self, name: str) -> Iterator[bytes]:
        """The part's bytes, 64 KB at a time, within the unpacked size and the deadline."""
        if name not in self.names:
            raise refused(f"not a readable XLSX file (the part {name} is missing)")
        with self.archive.open(name) as part:
            while True:
                self.deadline()
                piece = part.read(CHUNK)
                if not piece:
                    return
                self.inflated += len(piece)
                if self.inflated > self.max_unpacked:
                    raise _too_big(self.max_unpacked)
                yield piece

    def parse(self, name: str, part: _Part) -> None:
        for piece in self.pieces(name):
            part.feed(piece)
        part.feed(b"", True)


def _too_big(limit: int) -> XlsxRefused:
    mb = limit // (1024 * 1024)
    problem = f"the XLSX file unpacks to more than {mb} MB; refused (save it as CSV)"
    return XlsxRefused(problem, too_large=True)


def _rels(package: _Package, name: str) -> dict[str, tuple[str, str]]:
    """Relationship id -> (type, part name) of a .rels part, targets resolved."""
    found: dict[str, tuple[str, str]] = {}
    base = posixpath.dirname(posixpath.dirname(name))  # xl/_rels/workbook.xml.rels -> xl

    def start(tag: str, attrs: dict[str, str]) -> None:
        if _local(tag) == "Relationship" and attrs.get("TargetMode") != "External":
            target = attrs.get("Target", "")
            if target.startswith("/"):
                path = target.lstrip("/")
            else:
                path = posixpath.normpath(posixpath.join(base, target))
            found[attrs.get("Id", "")] = (attrs.get("Type", ""), path)

    if name in package.names:
        package.parse(name, _Part(start))
    return found


def _of_type(rels: dict[str, tuple[str, str]], kind: str) -> str | None:
    for rel_type, path in rels.values():
        if rel_type.endswith("/" + kind):
            return path
    return None


class _Workbook:
    """Which part is the first worksheet, and the workbook's date system."""

    def __init__(self, package: _Package) -> None:
        main = _of_type(_rels(package, _MAIN_RELS), "officeDocument") or "xl/workbook.xml"
        folder, file = posixpath.split(main)
        self.rels = _rels(package, posixpath.join(folder, "_rels", file + ".rels"))
        self.sheet_ids: list[str] = []
        self.epoch = CALENDAR_WINDOWS_1900
        package.parse(main, _Part(self._start))
        worksheets = [
            self.rels[rel_id][1]
            for rel_id in self.sheet_ids
            if rel_id in self.rels and self.rels[rel_id][0].endswith("/worksheet")
        ]
        if not worksheets:
            raise refused("the XLSX file has no worksheet")
        self.sheet = worksheets[0]

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        name = _local(tag)
        if name == "sheet":
            rel_id = next((v for k, v in attrs.items() if _local(k) == "id"), "")
            self.sheet_ids.append(rel_id)
        elif name == "workbookPr" and attrs.get("date1904", "").lower() in ("1", "true"):
            self.epoch = CALENDAR_MAC_1904


def _shared_strings(package: _Package, name: str | None) -> list[str]:
    strings: list[str] = []
    if name is None or name not in package.names:
        return strings
    pieces: list[str] = []
    state = {"si": False, "t": False, "phonetic": 0}

    def start(tag: str, _attrs: dict[str, str]) -> None:
        local = _local(tag)
        if local == "si":
            state["si"] = True
            pieces.clear()
        elif local == "rPh":
            state["phonetic"] += 1
        elif local == "t" and state["si"] and not state["phonetic"]:
            state["t"] = True

    def end(tag: str) -> None:
        local = _local(tag)
        if local == "t":
            state["t"] = False
        elif local == "rPh":
            state["phonetic"] -= 1
        elif local == "si":
            state["si"] = False
            strings.append("".join(pieces).replace("x005F_", ""))  # as openpyxl reads them

    def text(data: str) -> None:
        if state["t"]:
            pieces.append(data)

    package.parse(name, _Part(start, end, text))
    return strings


def _date_styles(package: _Package, name: str | None) -> tuple[set[int], set[int]]:
    """The cell styles (indexes of cellXfs) whose number format is a date, or a duration."""
    custom: dict[int, str] = {}
    formats: list[int] = []
    inside = {"cellXfs": False}

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _local(tag)
        if local == "numFmt":
            format_id = attrs.get("numFmtId", "")
            if format_id.isdigit():
                custom[int(format_id)] = attrs.get("formatCode", "")
        elif local == "cellXfs":
            inside["cellXfs"] = True
        elif local == "xf" and inside["cellXfs"]:
            try:
                formats.append(int(attrs.get("numFmtId", "0")))
            except ValueError:
                formats.append(0)

    def end(tag: str) -> None:
        if _local(tag) == "cellXfs":
            inside["cellXfs"] = False

    if name is not None and name in package.names:
        package.parse(name, _Part(start, end))
    dates, durations = set(), set()
    for index, format_id in enumerate(formats):
        code = custom[format_id] if format_id in custom else BUILTIN_FORMATS.get(format_id)
        if is_date_format(code):
            dates.add(index)
        if is_timedelta_format(code):
            durations.add(index)
    return dates, durations


def _number(raw: str) -> int | float:
    if "." in raw or "E" in raw or "e" in raw:
        return float(raw)
    return int(raw)


class SheetRows:
    """The worksheet's non-blank rows in order, read as the caller iterates; ``columns`` is how
    many cells of a row are kept (the caller narrows it to the header's width).

    ``deadline`` is called between pieces of XML and may raise to stop the reading. A sheet
    with more than ``max_rows`` rows holding cells (below ``header_rows``) is refused before
    the parse, by a count of its row tags (a regular expression over the inflated XML, a
    fraction of the parse's cost); the caller still counts the rows it is given, since the
    quick count may miss a row tag built to dodge it. After the iteration, ``declared_rows`` is
    the last row of the sheet's ``<dimension>`` (None without one) and ``formulas`` the first
    formula cells' references."""

    def __init__(
        self,
        data: IO[bytes],
        columns: int,
        *,
        deadline: Callable[[], None] = _no_deadline,
        max_unpacked: int = MAX_UNPACKED,
        max_rows: int | None = None,
        header_rows: int = 0,
        formulas_as_text: bool = False,
    ) -> None:
        self.data = data
        self.deadline = deadline
        self.columns = columns
        self.max_unpacked = max_unpacked
        self.max_rows = max_rows
        self.header_rows = header_rows  # rows above the data, not counted in max_rows
        self.formulas_as_text = formulas_as_text
        self.declared_rows: int | None = None
        self.formulas: list[str] = []
        self.ready: list[Row] = []
        self.epoch = CALENDAR_WINDOWS_1900
        self.strings: list[str] = []
        self.dates: set[int] = set()
        self.durations: set[int] = set()
        self.local: dict[str, str] = {}  # tag as expat names it -> local name
        self.letters: dict[str, int] = {}  # column letters -> column number
        # the row being read
        self.row = 0
        self.cells: dict[int, Any] = {}
        self.widest = 0
        self.column = 0
        # the cell being read
        self.kind = "n"
        self.style = 0
        self.pieces: list[str] = []
        self.collect = False
        self.inline = False
        self.phonetic = 0
        self.formula: list[str] | None = None  # the cell's formula text, when it has one
        self.in_formula = False

    def __iter__(self) -> Iterator[Row]:
        try:
            archive = zipfile.ZipFile(self.data)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            raise refused("not a readable XLSX file") from error
        with archive:
            infos = archive.infolist()
            if len(infos) > MAX_PARTS:
                raise refused(f"not a readable XLSX file (more than {MAX_PARTS} parts)")
            if sum(info.file_size for info in infos) > self.max_unpacked:
                # a zip bomb is refused before anything is inflated
                raise _too_big(self.max_unpacked)
            package = _Package(archive, self.deadline, self.max_unpacked)
            try:
                yield from self._read(package)
            except _Refused as error:
                raise self._here(error.problem) from error
            except expat.ExpatError as error:
                reason = expat.errors.messages[error.code] if error.code else str(error)
                raise self._here(f"not a readable XLSX file (bad XML: {reason})") from error
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError) as error:
                # RuntimeError: an encrypted part; NotImplementedError (one) an unknown method
                raise refused("not a readable XLSX file") from error

    def _here(self, problem: str) -> XlsxRefused:
        return refused(problem, self.row or None, self.column or None)

    def _read(self, package: _Package) -> Iterator[Row]:
        book = _Workbook(package)
        self.epoch = book.epoch
        self.strings = _shared_strings(package, _of_type(book.rels, "sharedStrings"))
        self.dates, self.durations = _date_styles(package, _of_type(book.rels, "styles"))
        if self.max_rows is not None:
            self._count_rows(package, book.sheet, self.max_rows, self.header_rows)
        part = _Part(self._start, self._end, self._text)
        for piece in package.pieces(book.sheet):
            part.feed(piece)
            if self.ready:
                yield from self.ready
                self.ready.clear()
        part.feed(b"", True)
        yield from self.ready
        self.ready.clear()

    @staticmethod
    def _count_rows(package: _Package, sheet: str, max_rows: int, header_rows: int) -> None:
        counted, tail, inflated = 0, b"", package.inflated
        for piece in package.pieces(sheet):
            text = tail + piece
            end = 0
            for found in _ROW_WITH_CELLS.finditer(text):
                counted += 1
                end = found.end()
                if counted > max_rows + header_rows:
                    number = _ROW_NUMBER.search(found.group())
                    problem = f"more than {max_rows:,} rows; split the file"
                    row = int(number.group(1)) if number else None
                    raise XlsxRefused(problem, row, too_large=True)
            tail = text[max(end, len(text) - _COUNT_OVERLAP) :]
        package.inflated = inflated  # the parse inflates the same bytes again: count them once

    # expat handlers of the worksheet

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        name = self.local.get(tag) or self.local.setdefault(tag, _local(tag))
        if name == "c":
            self._start_cell(attrs)
        elif name == "v":
            self.collect = not self.inline
        elif name == "t":
            self.collect = self.inline and not self.phonetic
        elif name == "is":
            self.inline = True
        elif name == "rPh":
            self.phonetic += 1
        elif name == "row":
            self._start_row(attrs)
        elif name == "f":
            self.in_formula = True
            self.formula = self.formula or []
        elif name == "dimension":
            self._dimension(attrs.get("ref", ""))

    def _dimension(self, ref: str) -> None:
        last = ref.rpartition(":")[2].lstrip("$ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        if last.isdigit() and len(last) < 8:
            self.declared_rows = int(last)

    def _start_row(self, attrs: dict[str, str]) -> None:
        number = self.row + 1
        if "r" in attrs:
            try:
                number = int(attrs["r"])
            except ValueError:
                problem = f"not a readable XLSX file (row number {attrs['r'][:20]!r})"
                raise _Refused(problem) from None
        if number <= self.row or number > MAX_SHEET_ROW:
            raise _Refused(f"not a readable XLSX file (row {number} out of order)")
        self.row, self.column, self.widest = number, 0, 0
        self.cells = {}

    def _start_cell(self, attrs: dict[str, str]) -> None:
        reference = attrs.get("r")
        if reference is None:
            self.column += 1
        else:
            letters = reference.rstrip("0123456789")
            column = self.letters.get(letters) or self._column(letters, reference)
            self.column = column
        self.kind = attrs.get("t", "n")
        style = attrs.get("s")
        self.style = int(style) if style and style.isdigit() else 0
        self.pieces = []
        self.inline = False
        self.phonetic = 0
        self.formula = None

    def _column(self, letters: str, reference: str) -> int:
        column = 0
        for char in letters:
            if not "A" <= char <= "Z":
                column = 0
                break
            column = column * 26 + ord(char) - 64
        if not 0 < column <= MAX_SHEET_COLUMN:
            raise _Refused(f"not a readable XLSX file (cell reference {reference[:20]!r})")
        self.letters[letters] = column
        return column

    def _text(self, data: str) -> None:
        if self.collect:
            self.pieces.append(data)
        elif self.in_formula and self.formula is not None:
            self.formula.append(data)

    def _end(self, tag: str) -> None:
        name = self.local.get(tag) or self.local.setdefault(tag, _local(tag))
        if name in ("v", "t"):
            self.collect = False
        elif name == "f":
            self.in_formula = False
        elif name == "c":
            self._end_cell()
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "row":
            if self.widest:
                kept = min(self.widest, self.columns)
                cells = [self.cells.get(i) for i in range(1, kept + 1)]
                self.ready.append((self.row, cells, self.widest))
            self.column = 0

    def _end_cell(self) -> None:
        value: Any = self._value("".join(self.pieces))
        self.inline = False
        if self.formula is not None:
            if len(self.formulas) < MAX_FORMULAS_KEPT:
                self.formulas.append(f"{column_name(self.column)}{self.row}")
            if self.formulas_as_text:
                value = "=" + "".join(self.formula)
        if value is None or (isinstance(value, str) and not value.strip()):
            return
        self.widest = max(self.widest, self.column)
        if self.column <= self.columns:
            self.cells[self.column] = value

    def _value(self, raw: str) -> Any:
        kind = self.kind
        if kind == "inlineStr" or kind == "str" or kind == "e":
            return raw
        if not raw:
            return None
        try:
            if kind == "s":
                if not raw.isdigit():
                    raise ValueError(raw)
                return self.strings[int(raw)]
            if kind == "b":
                return bool(int(raw))
            if kind == "d":
                return from_ISO8601(raw)
            if kind != "n":
                return raw
            number = _number(raw)
        except (ValueError, IndexError):
            raise _Refused(f"not a readable XLSX file (cell value {raw[:20]!r})") from None
        if self.style in self.dates:
            try:
                return from_excel(number, self.epoch, timedelta=self.style in self.durations)
            except (OverflowError, ValueError):
                return "#VALUE!"  # as openpyxl reads a date out of range
        return number


def column_name(number: int) -> str:
    """1 -> A, 26 -> Z, 27 -> AA."""
    letters = ""
    while number > 0:
        number, remainder = divmod(number - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters
