"""PDFium is not thread-safe: the server analyses statements in worker threads (the upload's
precheck and the job), so concurrent analyses must not crash the process (they did: a segfault
in FPDF_LoadPage) and must give the same answer as one alone."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from hakiki.engines.statements import analyse, precheck
from hakiki.engines.statements.pdf_reader import PDFIUM_LOCK
from hakiki.engines.statements.tabular import Limits
from tests.statements import documents as d


def test_concurrent_analyses_and_prechecks_agree_with_one_alone() -> None:
    pdf = d.mpesa_pdf(d.mpesa_rows(60, 2, seed=11))
    alone = analyse(pdf)
    start = threading.Barrier(6)

    def one(n: int) -> tuple[str, int] | str:
        start.wait()
        if n % 2:
            return precheck(pdf, "mpesa", None, Limits())
        result = analyse(pdf)
        return result.verdict, len(result.statement.transactions)

    for _round in range(10):  # without the lock, a crash came within a few rounds here
        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(one, range(6)))
        assert answers[0::2] == [(alone.verdict, len(alone.statement.transactions))] * 3
        assert answers[1::2] == ["pdf"] * 3
    assert not PDFIUM_LOCK.locked()
