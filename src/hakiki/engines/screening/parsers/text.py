"""Small helpers shared by the list parsers."""

from __future__ import annotations

from collections.abc import Iterable


def decode_legacy(data: bytes) -> str:
    """Decode a legacy list file: UTF-8 when valid, else cp1252 (latin-1 for its holes).

    Strips a UTF-8 byte-order mark and the DOS end-of-file byte (0x1A) OFAC appends.
    """
    data = data.rstrip(b"\x1a\r\n\t ").lstrip(b"\xef\xbb\xbf").replace(b"\x1a", b"")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        # cp1252 leaves five bytes undefined; map those (and only those) as latin-1.
        return "".join(
            chunk.decode("cp1252", errors="strict") if i % 2 == 0 else chunk.decode("latin-1")
            for i, chunk in enumerate(_split_undefined_cp1252(data))
        )


_CP1252_HOLES = frozenset({0x81, 0x8D, 0x8F, 0x90, 0x9D})


def _split_undefined_cp1252(data: bytes) -> list[bytes]:
    """Split into alternating [defined, undefined, defined, ...] runs."""
    chunks: list[bytes] = []
    start = 0
    for i, byte in enumerate(data):
        if byte in _CP1252_HOLES:
            chunks.append(data[start:i])
            chunks.append(data[i : i + 1])
            start = i + 1
    chunks.append(data[start:])
    return chunks


def clean(value: str | None, empty: str = "-0-") -> str | None:
    """Strip a field; None for the list's empty marker or blank text."""
    if value is None:
        return None
    text = " ".join(value.split())
    if not text or text == empty:
        return None
    return text


def unique(values: Iterable[str]) -> tuple[str, ...]:
    """Unique values in first-seen order."""
    return tuple(dict.fromkeys(v for v in values if v))


def year_range(start: int, end: int, limit: int = 15) -> list[str]:
    """Years from start to end inclusive, as strings; an implausible range keeps its ends."""
    if end < start:
        start, end = end, start
    if end - start > limit:
        return [str(start), str(end)]
    return [str(y) for y in range(start, end + 1)]


class ListFormatError(ValueError):
    """A list file that cannot be read at all (single bad rows become warnings instead)."""
