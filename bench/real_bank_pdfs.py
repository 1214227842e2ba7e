"""The bank-statement PDF part of bench/real_statements.py: per real bank PDF, the file's
producer, the rows a reader sees against the rows read, the balance proof, the statement's own
totals against ours, the verdict and the signals; then the facts of the real files against the
look-alikes the tests generate (tests/statements/bank_documents.py).

    uv run --group dev python bench/real_bank_pdfs.py [folder]
    PYTHONPATH=/work/main/src uv run --group dev python bench/real_bank_pdfs.py   # before

Real people's statements are read locally and never committed: files are named by nickname
and nothing personal (names, numbers, narrations) is printed."""

from __future__ import annotations

import io
import itertools
import logging
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pypdf  # noqa: E402

from hakiki.engines.statements import Refused, analyse  # noqa: E402
from hakiki.engines.statements.model import Transaction  # noqa: E402

# Passwords published beside the files (devcenter-square/ng-bank-parser's banks.rb); UBA's
# file has an empty owner password and opens without one.
PASSWORDS = {"ng_firstbank-pdf-valid.pdf": "19856"}
_DATE = re.compile(r"^\s*(\d{1,2}[-/ ](?:\d{1,2}|[A-Za-z]{3})[-/ ]\d{2,4}|\d{4}-\d{2}-\d{2})\b")
_MONEY = re.compile(r"(?<![\d.])-?(?:\d{1,3}(?:,\d{3})*)?\.\d{2}\b")
_NOT_A_ROW = re.compile(
    r"b/f|brought forward|carried forward|opening balance|closing balance|total debit", re.I
)


def folder() -> Path | None:
    path = Path(
        sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HAKIKI_REAL_STATEMENTS", "/work/real")
    )
    return path if path.is_dir() else None


def _reader(data: bytes, password: str | None) -> pypdf.PdfReader | None:
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            reader.decrypt(password or "")
        _ = len(reader.pages)
        return reader
    except Exception:  # an "invalid" fixture may be no PDF at all
        return None


def visible_rows(reader: pypdf.PdfReader) -> int:
    """Lines that start with a date and carry an amount and a balance, counted on pypdf's
    layout text (not the engine's reading): balance lines and totals are not rows."""
    count = 0
    for page in reader.pages:
        for line in page.extract_text(extraction_mode="layout").splitlines():
            if _DATE.match(line) and len(_MONEY.findall(line)) >= 2:
                count += not _NOT_A_ROW.search(line)
    return count


def proof(rows: list[Transaction]) -> str:
    """Opening + credits - debits = closing to the cent, and the links of the chain."""
    if not rows or rows[0].balance is None or rows[-1].balance is None:
        return "-"
    opening = rows[0].balance - rows[0].paid_in + rows[0].withdrawn
    credits, debits = sum(t.paid_in for t in rows), sum(t.withdrawn for t in rows)
    closes = opening + credits - debits == rows[-1].balance
    links = [
        a.balance + b.paid_in - b.withdrawn == b.balance
        for a, b in itertools.pairwise(rows)
        if a.balance is not None and b.balance is not None
    ]
    return f"{'yes' if closes else 'NO'} ({sum(links)}/{len(links)} links)"


def bank_pdf_part(path: Path) -> None:
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # the "invalid" fixtures are not PDFs
    print("## Bank statement PDFs\n")
    print(
        "| file | producer | pages | rows visible | rows read | open+in-out=close "
        "| stated totals | verdict / refusal | signals |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for file in sorted(path.glob("ng_*.pdf")):
        data = file.read_bytes()
        password = PASSWORDS.get(file.name)
        reader = _reader(data, password)
        producer = str(reader.metadata.producer) if reader and reader.metadata else "-"
        pages = len(reader.pages) if reader else "-"
        visible = visible_rows(reader) if reader else "-"
        try:
            result = analyse(data, password=password)
        except Refused as refused:
            print(
                f"| {file.name} | {producer} | {pages} | {visible} | - | - | - "
                f"| refused `{refused.code}` | - |"
            )
            continue
        rows = result.statement.transactions
        stated = "agree" if "TOTAL" in result.statement.summary else "none stated"
        codes = [s.code for s in result.signals]
        if "summary_mismatch" in codes:
            stated = "DISAGREE"
        print(
            f"| {file.name} | {producer} | {pages} | {visible} | {len(rows)} "
            f"({result.statement.layout}) | {proof(rows)} | {stated} | {result.verdict} "
            f"| {', '.join(codes) or '-'} |"
        )
    print()
    look_alike_facts(path)
    speed()


def look_alike_facts(path: Path) -> None:
    """The facts the look-alikes copy, real against synthetic (the bank reader must exist)."""
    try:
        from tests.statements import bank_documents as looks

        from hakiki.engines.statements import bank_pdf, pdf_reader
    except ImportError:
        return
    print("## Real bank PDFs against their look-alikes\n")
    print("| bank | producer real / look-alike | column titles read, real / look-alike |")
    print("|---|---|---|")
    for look in looks.NIGERIAN:
        file = path / f"ng_{look.bank}-pdf-valid.pdf"
        if not file.exists():
            continue
        titles = []
        for data, password in (
            (file.read_bytes(), PASSWORDS.get(file.name)),
            (looks.statement_pdf(look, looks.rows(12)), _look_password(look)),
        ):
            pdf = pdf_reader.open_pdf(data, password)
            try:
                found = None
                for page in pdf_reader.pages(pdf):
                    found = bank_pdf.find_header(page.lines)
                    if found:
                        break
            finally:
                pdf.close()
            titles.append(
                " · ".join(c.title for c in found[0].columns if c.field) if found else "-"
            )
        reader = _reader(file.read_bytes(), PASSWORDS.get(file.name))
        real = str(reader.metadata.producer) if reader and reader.metadata else "-"
        same = "same" if real == look.producer else f"{real} / {look.producer}"
        print(f"| {look.bank} | {same} | {titles[0]} / {titles[1]} |")
    print()


def speed() -> None:
    """CPU seconds for a 117-page bank statement look-alike (3,276 rows), one core."""
    try:
        from tests.statements import bank_documents as looks
    except ImportError:
        return
    import time

    print("## A 117-page bank statement\n")
    print("| look-alike | pages | rows read | CPU s |")
    print("|---|---|---|---|")
    for look in (looks.UBA, looks.ECOBANK, looks.EQUITY):
        data = looks.statement_pdf(look, looks.rows(117 * 28, seed=2))
        started = time.process_time()
        try:
            read = str(len(analyse(data).statement.transactions))
        except Refused as refused:
            read = f"refused `{refused.code}`"
        print(f"| {look.bank} | 117 | {read} | {time.process_time() - started:.2f} |")
    print()


def _look_password(look: object) -> str | None:
    owner = getattr(look, "owner_password", None)
    return owner or getattr(look, "user_password", None) if owner != "" else None


def main() -> None:
    path = folder()
    if path is None:
        print("no folder of real statements (set HAKIKI_REAL_STATEMENTS)")
        return
    bank_pdf_part(path)


if __name__ == "__main__":
    main()
