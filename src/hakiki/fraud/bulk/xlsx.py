"""The first worksheet of an XLSX upload, read as a stream of its XML with expat.

Nothing here trusts what the file says about itself: the declared ``<dimension>`` is ignored,
absent rows are never padded (a sheet with rows 1, 2 and 1,048,576 is three rows of work), a row
keeps only its first ``columns`` cells (the header's width once it is known; a cell further right
is only noted as there), every XML part is read in 64 KB pieces with the deadline checked between
them, the parts' unpacked sizes are checked in the zip directory before any is opened (and counted
again while inflating), and a DOCTYPE or entity declaration in any part refuses the file (no
entity expansion, no external entities). openpyxl is used only for its tables of Excel's date
formats and its serial-date conversion.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import IO
from xml.parsers import expat

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format
from openpyxl.utils.datetime import (
    CALENDAR_MAC_1904,
    CALENDAR_WINDOWS_1900,
    from_excel,
    from_ISO8601,
)

from hakiki.fraud.bulk.files import Deadline, Problem, SheetError, cell_text, column_letter

CHUNK = 64 * 1024
MAX_UNPACKED = 100 * 1024 * 1024  # all parts of the zip together, as its directory declares
MAX_PARTS = 1000
MAX_SHEET_ROW = 1_048_576  # Excel's own limits
MAX_SHEET_COLUMN = 16_384
_MAIN_RELS = "_rels/.rels"
_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

Row = tuple[int, list[str], int]  # (sheet row, its first cells, the width of its non-blank cells)


def refused(problem: str, row: int | None = None, column: int | None = None) -> SheetError:
    letter = column_letter(column - 1) if column else None
    return SheetError([Problem(row, None, letter, problem)])


class _Refused(Exception):
    """Raised inside an expat handler; turned into a SheetError with the place."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


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
    def __init__(self, archive: zipfile.ZipFile, deadline: Deadline) -> None:
        self.archive = archive
        self.deadline = deadline
        self.names = set(archive.namelist())
        self.inflated = 0

    def pieces(self, name: str) -> Iterator[bytes]:
        """The part's bytes, 64 KB at a time, within the unpacked size and the deadline."""
        if name not in self.names:
            raise refused(f"not a readable XLSX file (the part {name} is missing)")
        with self.archive.open(name) as part:
            while True:
                self.deadline.check()
                piece = part.read(CHUNK)
                if not piece:
                    return
                self.inflated += len(piece)
                if self.inflated > MAX_UNPACKED:
                    raise _too_big()
                yield piece

    def parse(self, name: str, part: _Part) -> None:
        for piece in self.pieces(name):
            part.feed(piece)
        part.feed(b"", True)


def _too_big() -> SheetError:
    mb = MAX_UNPACKED // (1024 * 1024)
    return refused(f"the XLSX file unpacks to more than {mb} MB; refused (save it as CSV)")


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
    many cells of a row are kept (the caller narrows it to the header's width)."""

    def __init__(self, data: IO[bytes], deadline: Deadline, columns: int) -> None:
        self.data = data
        self.deadline = deadline
        self.columns = columns
        self.ready: list[Row] = []
        self.epoch = CALENDAR_WINDOWS_1900
        self.strings: list[str] = []
        self.dates: set[int] = set()
        self.durations: set[int] = set()
        self.local: dict[str, str] = {}  # tag as expat names it -> local name
        self.letters: dict[str, int] = {}  # column letters -> column number
        # the row being read
        self.row = 0
        self.cells: dict[int, str] = {}
        self.widest = 0
        self.column = 0
        # the cell being read
        self.kind = "n"
        self.style = 0
        self.pieces: list[str] = []
        self.collect = False
        self.inline = False
        self.phonetic = 0

    def __iter__(self) -> Iterator[Row]:
        try:
            archive = zipfile.ZipFile(self.data)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            raise refused("not a readable XLSX file") from error
        with archive:
            infos = archive.infolist()
            if len(infos) > MAX_PARTS:
                raise refused(f"not a readable XLSX file (more than {MAX_PARTS} parts)")
            if sum(info.file_size for info in infos) > MAX_UNPACKED:
                raise _too_big()  # a zip bomb is refused before anything is inflated
            package = _Package(archive, self.deadline)
            try:
                yield from self._read(package)
            except _Refused as error:
                raise self._here(error.problem) from error
            except expat.ExpatError as error:
                reason = expat.errors.messages[error.code] if error.code else str(error)
                raise self._here(f"not a readable XLSX file (bad XML: {reason})") from error
            except SheetError:
                raise
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError) as error:
                # RuntimeError: an encrypted part; NotImplementedError (one) an unknown method
                raise refused("not a readable XLSX file") from error

    def _here(self, problem: str) -> SheetError:
        return refused(problem, self.row or None, self.column or None)

    def _read(self, package: _Package) -> Iterator[Row]:
        book = _Workbook(package)
        self.epoch = book.epoch
        self.strings = _shared_strings(package, _of_type(book.rels, "sharedStrings"))
        self.dates, self.durations = _date_styles(package, _of_type(book.rels, "styles"))
        part = _Part(self._start, self._end, self._text)
        for piece in package.pieces(book.sheet):
            part.feed(piece)
            if self.ready:
                yield from self.ready
                self.ready.clear()
        part.feed(b"", True)
        yield from self.ready
        self.ready.clear()

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

    def _end(self, tag: str) -> None:
        name = self.local.get(tag) or self.local.setdefault(tag, _local(tag))
        if name in ("v", "t"):
            self.collect = False
        elif name == "c":
            self._end_cell()
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "row":
            if self.widest:
                kept = min(self.widest, self.columns)
                cells = [self.cells.get(i, "") for i in range(1, kept + 1)]
                self.ready.append((self.row, cells, self.widest))
            self.column = 0

    def _end_cell(self) -> None:
        text = self._value("".join(self.pieces))
        self.inline = False
        if not text.strip():
            return
        self.widest = max(self.widest, self.column)
        if self.column <= self.columns:
            self.cells[self.column] = text

    def _value(self, raw: str) -> str:
        kind = self.kind
        if kind == "inlineStr" or kind == "str" or kind == "e":
            return raw
        if not raw:
            return ""
        try:
            if kind == "s":
                if not raw.isdigit():
                    raise ValueError(raw)
                return self.strings[int(raw)]
            if kind == "b":
                return str(bool(int(raw)))
            if kind == "d":
                return cell_text(from_ISO8601(raw))
            if kind != "n":
                return raw
            number = _number(raw)
        except (ValueError, IndexError):
            raise _Refused(f"not a readable XLSX file (cell value {raw[:20]!r})") from None
        if self.style in self.dates:
            try:
                when = from_excel(number, self.epoch, timedelta=self.style in self.durations)
            except (OverflowError, ValueError):
                return "#VALUE!"  # as openpyxl reads a date out of range
            return cell_text(when)
        return cell_text(number)
