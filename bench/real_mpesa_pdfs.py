"""Real statements through the engine, when they are at hand (HAKIKI_REAL_STATEMENTS, default
/work/real; people's data: never committed, only nicknames printed): per file, the rows
visible vs read, the statement's own totals vs ours, the verdict and the signals; then doctored
copies made the way applicants make them, each with the signal that caught it; then the
generator facts of the real files vs our look-alikes (tests/statements/mpesa_look.py).

    uv run --group dev python bench/real_mpesa_pdfs.py
    PYTHONPATH=/path/to/main/src uv run --group dev python bench/real_mpesa_pdfs.py --rows-only

``--rows-only`` prints only the reading table (it runs on an older tree, e.g. main, to give the
"before" column).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pypdfium2 as pdfium  # noqa: E402

from hakiki.engines.statements import analyse, signals  # noqa: E402
from hakiki.engines.statements.model import Refused  # noqa: E402
from hakiki.engines.statements.money import show, to_minor  # noqa: E402

REAL = Path(os.environ.get("HAKIKI_REAL_STATEMENTS", "/work/real"))
# nickname, file, password (published beside the file), the generator our look-alike imitates
MPESA_PDFS = [
    ("mpesa-2023-openpdf", "murega_2023.pdf", "900365", "openpdf"),
    ("mpesa-2022-itext", "billmuriu_2022.pdf", "34915463", "itext"),
]
_ROW = re.compile(r"\b[A-Z0-9]{10}\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")
_TOTAL = re.compile(r"TOTAL:?\s+([\d,]+\.\d\d)\s+([\d,]+\.\d\d)")


def visible(data: bytes, password: str | None) -> tuple[int, tuple[int, int] | None]:
    """What a reader of the printed page sees, by PDFium's plain text (not our reader): the
    rows (a receipt followed by its completion time) and the summary's TOTAL."""
    document = pdfium.PdfDocument(data, password=password)
    rows, total = 0, None
    try:
        for index in range(len(document)):
            page = document[index]
            text = page.get_textpage().get_text_range()
            rows += len(_ROW.findall(text))
            if total is None and (m := _TOTAL.search(text)):
                total = (to_minor(m.group(1)) or 0, to_minor(m.group(2)) or 0)
            page.close()
    finally:
        document.close()
    return rows, total


def read(data: bytes, password: str | None) -> dict[str, Any]:
    try:
        analysis = analyse(data, password=password)
    except Refused as refused:
        return {"refused": refused.code}
    rows = analysis.statement.transactions
    return {
        "layout": analysis.statement.layout,
        "rows": len(rows),
        "totals": (sum(t.paid_in for t in rows), sum(t.withdrawn for t in rows)),
        "verdict": analysis.verdict,
        "signals": sorted(f"{s.code}({s.severity})" for s in analysis.signals),
        "analysis": analysis,
    }


def pair(total: tuple[int, int] | None) -> str:
    return "-" if total is None else f"{show(total[0])} / {show(total[1])}"


def mpesa_pdf_rows() -> None:
    """The reading table for the real M-Pesa PDFs."""
    print(
        "| file | rows visible | rows read | summary TOTAL (in / out) | ours | verdict | signals |"
    )
    print("|---|---|---|---|---|---|---|")
    for nickname, name, password, _ in MPESA_PDFS:
        path = REAL / name
        if not path.exists():
            print(f"| {nickname} | (not here) |")
            continue
        data = path.read_bytes()
        seen, total = visible(data, password)
        got = read(data, password)
        if "refused" in got:
            print(f"| {nickname} | {seen} | 0 | {pair(total)} | - | {got['refused']} | - |")
            continue
        agree = "=" if got["totals"] == total else "≠"
        print(
            f"| {nickname} | {seen} | {got['rows']} | {pair(total)} | {agree} "
            f"{pair(got['totals'])} | {got['verdict']} | {', '.join(got['signals']) or '-'} |"
        )


def mpesa_pdf_doctored() -> None:
    """Each real M-Pesa PDF unlocked as applicants do, then doctored the ways they do."""
    from tests.statements import documents as d

    unlocker = "3-Heights(TM) PDF Security Shell 4.12.26.3 (http://www.pdf-tools.com)"
    print("| file | copy | verdict | verdict without the chain | signals (evidence) |")
    print("|---|---|---|---|---|")
    for nickname, name, password, _era in MPESA_PDFS:
        path = REAL / name
        if not path.exists():
            continue
        genuine = path.read_bytes()
        got = read(genuine, password)
        statement = got["analysis"].statement
        created = statement.pdf.created if statement.pdf else None
        later = created + timedelta(minutes=12, seconds=36) if created else None
        unlocked = d.resaved(
            genuine,
            unlocker,
            creator=statement.pdf.creator if statement.pdf else None,
            modified=later.strftime("D:%Y%m%d%H%M%S+03'00'") if later else None,
            password=password,
        )
        target = next(
            t
            for t in statement.transactions[len(statement.transactions) // 2 :]
            if t.balance and [x.balance for x in statement.transactions].count(t.balance) == 1
        )
        old, new = show(target.balance or 0), show((target.balance or 0) + 10_000_00)
        copies = {
            "unlocked by 3-Heights": unlocked,
            "unlocked, an amount painted over": d.painted_over(unlocked, old, new),
            "unlocked, page 2 removed": d.page_removed(unlocked, 2),
            "unlocked, an amount painted over, saved incrementally": d.painted_over(
                unlocked, old, new, incremental=True
            ),
            "re-exported by a word processor (its metadata)": d.resaved(
                genuine, "LibreOffice 7.3", creator="Draw", password=password
            ),
        }
        for label, data in copies.items():
            result = read(data, None)
            others = [s for s in result["analysis"].signals if s.code != "balance_break"]
            evidence = [f"{s.code}({s.severity}) {_short(s.evidence)}" for s in others]
            print(
                f"| {nickname} | {label} | {result['verdict']} | {signals.verdict(others)} | "
                f"{'; '.join(evidence) or '-'} |"
            )


def _short(evidence: dict[str, Any]) -> str:
    """The evidence without the statement's own values (amounts, receipts): nicknames only."""
    if "places" in evidence:
        place = evidence["places"][0]
        return str({k: ("<amount>" if k in ("hidden", "shown") else v) for k, v in place.items()})
    hide = ("creator", "foreign_fonts", "summary_paid_in", "summary_paid_out")
    keep = {k: ("<...>" if k in hide or "transactions_" in k else v) for k, v in evidence.items()}
    return str(keep)[:200]


def mpesa_pdf_facts() -> None:
    """The generator facts of each real file against our look-alike's."""
    from tests.statements import documents as d
    from tests.statements import generator_facts

    rows = d.mpesa_rows(150, 3, seed=11, quirks=True)
    for nickname, name, password, era in MPESA_PDFS:
        path = REAL / name
        if not path.exists():
            continue
        real = generator_facts.facts(path.read_bytes(), password)
        ours = generator_facts.facts(d.mpesa_pdf(rows, era=era, password=password), password)
        print(f"\n{nickname} vs our {era} look-alike")
        print("| fact | real | look-alike | |")
        print("|---|---|---|---|")
        for key, value in real.items():
            shown = "(names people)" if key == "creator" and era == "itext" else value
            same = "same" if value == ours[key] else "differs"
            print(f"| {key} | {shown} | {ours[key]} | {same} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows-only", action="store_true")
    args = parser.parse_args()
    mpesa_pdf_rows()
    if not args.rows_only:
        print()
        mpesa_pdf_doctored()
        mpesa_pdf_facts()


if __name__ == "__main__":
    main()
