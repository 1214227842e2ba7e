"""Statement analysis over HTTP on both databases: sandbox and live, the job's result, one
charge per analysis and none when refused, duplicates, another organisation's id, hostile
uploads, the webhook, the file encrypted at rest and deleted after the retention."""

from __future__ import annotations

import io
import zipfile
from functools import cache
from typing import Any

import httpx
import orjson
import pytest
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook

from hakiki.core.database import Database
from hakiki.statements import service
from hakiki.statements.tables import statement_analyses
from tests.conftest import AccountFactory, debit_count, unique
from tests.fraud.bulk.conftest import xlsx_bytes
from tests.statements import documents as d
from tests.statements.conftest import URL, analyze, finished, post_statement
from tests.webhooks.conftest import (  # noqa: F401  (fixtures)
    _forget_endpoints,
    create_endpoint,
    eventually,
    receiver,
)
from tests.webhooks.receiver import Receiver

PRICE = 5000


@cache
def rows() -> list[d.Row]:
    return d.mpesa_rows(80, 3, seed=5)


@cache
def genuine() -> bytes:
    return d.mpesa_pdf(rows())


async def stored(db: Database, analysis_id: str) -> dict[str, Any]:
    async with db.reader.connect() as conn:
        row = (
            await conn.execute(
                select(statement_analyses).where(statement_analyses.c.id == analysis_id)
            )
        ).one()
    return dict(row._mapping)


async def test_sandbox_genuine_statement_completes_with_metrics_and_the_webhook(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    receiver: Receiver,  # noqa: F811  (the fixture)
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    started = await analyze(
        client, account.headers, genuine(), statement_type="mpesa",
        declared_name="Jane Mwangi", declared_phone="254722000111",
    )  # fmt: skip
    assert started["live"] is False and started["price"] == 0 and started["duplicate_of"] is None
    done = await finished(client, account.headers, started["analysis_id"], page_size=10)
    assert done["state"] == "completed" and done["progress"] == 100, done
    assert (done["verdict"], done["signals"], done["layout"]) == ("genuine", [], "mpesa_openpdf_v1")
    assert done["charged_amount"] == 0
    assert done["holder"]["name"] == d.NAME and done["holder"]["phone"] == d.PHONE
    assert done["pagination"]["total_items"] == len(rows()) and len(done["transactions"]) == 10
    assert done["transactions"][0]["receipt"] == rows()[0].receipt  # oldest first
    assert done["summary"]["TOTAL"]["paid_in"] == sum(r.paid_in for r in rows())
    metrics = done["metrics"]
    assert metrics["total_inflow"] == sum(r.paid_in for r in rows())
    assert metrics["income"]["regularity"] > 0 and metrics["betting"]["outflow"] > 0
    assert 300 <= done["score"]["score"] <= 850 and done["score"]["reasons"]
    pages = {"page": done["pagination"]["total_pages"], "page_size": 10}
    last = await client.get(
        f"{URL}/{started['analysis_id']}", params=pages, headers=account.headers
    )
    assert last.json()["data"]["transactions"][-1]["receipt"] == rows()[-1].receipt

    delivered = await eventually(lambda: receiver.accepted())
    event = delivered[0].json
    assert event["type"] == "statement_analysis.completed" and delivered[0].problem is None
    assert event["data"] == {
        "analysis_id": started["analysis_id"], "status": "completed", "verdict": "genuine",
    }  # fmt: skip


async def test_the_callback_url_gets_the_completed_event_signed_with_its_own_secret(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    receiver: Receiver,  # noqa: F811  (the fixture)
) -> None:
    account = await make_account("sandbox")
    key = {"Idempotency-Key": unique("stmt-callback"), **account.headers}
    started = await analyze(
        client, key, genuine(), statement_type="mpesa", callback_url=receiver.url
    )
    secret = started["callback_secret"]
    assert secret.startswith("whsec_") and len(secret) > 40
    replayed = await analyze(
        client, key, genuine(), statement_type="mpesa", callback_url=receiver.url
    )
    assert replayed["callback_secret"] == secret  # the replay is the stored answer, not a new one
    receiver.secrets = [secret]
    await finished(client, account.headers, started["analysis_id"])
    delivered = await eventually(lambda: receiver.accepted())
    assert len(delivered) == 1 and delivered[0].problem is None
    event = Webhook(secret).verify(delivered[0].body, delivered[0].headers)
    assert event["type"] == "statement_analysis.completed" and event["sequence"] == 1
    assert event["data"]["analysis_id"] == started["analysis_id"]
    listed = await client.get("/v3/account/webhooks", headers=account.headers)
    assert listed.json()["data"] == []  # a callback is not one of the organisation's endpoints
    plain = await analyze(client, account.headers, genuine(), statement_type="mpesa")
    assert plain["callback_secret"] is None


@pytest.mark.parametrize(
    ("sample", "form", "verdict", "signals"),
    [
        ("mpesa-genuine.pdf", {"declared_name": "PETER OTIENO", "declared_phone": "0733999888"},
         "suspicious", {"declared_name_mismatch", "declared_phone_mismatch"}),
        ("mpesa-tampered.pdf", {}, "tampered", {"overlaid_text", "balance_break"}),
        ("mpesa-locked.pdf", {"password": "12345678"}, "genuine", set()),
    ],
)  # fmt: skip
async def test_the_sandbox_samples_give_their_documented_verdicts(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    sample: str,
    form: dict[str, str],
    verdict: str,
    signals: set[str],
) -> None:
    from importlib import resources

    data = (resources.files("hakiki.statements") / "sandbox_data" / sample).read_bytes()
    account = await make_account("sandbox")
    started = await analyze(client, account.headers, data, statement_type="mpesa", **form)
    done = await finished(client, account.headers, started["analysis_id"])
    assert done["verdict"] == verdict, done["signals"]
    assert {s["code"] for s in done["signals"]} == signals


async def test_live_analysis_is_charged_once_and_a_refused_file_never(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=3 * PRICE)
    scanned = await post_statement(client, account.headers, d.scanned_pdf())
    assert scanned.status_code == 400, scanned.text
    assert scanned.json()["details"][0] == {"field": "file", "problem": "scanned"}
    assert "scanned" in scanned.json()["message"]
    locked = d.mpesa_pdf(rows(), password=d.ID_NUMBER)
    wrong = await post_statement(client, account.headers, locked, password="99999999")
    assert wrong.status_code == 400 and wrong.json()["details"][0]["field"] == "password"
    missing = await post_statement(client, account.headers, locked)
    assert missing.json()["details"][0] == {"field": "password", "problem": "password_required"}
    assert await debit_count(db, account.org_id) == 0

    headers = {**account.headers, "Idempotency-Key": "stmt-1"}
    started = await analyze(client, headers, locked, password=d.ID_NUMBER)
    again = await post_statement(client, headers, locked, password=d.ID_NUMBER)
    assert (
        again.json()["data"]["analysis_id"] == started["analysis_id"]
    )  # replayed, not a second job
    assert started["live"] is True and started["price"] == PRICE
    done = await finished(client, account.headers, started["analysis_id"])
    assert (done["state"], done["verdict"], done["charged_amount"]) == (
        "completed", "genuine", PRICE,
    )  # fmt: skip
    assert await debit_count(db, account.org_id) == 1
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["balance"] == 2 * PRICE  # the reservation ended with the charge

    row = await stored(db, started["analysis_id"])
    assert b"%PDF" not in row["file_sealed"] and row["transaction_id"]
    request = orjson.loads(
        client._transport.app.state.runtime.vault.decrypt(row["request_encrypted"])  # type: ignore[attr-defined]
    )
    assert "password" not in request  # used once, never kept


async def test_a_pdf_of_another_layout_is_400_and_one_without_transactions_fails_uncharged(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=PRICE)
    plain = d.mpesa_pdf(rows(), compress=False)
    other = plain.replace(b"(M-PESA STATEMENT)", b"(X-PESA STATEMENT)")
    unknown = await post_statement(client, account.headers, other)
    assert unknown.status_code == 400
    assert unknown.json()["details"][0] == {"field": "file", "problem": "unsupported_layout"}
    mismatch = await post_statement(client, account.headers, plain, statement_type="airtel_money")
    assert mismatch.json()["details"][0]["field"] == "statement_type"

    headless = plain.replace(b"(Receipt No.)", b"(Receipt Nr.)")  # no transaction table found
    assert headless != plain
    started = await analyze(client, account.headers, headless)
    done = await finished(client, account.headers, started["analysis_id"])
    assert (done["state"], done["failure_code"], done["charged_amount"]) == (
        "failed", "no_transactions", 0,
    )  # fmt: skip
    assert await debit_count(db, account.org_id) == 0
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["balance"] == PRICE and wallet.get("reserved", 0) == 0
    short = await make_account("live", balance=PRICE - 1)
    refused = await post_statement(client, short.headers, genuine())
    assert refused.status_code == 402, refused.text


async def test_duplicates_name_the_earlier_analysis_by_file_and_by_statement(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    first = await analyze(client, account.headers, genuine())
    await finished(client, account.headers, first["analysis_id"])
    same_file = await analyze(client, account.headers, genuine())
    assert same_file["duplicate_of"] == first["analysis_id"]
    copy = d.resaved(genuine(), "Microsoft Word 2013")  # other bytes, the same statement
    second = await analyze(client, account.headers, copy)
    assert second["duplicate_of"] is None
    done = await finished(client, account.headers, second["analysis_id"])
    assert done["duplicate_of"] == first["analysis_id"] and done["verdict"] == "tampered"
    [duplicate] = [s for s in done["signals"] if s["code"] == "duplicate_upload"]
    assert duplicate["evidence"] == {"analysis_id": first["analysis_id"], "same": "statement"}
    other_org = await make_account("sandbox")  # another organisation: not a duplicate
    assert (await analyze(client, other_org.headers, genuine()))["duplicate_of"] is None


async def test_another_organisations_or_environments_analysis_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    owner = await make_account("sandbox")
    started = await analyze(client, owner.headers, genuine())
    stranger = await make_account("sandbox")
    for headers in (stranger.headers,):
        response = await client.get(f"{URL}/{started['analysis_id']}", headers=headers)
        assert response.status_code == 404 and response.json()["error"] == "not_found"
    huge = await client.get(
        f"{URL}/{started['analysis_id']}", params={"page": 10**12}, headers=owner.headers
    )
    assert huge.status_code == 400 and huge.json()["details"][0]["field"] == "page"
    long_id = await client.get(f"{URL}/{'x' * 5000}", headers=owner.headers)
    assert long_id.status_code in (400, 404)


def bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * 90_000_000 + b"</a>")
    return out.getvalue()


@pytest.mark.parametrize(
    ("content", "form", "field", "problem"),
    [
        (b"", {}, "file", "unreadable"),
        (b"\x00\x01\x02 not a statement", {}, "file", "unsupported_format"),
        (b"%PDF-1.4 broken", {}, "file", "unreadable"),
        (b"Date,Narration\n2024-01-01,hello\n", {}, "file", "unsupported_layout"),
        (None, {}, "file", "too_large"),
        ("xlsx", {}, "file", "unsupported_layout"),
        (b"Date,Amount\n2024-01-01,5\n", {"statement_type": "paypal"}, "statement_type", None),
        (b"Date,Amount\n2024-01-01,5\n", {"declared_name": "Jane\x00"}, "declared_name", None),
        (
            b"Date,Amount\n2024-01-01,5\n",
            {"monthly_obligations": "-5"},
            "monthly_obligations",
            None,
        ),
        (b"Date,Amount\n2024-01-01,5\n", {"callback_url": "ftp://x"}, "callback_url", None),
    ],
)
async def test_hostile_uploads_are_a_clear_400(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    content: bytes | str | None,
    form: dict[str, str],
    field: str,
    problem: str | None,
) -> None:
    account = await make_account("sandbox")
    if content == "xlsx":  # a workbook without a date and amount header
        content = xlsx_bytes([["Name", "Notes"], ["a", "b"]])
    data = bomb() if content is None else content
    assert isinstance(data, bytes)
    response = await post_statement(client, account.headers, data, **form)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] == "invalid_request" and body["details"][0]["field"] == field, body
    if problem:
        assert body["details"][0]["problem"] == problem


async def test_csv_cells_that_look_like_formulas_are_data(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    sheet = (
        b"Date,Description,Credit,Debit,Balance\n"
        b"2024-01-02,=cmd|' /C calc'!A0,100.00,,100.00\n"
        b"2024-01-03,@SUM(1+1),,40.00,60.00\n"
    )
    started = await analyze(client, account.headers, sheet, statement_type="bank")
    done = await finished(client, account.headers, started["analysis_id"])
    assert done["verdict"] == "genuine" and done["file_format"] == "csv"
    assert [t["details"] for t in done["transactions"]] == ["=cmd|' /C calc'!A0", "@SUM(1+1)"]


async def test_files_are_deleted_after_the_retention_and_metrics_for_reads_the_result(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    started = await analyze(client, account.headers, genuine())
    await finished(client, account.headers, started["analysis_id"])
    runtime = client._transport.app.state.runtime  # type: ignore[attr-defined]
    view = await service.metrics_for(runtime, account.org_id, "sandbox", started["analysis_id"])
    assert view is not None and view["verdict"] == "genuine"
    assert view["score"]["score"] and view["metrics"]["transactions"] == len(rows())
    assert (
        await service.metrics_for(runtime, account.org_id, "live", started["analysis_id"]) is None
    )
    assert await service.purge_files(db, 1.0) == 0  # not yet past the retention
    assert await service.purge_files(db, 0.0000001) >= 1
    row = await stored(db, started["analysis_id"])
    assert row["file_sealed"] is None and row["file_deleted_at"] is not None
    done = await finished(client, account.headers, started["analysis_id"])
    assert done["file_deleted"] is True and done["verdict"] == "genuine"


async def test_limits_of_size_and_rows_are_400_and_a_body_past_the_form_limit_413(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    from tests.fraud.bulk.conftest import changed

    account = await make_account("sandbox")
    settings = client._transport.app.state.runtime.settings  # type: ignore[attr-defined]
    sheet = b"Date,Amount,Balance\n" + b"2024-01-01,5.00,5.00\n" * 30
    with changed(settings, statement_max_rows=10):
        rows_over = await post_statement(client, account.headers, sheet)
    assert rows_over.status_code == 400 and "more than 10 rows" in rows_over.json()["message"]
    with changed(settings, statement_max_bytes=2048):
        bytes_over = await post_statement(client, account.headers, genuine())
        body_over = await post_statement(client, account.headers, b"x" * (2 * 1024 * 1024))
    assert bytes_over.status_code == 400 and "2,048-byte limit" in bytes_over.json()["message"]
    assert body_over.status_code == 413 and body_over.json()["error"] == "payload_too_large"
