"""An organisation's own watchlist, uploaded as CSV, to a ListSnapshot.

Header row required; column names are case-insensitive:

* ``name`` (required): the primary name, in reading order.
* ``schema``: ``person`` (default), ``organization``/``organisation``/``company``/``entity``,
  ``vessel``, ``aircraft``.
* ``aliases``: semicolon-separated other names.
* ``birth_date``: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (several separated by semicolons).
* ``countries``: semicolon-separated ISO 3166-1 alpha-2/alpha-3 codes or country names.
* ``identifiers``: semicolon-separated ``type:value`` pairs (``passport:A1234567``).
* ``program``: a free-text programme or reason.
* ``id``: the organisation's own reference (default ``row-<line number>``).
* ``position``, ``start_date``, ``end_date`` (a PEP list's columns, read in any list): the
  office held and its tenure (``YYYY[-MM[-DD]]``); kept as a programme line such as
  ``Minister of Finance (2015-03-01 to 2019-06-30)``.

The delimiter may be ``,``, ``;`` or a tab (taken from the header line). UTF-8 (with or without
BOM) and cp1252 are read. A missing ``name`` column raises ListFormatError; a row without a
name, an unknown schema or a duplicate id is skipped with a warning giving its line number;
an unreadable date, country or identifier is dropped with a warning. More than ``max_rows``
data rows raise ListFormatError.

:class:`WatchlistReader` reads the same format from lines as they come (an upload of a million
rows is never held whole), with the limits that make a hostile file fail early and name its
line: a physical line of more than ``MAX_LINE_CHARS``, a field over the csv module's limit,
more than ``MAX_COLUMNS`` columns, more than ``MAX_NAMES`` names in one row.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity, parse_each
from hakiki.engines.screening.parsers.common import parse_iso_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy

MAX_ROWS = 100_000
MAX_LINE_CHARS = 1 << 20
MAX_COLUMNS = 64
MAX_NAMES = 100  # the primary name and aliases of one row
KNOWN_COLUMNS = frozenset(
    {
        "id",
        "name",
        "schema",
        "aliases",
        "birth_date",
        "countries",
        "identifiers",
        "program",
        "position",
        "start_date",
        "end_date",
    }
)
_SCHEMAS: dict[str, Schema] = {
    "person": "Person",
    "individual": "Person",
    "organization": "Organization",
    "organisation": "Organization",
    "company": "Organization",
    "entity": "Organization",
    "legalentity": "Organization",
    "vessel": "Vessel",
    "aircraft": "Aircraft",
    "airplane": "Aircraft",
}
_ID_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


@dataclass(frozen=True, slots=True)
class RowIssue:
    """A row refused or a value dropped. ``problem`` holds ``{value}`` where the value goes:
    :meth:`warning` shows it (the operator's own files), :meth:`public` leaves it out (an
    organisation's upload: its values are personal data, never stored in clear)."""

    line: int
    problem: str
    value: str | None = None
    refused: bool = False

    def warning(self) -> str:
        return f"line {self.line}: " + self.problem.format(value=repr(self.value))

    def public(self) -> str:
        return self.problem.replace(" {value}", "").replace("{value}", "")


@dataclass
class WatchlistReader:
    """Rows of a watchlist CSV from its text lines, one at a time.

    ``lines``: the file's text, line by line (line ends kept). The header is read at once
    (ListFormatError without a ``name`` column); :meth:`entities` then yields each accepted
    row's entity. ``rows_read``, ``refused`` and ``issues`` (the first ``keep_issues``, counted
    in ``issue_count``) say how it went; ``line`` is the physical line reached."""

    lines: Iterable[str]
    code: str = "custom_watchlist"
    max_rows: int = MAX_ROWS
    keep_issues: int | None = None
    rows_read: int = 0
    refused: int = 0
    issue_count: int = 0
    issues: list[RowIssue] = field(default_factory=list)
    unknown_columns: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._reader = csv.reader(self.lines, delimiter=",", strict=False)
        self._ids: set[str] = set()
        self.columns = self._header()

    @property
    def line(self) -> int:
        return self._reader.line_num

    def _header(self) -> list[str]:
        iterator = iter(self.lines)
        try:
            first = next(iterator)
        except StopIteration:
            raise ListFormatError(
                "watchlist CSV: the file is empty (a header row is needed)"
            ) from None
        delimiter = max((",", ";", "\t"), key=first.count)
        self._reader = csv.reader(_chain(first, iterator), delimiter=delimiter, strict=False)
        header = self._next_row()
        if header is None:
            raise ListFormatError("watchlist CSV: the file is empty (a header row is needed)")
        if len(header) > MAX_COLUMNS:
            raise ListFormatError(
                f"watchlist CSV: line 1 has {len(header)} columns; at most {MAX_COLUMNS}"
            )
        columns = [c.strip().lstrip("\ufeff").lower().replace(" ", "_") for c in header]
        if "name" not in columns:
            raise ListFormatError(
                f"watchlist CSV: required column 'name' is missing (found: {', '.join(columns)})"
            )
        self.unknown_columns = [c for c in columns if c and c not in KNOWN_COLUMNS]
        return columns

    def _next_row(self) -> list[str] | None:
        try:
            return next(self._reader)
        except StopIteration:
            return None
        except csv.Error as error:  # a field over the csv module's size limit, a NUL byte
            raise ListFormatError(f"watchlist CSV: line {self._reader.line_num}: {error}") from None

    def _report(self, issue: RowIssue) -> None:
        self.issue_count += 1
        self.refused += issue.refused
        if self.keep_issues is None or len(self.issues) < self.keep_issues:
            self.issues.append(issue)

    def entities(self) -> Iterator[ListEntity]:
        columns = self.columns
        while (row := self._next_row()) is not None:
            if not any(cell.strip() for cell in row):
                continue
            self.rows_read += 1
            if self.rows_read > self.max_rows:
                raise ListFormatError(
                    f"watchlist CSV: line {self.line}: more than {self.max_rows:,} rows"
                )
            if len(row) > MAX_COLUMNS:
                raise ListFormatError(
                    f"watchlist CSV: line {self.line} has {len(row)} columns; at most {MAX_COLUMNS}"
                )
            record = {col: row[i] for i, col in enumerate(columns) if i < len(row)}
            entity = _parse_row(record, self.line, self.code, self._report)
            if entity is None:
                continue
            if entity.entity_id in self._ids:
                self._report(
                    RowIssue(self.line, "duplicate id {value}; row skipped", entity.entity_id, True)
                )
                continue
            self._ids.add(entity.entity_id)
            yield entity


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def text_lines(
    chunks: Iterable[bytes], encoding: str, *, max_line_chars: int = MAX_LINE_CHARS
) -> Iterator[str]:
    """Decode ``chunks`` (a file's bytes in order) as ``encoding`` and yield its lines with
    their ends; ListFormatError for a line longer than ``max_line_chars`` (nothing more of it is
    kept) or bytes that are not ``encoding``."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    pending = ""
    line_no = 1
    for chunk in _and_end(chunks):
        try:
            pending += decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            at = line_no + pending.count("\n") + chunk[: max(error.start, 0)].count(b"\n")
            raise ListFormatError(
                f"watchlist CSV: line {at}: bytes that are not {encoding} ({error.reason})"
            ) from None
        # "\n" ends a line ("\r\n" too); other line breaks (U+2028, form feeds) stay inside
        # their line, where the csv module reads them as text
        *lines, pending = pending.split("\n")
        for line in lines:
            if len(line) >= max_line_chars:
                raise _too_long(line_no, max_line_chars)
            line_no += 1
            yield line + "\n"
        if len(pending) > max_line_chars:
            raise _too_long(line_no, max_line_chars)
    if pending:
        yield pending


def _and_end(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The chunks, then an empty one (the decoder's end)."""
    for chunk in chunks:
        if chunk:
            yield chunk
    yield b""


def _too_long(line_no: int, limit: int) -> ListFormatError:
    return ListFormatError(
        f"watchlist CSV: line {line_no} is longer than {limit:,} characters (a quote never "
        "closed, or not a CSV file)"
    )


def parse_watchlist_csv(
    data: bytes,
    *,
    version: str,
    code: str = "custom_watchlist",
    title: str = "Custom watchlist",
    source_url: str = "",
    checks: frozenset[str] = frozenset({"sanction"}),
    max_rows: int = MAX_ROWS,
) -> ListSnapshot:
    """Parse an uploaded watchlist CSV. Raises ListFormatError on a missing ``name`` column."""
    text = decode_legacy(data)
    reader = WatchlistReader(io.StringIO(text, newline=""), code=code, max_rows=max_rows)
    collected = Collected()
    if reader.unknown_columns:
        collected.warnings.append(f"unknown columns ignored: {', '.join(reader.unknown_columns)}")
    for entity in reader.entities():
        collected.add(entity)
    collected.warnings.extend(issue.warning() for issue in reader.issues)
    return collected.snapshot(
        code=code, title=title, version=version, source_url=source_url, checks=checks
    )


def _split(value: str | None) -> list[str]:
    if not value:
        return []
    return [part for part in (clean(p, empty="") for p in value.split(";")) if part]


def _parse_row(
    record: dict[str, str], line_no: int, code: str, report: Callable[[RowIssue], None]
) -> ListEntity | None:
    name = clean(record.get("name"), empty="")
    if name is None:
        report(RowIssue(line_no, "empty name; row skipped", refused=True))
        return None
    schema_text = (clean(record.get("schema"), empty="") or "person").lower().replace(" ", "")
    schema = _SCHEMAS.get(schema_text)
    if schema is None:
        report(RowIssue(line_no, "unknown schema {value}; row skipped", schema_text, True))
        return None
    names = [NameEntry(name, "primary")]
    aliases = _split(record.get("aliases"))
    if len(aliases) >= MAX_NAMES:
        report(RowIssue(line_no, f"more than {MAX_NAMES} names; the rest dropped"))
        aliases = aliases[: MAX_NAMES - 1]
    names.extend(NameEntry(alias, "alias") for alias in aliases)
    birth_dates, bad_dates = parse_each(_split(record.get("birth_date")), parse_iso_date)
    for value in bad_dates:
        report(RowIssue(line_no, "birth_date {value} is not YYYY[-MM[-DD]]; dropped", value))
    countries, bad_countries = parse_each(_split(record.get("countries")), to_country_code)
    for value in bad_countries:
        report(RowIssue(line_no, "unknown country {value}; dropped", value))
    identifiers, bad_ids = parse_each(_split(record.get("identifiers")), _identifier)
    for value in bad_ids:
        report(RowIssue(line_no, "identifier {value} is not type:value; dropped", value))
    programs = [p for p in (clean(record.get("program"), empty=""),) if p]
    position = _position(record, line_no, report)
    if position:
        programs.append(position)
    return build_entity(
        clean(record.get("id"), empty="") or f"row-{line_no}",
        code,
        schema,
        names,
        programs=programs,
        birth_dates=birth_dates,
        countries=countries,
        identifiers=identifiers,
    )


def _position(
    record: dict[str, str], line_no: int, report: Callable[[RowIssue], None]
) -> str | None:
    """``Position (start to end)`` from a PEP row's columns; None without a position."""
    position = clean(record.get("position"), empty="")
    dates: list[str] = []
    for column in ("start_date", "end_date"):
        text = clean(record.get(column), empty="")
        parsed = parse_iso_date(text) if text else None
        if text and parsed is None:
            report(RowIssue(line_no, column + " {value} is not YYYY[-MM[-DD]]; dropped", text))
        dates.append(parsed or "")
    if not position:
        return None
    start, end = dates
    if start or end:
        return f"{position} ({start or '?'} to {end or 'now'})"
    return position


def _identifier(value: str) -> tuple[str, str] | None:
    """``type:value`` to a pair, the type normalised to a short lowercase key; None if invalid."""
    id_type, sep, id_value = value.partition(":")
    id_type = id_type.strip().lower().replace(" ", "_")
    id_value = id_value.strip()
    if not sep or not id_value or not _ID_TYPE.match(id_type):
        return None
    return id_type, id_value
