"""Helpers shared by the newer list parsers (XML safety, JSON records, dates, names)."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any, BinaryIO

from hakiki.engines.screening.model import NameEntry, NameKind
from hakiki.engines.screening.parsers.text import ListFormatError, decode_legacy

_ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ].*)?$")
_DMY_DATE = re.compile(r"^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$")
_MDY_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
MIN_YEAR = 1000
MAX_YEAR = 2100
# OpenSanctions topics that say which screening check a listed entity belongs to.
TOPIC_CHECKS = {"role.pep": "pep", "sanction": "sanction"}


def parse_xml(data: bytes, label: str) -> ET.Element:
    """Parse XML, refusing DTDs (entity expansion) and stripping namespaces from every tag."""
    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in head:
        raise ListFormatError(f"{label}: document type declarations are not accepted")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ListFormatError(f"{label}: not well-formed: {exc}") from exc
    for element in root.iter():
        if isinstance(element.tag, str) and "}" in element.tag:
            element.tag = element.tag.rsplit("}", 1)[1]
    return root


def iso_date(year: int, month: int | None = None, day: int | None = None) -> str | None:
    """An ISO prefix for the parts given, or None when the date cannot exist."""
    if not MIN_YEAR <= year <= MAX_YEAR:
        return None
    if not month:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return None
    if not day:
        return f"{year:04d}-{month:02d}"
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def parse_iso_date(text: str | None) -> str | None:
    """``1971``, ``1971-03``, ``1971-03-02`` (or a timestamp) to an ISO prefix; None if invalid."""
    if not text:
        return None
    match = _ISO_DATE.match(text.strip())
    if match is None:
        return None
    year, month, day = match.groups()
    return iso_date(int(year), int(month) if month else None, int(day) if day else None)


def parse_dmy_date(text: str | None) -> str | None:
    """``02/03/1971`` (day first); ``00`` parts mean unknown: ``00/00/1971`` is ``1971``."""
    if not text:
        return None
    match = _DMY_DATE.match(text.strip())
    if match is None:
        return None
    day, month, year = (int(g) for g in match.groups())
    if not month:
        day = 0
    return iso_date(year, month or None, day or None)


def parse_mdy_date(text: str | None) -> str | None:
    """``03/02/1971`` (US month first) to ``1971-03-02``; None if invalid."""
    if not text:
        return None
    match = _MDY_DATE.match(text.strip())
    if match is None:
        return None
    month, day, year = (int(g) for g in match.groups())
    return iso_date(year, month, day)


def unique_names(names: Iterable[NameEntry]) -> tuple[NameEntry, ...]:
    """First occurrence of each name (case-insensitive); primary names sort first."""
    ordered = sorted(names, key=lambda n: n.kind != "primary")
    seen: set[str] = set()
    result: list[NameEntry] = []
    for entry in ordered:
        key = " ".join(entry.name.casefold().split())
        if key and key not in seen:
            seen.add(key)
            result.append(entry)
    return tuple(result)


def person_name(
    given: str | None, family: str | None, kind: NameKind = "primary"
) -> NameEntry | None:
    """A NameEntry in reading order ("Given FAMILY") with its parts kept."""
    if given and family:
        return NameEntry(f"{given} {family}", kind, given=given, family=family)
    if given or family:
        return NameEntry(given or family or "", kind, given=given, family=family)
    return None


def add_topic_checks(topics: Iterable[str | None], checks: set[str]) -> None:
    """Add to ``checks`` the check each known OpenSanctions topic implies."""
    checks.update(TOPIC_CHECKS[topic] for topic in topics if topic and topic in TOPIC_CHECKS)


_FIRST_CHARACTER = re.compile(rb"[^\s\xef\xbb\xbf]")


def json_records(data: bytes | BinaryIO, label: str) -> Iterator[tuple[int, Any, str | None]]:
    """Records of a JSON array or of JSON lines: (position, record, error).

    JSON lines are read one line at a time, from the bytes or from a binary file (a stored list
    is parsed from its gzip stream, never decompressed whole), never decoded whole (an
    OpenSanctions export is hundreds of megabytes; its text would be as much again, several
    times over for non-Latin scripts). A JSON array is read whole. Raises ListFormatError when
    the file is neither; a bad line yields an error message.
    """
    if isinstance(data, bytes | bytearray | memoryview):
        head, rest = bytes(data), None
    else:
        head, rest = data.read(_HEAD_BYTES), data
        while rest is not None and _FIRST_CHARACTER.search(head) is None:
            more = rest.read(_HEAD_BYTES)
            if not more:
                break
            head += more
    start = _FIRST_CHARACTER.search(head)
    if start is None:
        return
    if head[start.start() : start.start() + 1] == b"[":
        whole = head + rest.read() if rest is not None else head
        try:
            records = json.loads(decode_legacy(whole))
        except json.JSONDecodeError as exc:
            raise ListFormatError(f"{label}: not valid JSON: {exc}") from exc
        for position, record in enumerate(records, 1):
            yield position, record, None
        return
    if head[start.start() : start.start() + 1] != b"{":
        raise ListFormatError(f"{label}: neither a JSON array nor JSON lines")
    lines = io.BytesIO(head) if rest is None else _joined_lines(head, rest)
    good = 0
    for line_no, line in enumerate(lines, 1):
        line = line.strip().lstrip(b"\xef\xbb\xbf")
        if not line:
            continue
        try:
            record = json.loads(line)
        except ValueError:  # not JSON, or not UTF-8
            if good == 0:
                raise ListFormatError(f"{label}: line {line_no} is not JSON") from None
            yield line_no, None, f"{label} line {line_no}: not valid JSON; skipped"
            continue
        good += 1
        yield line_no, record, None


_HEAD_BYTES = 1 << 16


def _joined_lines(head: bytes, rest: BinaryIO) -> Iterator[bytes]:
    """The lines of ``head`` followed by the file ``rest``, read a line at a time."""
    *complete, partial = head.split(b"\n")
    for line in complete:
        yield line + b"\n"
    first = partial + rest.readline()
    if first:
        yield first
    yield from iter(rest.readline, b"")
