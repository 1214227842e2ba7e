"""Statements exported as an HTML page named ``.xls`` (GTBank's internet banking, and others
whose "Excel" export is a web page): every ``<tr>`` of the page a row of cells.

Read with the standard library's HTML tokenizer: it fetches nothing, expands no entity beyond
HTML's fixed named characters and has no DTD to process. Limits: the rows and columns of a
sheet, each cell's length, and the time spent (checked between chunks of the page)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

from hakiki.engines.statements.model import Refused

CHUNK = 256 * 1024
MAX_SECONDS = 10.0
_CELLS = ("td", "th")


def is_html(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith(b"<") and (b"<html" in head or b"<table" in head)


class _Rows(HTMLParser):
    def __init__(self, max_columns: int, max_cell_chars: int) -> None:
        super().__init__(convert_charrefs=True)
        self.max_columns = max_columns
        self.max_cell_chars = max_cell_chars
        self.open_rows: list[list[str]] = []  # nested tables: the innermost row last
        self.cell: list[str] | None = None
        self.cell_chars = 0
        self.done: list[list[str]] = []
        self.skipping = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        elif tag == "tr":
            self._close_cell()
            self.open_rows.append([])
        elif tag in _CELLS and self.open_rows:
            self._close_cell()
            self.cell, self.cell_chars = [], 0
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping = max(0, self.skipping - 1)
        elif tag in _CELLS:
            self._close_cell()
        elif tag == "tr" and self.open_rows:
            self._close_cell()
            self.done.append(self.open_rows.pop())

    def handle_data(self, data: str) -> None:
        if self.cell is None or self.skipping or self.cell_chars >= self.max_cell_chars:
            return
        piece = data[: self.max_cell_chars - self.cell_chars]
        self.cell.append(piece)
        self.cell_chars += len(piece)

    def _close_cell(self) -> None:
        if self.cell is not None and self.open_rows:
            row = self.open_rows[-1]
            if len(row) < self.max_columns:
                row.append("".join(self.cell))
        self.cell = None


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def html_rows(
    data: bytes, max_rows: int, max_columns: int, max_cell_chars: int, max_seconds: float
) -> Iterator[tuple[int, list[Any]]]:
    """(row number in the page, cells) of every table row, in the page's order of row ends."""
    parser = _Rows(max_columns, max_cell_chars)
    text = _text(data)
    started = time.monotonic()
    count = 0
    for offset in range(0, len(text), CHUNK):
        parser.feed(text[offset : offset + CHUNK])
        if time.monotonic() - started > max_seconds:
            raise Refused("too_large", f"file: the page took over {max_seconds:g} s to read.")
        for row in parser.done:
            count += 1
            if count > max_rows:
                raise Refused("too_large", f"file: more than {max_rows:,} rows.")
            yield count, row
        parser.done.clear()
    parser.close()
    for row in parser.done:
        count += 1
        if count > max_rows:
            raise Refused("too_large", f"file: more than {max_rows:,} rows.")
        yield count, row
