"""How long a 300,000-row XLSX takes to be refused by each reader's row limit.

    uv run --group dev python bench/xlsx_row_limit.py [--rows 300000]
    PYTHONPATH=/path/to/other/checkout/src uv run --group dev python bench/xlsx_row_limit.py

The sheet (date, details, amount, balance; inline strings and numbers, about 5.7 MB zipped) is
written as a stream into the zip, as an attacker would, with no `<dimension>` and with one that
declares ten rows. Timed: the statements' upload check (``precheck``, limit 50,000 rows) and the
bulk scans' upload reading (``read_sheet``, limit 100,000 rows), each refusing the file.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fraud.bulk.test_hostile_files import MAIN, PARTS, SHEET  # noqa: E402

from hakiki.engines.statements import Refused, precheck  # noqa: E402
from hakiki.engines.statements.tabular import Limits  # noqa: E402
from hakiki.fraud.bulk.files import SheetError, read_sheet  # noqa: E402


def inline(reference: str, text: str) -> str:
    return f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>'


def sheet(rows: int, dimension: str | None) -> Iterator[bytes]:
    declared = f'<dimension ref="{dimension}"/>' if dimension else ""
    header = "".join(
        inline(f"{c}1", t)
        for c, t in zip("ABCD", ("Date", "Details", "Amount", "Balance"), strict=True)
    )
    yield f'<worksheet xmlns="{MAIN}">{declared}<sheetData><row r="1">{header}</row>'.encode()
    batch: list[str] = []
    for r in range(2, rows + 2):
        batch.append(
            f'<row r="{r}">{inline(f"A{r}", "2024-01-02")}{inline(f"B{r}", f"Pay {r}")}'
            f'<c r="C{r}"><v>100</v></c><c r="D{r}"><v>{r * 100}</v></c></row>'
        )
        if len(batch) == 5000:
            yield "".join(batch).encode()
            batch = []
    yield ("".join(batch) + "</sheetData></worksheet>").encode()


def package(rows: int, dimension: str | None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in PARTS.items():
            archive.writestr(name, text)
        with archive.open(SHEET, "w", force_zip64=True) as part:
            for piece in sheet(rows, dimension):
                part.write(piece)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=300_000)
    options = parser.parse_args()
    for dimension in (None, "A1:D10"):
        data = package(options.rows, dimension)
        print(f"{options.rows:,} rows, dimension {dimension or 'absent'}, {len(data):,} bytes")
        started = time.perf_counter()
        try:
            answer = f"accepted as {precheck(data, 'auto', None, Limits())}"
        except Refused as refused:
            answer = f"refused: {refused}"
        print(f"  statements: {time.perf_counter() - started:6.2f} s  {answer}")
        started = time.perf_counter()
        try:
            read_sheet(data, max_rows=100_000)
            answer = "accepted"
        except SheetError as error:
            answer = f"refused: {error}"
        print(f"  bulk:       {time.perf_counter() - started:6.2f} s  {answer}")


if __name__ == "__main__":
    main()
