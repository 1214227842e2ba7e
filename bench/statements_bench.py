"""Benchmark statement analysis on one core: a 12-month M-Pesa full statement of 5,000
transactions (generated with reportlab in the layout read, tests/statements/documents.py),
analysed whole (open, read every page, metrics, score, signals) ``--repeat`` times, plain and
locked with a password.

    uv run --group dev python bench/statements_bench.py
    uv run --group dev python bench/statements_bench.py --transactions 10000 --repeat 1
    uv run --group dev python bench/statements_bench.py --pages 117 --era openpdf  # issue 31
    uv run --group dev python bench/statements_bench.py --pages 117 --era itext
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.statements import documents as d  # noqa: E402

from hakiki.engines.statements import analyse  # noqa: E402


def rows_for_pages(pages: int, era: str) -> list[d.Row]:
    """Rows enough for a statement of ``pages`` pages in the look of ``era``."""
    count = pages * 40
    while True:
        made = rows(count)
        printed = d.mpesa_look.page_count(made, d.mpesa_look.ERAS[era])
        if printed >= pages:
            while d.mpesa_look.page_count(made, d.mpesa_look.ERAS[era]) > pages:
                made = made[: len(made) - 20]
            return made
        count = int(count * pages / printed) + 20


def rows(count: int) -> list[d.Row]:
    """``count`` rows over 12 months (the generator adds a charge row to most transfers)."""
    made = d.mpesa_rows(int(count * 0.8), 12, seed=1)
    while len(made) < count:
        made = d.mpesa_rows(int(len(made) * 1.1), 12, seed=1)
    return made[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transactions", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", type=int, help="as many rows as fill this many pages")
    parser.add_argument("--era", choices=("openpdf", "itext"), default="openpdf")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    statement = rows_for_pages(args.pages, args.era) if args.pages else rows(args.transactions)
    files = {
        "plain": d.mpesa_pdf(statement, era=args.era),
        "locked": d.mpesa_pdf(statement, password=d.ID_NUMBER, era=args.era),
    }
    first, last = statement[0].time.date(), statement[-1].time.date()
    print(f"{len(statement):,} transactions, {first} to {last}, {args.era} look")
    for name, data in files.items():
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            analysis = analyse(data, password=d.ID_NUMBER if name == "locked" else None)
            times.append(time.perf_counter() - started)
        assert analysis.verdict == "genuine", [s.code for s in analysis.signals]
        assert len(analysis.statement.transactions) == len(statement)
        pages = analysis.statement.pdf.pages if analysis.statement.pdf else 0
        print(
            f"{name:7} {len(data) / 1e6:5.2f} MB {pages:4d} pages  "
            f"median {statistics.median(times):6.2f} s  min {min(times):6.2f} s  "
            f"max {max(times):6.2f} s"
        )


if __name__ == "__main__":
    main()
