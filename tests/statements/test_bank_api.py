"""Bank statement PDFs over HTTP: a look-alike of a bank's statement is read by the generic
bank reader, and one whose balances do not prove the reading fails with its code, uncharged."""

from __future__ import annotations

from dataclasses import replace

import httpx

from hakiki.core.database import Database
from tests.conftest import AccountFactory, debit_count
from tests.statements import bank_documents as b
from tests.statements.conftest import analyze, finished, post_statement

PRICE = 5000


async def test_a_bank_statement_pdf_is_read_and_an_unproven_one_fails_uncharged(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=2 * PRICE)
    rows = b.rows(30, seed=8)
    started = await analyze(client, account.headers, b.statement_pdf(b.ECOBANK, rows))
    done = await finished(client, account.headers, started["analysis_id"], page_size=50)
    assert (done["state"], done["layout"], done["verdict"]) == (
        "completed", "bank_pdf_v1", "genuine",
    )  # fmt: skip
    assert [t["balance"] for t in done["transactions"]] == [r.balance for r in rows]
    assert done["charged_amount"] == PRICE

    scrambled = [replace(r, balance=r.balance + 3 * i) for i, r in enumerate(rows)]
    started = await analyze(client, account.headers, b.statement_pdf(b.ECOBANK, scrambled))
    done = await finished(client, account.headers, started["analysis_id"])
    assert (done["state"], done["failure_code"], done["charged_amount"]) == (
        "failed", "unproven_reading", 0,
    )  # fmt: skip
    assert "balances do not follow" in done["failure_reason"]
    assert await debit_count(db, account.org_id) == 1

    hello = await post_statement(client, account.headers, b"%PDF-1.4\n" + b"x" * 10)
    assert hello.status_code == 400
