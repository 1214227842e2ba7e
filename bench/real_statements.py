"""The statement engine on real statements: per file, the rows a reader sees against the rows
read, the statement's own totals against ours, the verdict and the signals; and the facts of the
real files against the synthetic look-alikes the tests use (tests/statements/sheets.py).

    uv run --group dev python bench/real_statements.py [folder]
    PYTHONPATH=/path/to/other/checkout/src uv run --group dev python bench/real_statements.py

The folder (default: $HAKIKI_REAL_STATEMENTS, else /work/real) holds real people's statements:
they are read locally and never committed; the table names files by nickname only, and
prints no personal data (no names, numbers or details). Each kind of file has its own part
(``sheet_part``: CSV, XLSX, XLS and HTML-table exports; ``bank_pdf_part`` in
bench/real_bank_pdfs.py: bank statement PDFs; ``mpesa_pdf_*`` in bench/real_mpesa_pdfs.py:
M-Pesa PDFs)."""

from __future__ import annotations

import csv
import io
import itertools
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.statements import sheets  # noqa: E402

from bench.real_bank_pdfs import bank_pdf_part  # noqa: E402
from bench.real_mpesa_pdfs import mpesa_pdf_doctored, mpesa_pdf_facts, mpesa_pdf_rows  # noqa: E402
from hakiki.engines.statements import Refused, analyse  # noqa: E402
from hakiki.engines.statements.model import Analysis, Transaction  # noqa: E402

SHEET_SUFFIXES = (".csv", ".xls", ".xlsx")
_DATE = re.compile(
    r"^\s*(\d{4}-\d{2}-\d{2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}[- ][A-Za-z]{3}[- ]\d{4})"
)
_MONEY = re.compile(r"^-?[\d,]+\.\d{2}$")


def folder() -> Path | None:
    path = Path(
        sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HAKIKI_REAL_STATEMENTS", "/work/real")
    )
    return path if path.is_dir() else None


def _cents(text: str) -> int:
    return round(float(text.replace(",", "")) * 100)


# -- what a reader sees, counted without the engine --------------------------------------------


def _visible_csv(data: bytes) -> int:
    """Records with a date in the first or second cell (a record split by a line break
    counts once: its continuation starts with no date)."""
    text = data.decode("utf-8-sig", "replace")
    return sum(
        1
        for record in csv.reader(io.StringIO(text))
        if any(_DATE.match(cell) for cell in record[:2])
    )


def _visible_html(data: bytes) -> int:
    text = data.decode("utf-8", "replace")
    return len(re.findall(r"<tr[^>]*>\s*<td[^>]*>\s*\d{2}-[A-Za-z]{3}-\d{4}\s*</td>", text))


def _visible_xlsx(data: bytes) -> int:
    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(data), read_only=True).worksheets[0]
    sheet.reset_dimensions()  # every row, whatever the declared dimension
    return sum(
        1
        for row in sheet.iter_rows(values_only=True)
        if row and isinstance(row[0], (date, datetime))
    )


def visible(name: str, data: bytes) -> int:
    if name.endswith(".csv"):
        return _visible_csv(data)
    if name.endswith(".xlsx"):
        return _visible_xlsx(data)
    return _visible_html(data) if data.lstrip()[:1] == b"<" else -1


# -- the statement's own totals ------------------------------------------------------------------


def _pdf_total(pdf: Path, password: str) -> tuple[int, int] | None:
    """The TOTAL line of an M-Pesa statement's summary (first page's text, with or without
    a colon)."""
    import pypdfium2

    if not pdf.exists():
        return None
    document = pypdfium2.PdfDocument(str(pdf), password=password)
    text = document[0].get_textpage().get_text_range()
    match = re.search(r"TOTAL:?\s+([\d,]+\.\d{2})\s+([\d,]+\.\d{2})", text)
    return (_cents(match.group(1)), _cents(match.group(2))) if match else None


def _opening(data: bytes) -> int | None:
    match = re.search(rb"Opening Balance:\s*(?:<[^>]+>\s*)?(-?[\d,]+\.\d{2})", data)
    if match:
        return _cents(match.group(1).decode())
    if data.startswith(b"PK"):
        from openpyxl import load_workbook

        sheet = load_workbook(io.BytesIO(data), read_only=True).worksheets[0]
        for row in sheet.iter_rows(values_only=True, max_row=30):
            cell = str(row[0]) if row and row[0] else ""
            found = re.search(r"Opening Balance:\s*(-?[\d,]+\.\d{2})", cell)
            if found:
                return _cents(found.group(1))
    return None


# The statements whose PDF twin holds the summary (nickname -> (pdf, password))
PDF_TWINS = {"murega_2023.csv": ("murega_2023.pdf", "900365")}


def totals_agree(name: str, data: bytes, read: list[Transaction], where: Path) -> str:
    paid_in = sum(t.paid_in for t in read)
    paid_out = sum(t.withdrawn for t in read)
    if name in PDF_TWINS:
        pdf, password = PDF_TWINS[name]
        total = _pdf_total(where / pdf, password)
        if total is not None:
            agree = total == (paid_in, paid_out)
            return f"TOTAL {'agrees' if agree else 'differs'} ({_diff(total, (paid_in, paid_out))})"
    opening = _opening(data)
    with_balance = [t for t in read if t.balance is not None and t.completed]
    if not with_balance:
        return "no balances"
    done = [t for t in read if t.completed]
    closing = with_balance[-1].balance or 0
    first = with_balance[0]
    start = (
        opening if opening is not None else (first.balance or 0) - first.paid_in + first.withdrawn
    )
    moved = sum(t.paid_in - t.withdrawn for t in done)
    label = "opening" if opening is not None else "first balance"
    off = closing - (start + moved)
    return f"{label} + rows = closing: {'yes' if off == 0 else f'off by {off / 100:,.2f}'}"


def _diff(stated: tuple[int, int], ours: tuple[int, int]) -> str:
    return f"in {(ours[0] - stated[0]) / 100:+,.2f}, out {(ours[1] - stated[1]) / 100:+,.2f}"


# -- the sheet part -------------------------------------------------------------------------------


@dataclass
class Line:
    name: str
    visible: int
    read: str
    totals: str
    verdict: str
    signals: str


def _signals(analysis: Analysis) -> str:
    parts = []
    for s in analysis.signals:
        count = s.evidence.get("count")
        parts.append(f"{s.code}({count})" if count else s.code)
    return ", ".join(parts) or "-"


def sheet_part(where: Path) -> list[Line]:
    lines: list[Line] = []
    for path in sorted(where.iterdir()):
        if path.suffix not in SHEET_SUFFIXES:
            continue
        data = path.read_bytes()
        seen = visible(path.name, data)
        try:
            analysis = analyse(data)
        except Refused as refused:
            lines.append(Line(path.name, seen, "0", "-", f"refused {refused.code}", "-"))
            continue
        except Exception as error:  # the table reports a crash instead of stopping
            lines.append(Line(path.name, seen, "0", "-", f"crash {type(error).__name__}", "-"))
            continue
        read = analysis.statement.transactions
        lines.append(
            Line(
                path.name,
                seen,
                f"{len(read)} ({analysis.statement.layout})",
                totals_agree(path.name, data, read, where),
                analysis.verdict,
                _signals(analysis),
            )
        )
    return lines


def print_table(title: str, lines: list[Line]) -> None:
    print(f"\n{title}\n")
    print("| file | rows visible | rows read | totals | verdict | signals |")
    print("|---|---|---|---|---|---|")
    for line in lines:
        print(
            f"| {line.name} | {line.visible} | {line.read} | {line.totals} | {line.verdict} | "
            f"{line.signals} |"
        )


# -- facts of the real sheets against the synthetic ones -------------------------------------------


def _mpesa_facts(data: bytes) -> dict[str, object]:
    text = data.decode("utf-8-sig", "replace")
    records = list(csv.reader(io.StringIO(text)))
    titles = next(r for r in records if r and r[0] == "Receipt No.")
    rows = [r for r in records if len(r) > 1 and _DATE.match(r[1])]
    times = [r[1] for r in rows]
    shape = (
        "YYYY-MM-DD HH:MM:SS"
        if re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$", times[0])
        else ("DD-MM-YY HH:MM" if re.match(r"\d\d-\d\d-\d\d \d\d?:\d\d$", times[0]) else "other")
    )
    return {
        "titles": titles[:7] == sheets.MPESA_TITLES,
        "trailing empty column": len(titles) == 8 and titles[7] == "",
        "date shape": shape,
        "newest first": times[0] > times[-1] if shape.startswith("YYYY") else None,
        "titles repeated per page": sum(1 for r in records if r and r[0] == "Receipt No.") > 1,
        "details wrapped in cells": any("\n" in r[2] for r in rows if len(r) > 2),
        "continuation rows": any(len(r) > 2 and not r[0] and not r[1] and r[2] for r in records),
        "records split unquoted": any(2 < len(r) < 7 and _DATE.match(r[1]) for r in records),
        "withdrawals negative": any(len(r) > 5 and r[5].startswith("-") for r in rows),
        "Cancelled rows": any(len(r) > 3 and r[3] == "Cancelled" for r in rows),
        "overdraft credits": any(len(r) > 2 and r[2] == "OverDraft of Credit Party" for r in rows),
        "same-second groups": _same_second(rows) > 0,
    }


def _same_second(rows: list[list[str]]) -> int:
    return sum(1 for a, b in itertools.pairwise(rows) if a[1] == b[1])


def _gtb_facts(data: bytes) -> dict[str, object]:
    text = data.decode("utf-8", "replace")
    cells = re.findall(r"<tr[^>]*>\s*<td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>", text)
    dated = [(a, b) for a, b in cells if re.match(r"\d{2}-[A-Za-z]{3}-\d{4}$", a.strip())]
    return {
        "HTML page named .xls": text.lstrip().startswith("<!DOCTYPE html"),
        "titles": all(t in text for t in sheets.GTB_TITLES),
        "date shape 05-Jan-2015": bool(dated),
        "nested tables": text.count("<table") > 1,
        "&nbsp; in empty cells": "&nbsp;" in text,
        "reference 0 on most rows": sum(1 for _a, b in dated if b.strip() == "0") > len(dated) / 3,
        "Opening Balance printed": "Opening Balance:" in text,
    }


def fact_part(where: Path) -> None:
    lines = sheets.mpesa_lines()
    opening, bank = sheets.bank_lines()
    pairs: list[tuple[str, str, bytes, Callable[[bytes], dict[str, object]]]] = [
        ("murega_2023.csv", "mpesa_csv()", sheets.mpesa_csv(lines), _mpesa_facts),
        (
            "raphiqi.csv",
            "mpesa_csv(day_first_short)",
            sheets.mpesa_csv(lines, day_first_short=True),
            _mpesa_facts,
        ),
        ("ng_gtb-excel-valid.xls", "gtb_html()", sheets.gtb_html(opening, bank), _gtb_facts),
    ]
    print("\nFacts of the real sheets against their synthetic look-alikes\n")
    print("| real file | look-alike | fact | real | synthetic |")
    print("|---|---|---|---|---|")
    for real_name, maker, synthetic, facts_of in pairs:
        path = where / real_name
        if not path.exists():
            continue
        real, made = facts_of(path.read_bytes()), facts_of(synthetic)
        for fact, value in real.items():
            same = "" if value == made[fact] else " (differs)"
            print(f"| {real_name} | {maker} | {fact} | {value} | {made[fact]}{same} |")


def main() -> None:
    where = folder()
    if where is None:
        print(
            "No folder of real statements ($HAKIKI_REAL_STATEMENTS or /work/real): nothing to do."
        )
        return
    print_table("Sheets and CSVs", sheet_part(where))
    fact_part(where)
    bank_pdf_part(where)  # bank statement PDFs: bench/real_bank_pdfs.py
    mpesa_pdf_rows()  # M-Pesa PDFs: bench/real_mpesa_pdfs.py
    mpesa_pdf_doctored()
    mpesa_pdf_facts()


if __name__ == "__main__":
    main()
