"""Hostile statement PDFs (issue 30): bombs the inflate cap did not see, an xref stream that
kept the upload check busy for hours, one organisation's analysis holding up another's upload,
malformed files that were 500s, undecodable form fields, and active content read as genuine.
Every file is read in a child process under memory and time limits
(hakiki.statements.confined); these tests send the files through the API as a customer
would."""

from __future__ import annotations

import asyncio
import io
from functools import cache

import httpx
import pypdf
import pytest
from pypdf.generic import NameObject, StreamObject

from hakiki.core.database import Database
from tests.conftest import AccountFactory, debit_count
from tests.fraud.bulk.conftest import changed
from tests.statements import documents as d
from tests.statements import hostile
from tests.statements.conftest import URL, analyze, finished, post_statement

PASSWORD = "12345678"
SMALL_MEMORY_MB = 256  # the child's address space in these tests: a bomb hits it at once


def settings_of(client: httpx.AsyncClient) -> object:
    return client._transport.app.state.runtime.settings  # type: ignore[attr-defined]


def refused(response: httpx.Response, field: str, problem: str) -> str:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] == "invalid_request", body
    assert body["details"][0] == {"field": field, "problem": problem}, body
    message: str = body["message"]
    return message


@cache
def genuine() -> bytes:
    return d.mpesa_pdf(d.mpesa_rows(60, 2, seed=3))


@pytest.mark.parametrize("kind", ["chained", "encrypted"])
async def test_an_inflate_bomb_behind_a_filter_chain_or_encryption_is_refused_too_large(
    client: httpx.AsyncClient, make_account: AccountFactory, kind: str
) -> None:
    """Finding 1: the inflate cap skipped these; PDFium inflated them in the server."""
    account = await make_account("sandbox")
    if kind == "chained":
        bomb, form = hostile.chained_bomb(400 * 2**20), {}
    else:
        bomb, form = hostile.encrypted_bomb(400 * 2**20, PASSWORD), {"password": PASSWORD}
    with changed(settings_of(client), statement_reader_memory_mb=SMALL_MEMORY_MB):
        response = await post_statement(client, account.headers, bomb, **form)
    message = refused(response, "file", "too_large")
    assert f"more than the {SMALL_MEMORY_MB} MB" in message


async def test_a_bomb_past_the_pages_the_upload_looks_at_fails_the_job_uncharged(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    """The analysis reads every page in a child under the same limit: it fails once, too
    large, uncharged, its reservation released (not retried, not charged)."""
    account = await make_account("live", balance=5000)
    # past the 3 pages looked at; the 2022 look embeds no font, so the file's other streams
    # add nothing to the bomb's 400 MB that the upload counts
    statement = d.mpesa_pdf(d.mpesa_rows(300, 3, seed=3), era="itext")
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(statement)))
    assert len(writer.pages) > 3
    page = writer.add_blank_page()
    content = StreamObject()
    content._data = hostile.zeros(400 * 2**20)
    content[NameObject("/Filter")] = NameObject("/FlateDecode")
    page[NameObject("/Contents")] = writer._add_object(content)
    out = io.BytesIO()
    writer.write(out)
    with changed(settings_of(client), statement_reader_memory_mb=SMALL_MEMORY_MB):
        started = await analyze(client, account.headers, out.getvalue())
        done = await finished(client, account.headers, started["analysis_id"])
    assert (done["state"], done["failure_code"], done["charged_amount"]) == (
        "failed", "too_large", 0,
    )  # fmt: skip
    assert f"more than the {SMALL_MEMORY_MB} MB" in done["failure_reason"]
    assert await debit_count(db, account.org_id) == 0
    wallet = (await client.get("/v3/account/wallet", headers=account.headers)).json()
    assert wallet["balance"] == 5000  # the reservation released


async def test_an_xref_stream_claiming_10_to_the_8_entries_is_refused_at_once(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """Finding 2: 117 bytes that pypdf walked for hours, a warning logged per entry."""
    account = await make_account("sandbox")
    bomb = hostile.xref_bomb()
    assert len(bomb) < 150
    response = await asyncio.wait_for(post_statement(client, account.headers, bomb), 30)
    assert "100,000,000 objects" in refused(response, "file", "too_large")


async def test_a_file_slower_to_read_than_the_time_limit_is_refused_and_its_reader_killed(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """Under the object limit but slow to walk: the child is killed at the time limit."""
    account = await make_account("sandbox")
    with changed(settings_of(client), statement_reader_check_seconds=0.3):
        response = await post_statement(client, account.headers, hostile.xref_bomb(150_000))
    assert "longer than the 0.3 s" in refused(response, "file", "too_large")


async def test_another_organisations_upload_is_answered_while_an_analysis_runs(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """Finding 5: one process-wide PDFium lock held for a whole analysis made every other
    upload wait for it; each file now has a process, and PDFium, of its own."""
    big, small = await make_account("sandbox"), await make_account("sandbox")
    started = await analyze(client, big.headers, long_statement())
    while (state := await _state(client, big.headers, started["analysis_id"]))["progress"] <= 5:
        assert state["state"] in ("pending", "processing"), state
        await asyncio.sleep(0.02)
    answered = await post_statement(client, small.headers, genuine())
    assert answered.status_code == 202, answered.text
    running = await _state(client, big.headers, started["analysis_id"])
    assert running["state"] == "processing", running  # answered before the analysis ended
    done = await finished(client, big.headers, started["analysis_id"])
    assert done["state"] == "completed" and done["progress"] == 100


@cache
def long_statement() -> bytes:
    return d.mpesa_pdf(d.mpesa_rows(1400, 6, seed=11))


async def _state(client: httpx.AsyncClient, headers: dict[str, str], analysis_id: str) -> dict:
    response = await client.get(f"{URL}/{analysis_id}", params={"page_size": 1}, headers=headers)
    assert response.status_code == 200, response.text
    found: dict = response.json()["data"]
    return found


@pytest.mark.parametrize("name", sorted(hostile.malformed()))
async def test_a_malformed_pdf_is_a_clear_400(
    client: httpx.AsyncClient, make_account: AccountFactory, name: str
) -> None:
    """Finding 11: an unknown /Encrypt filter, /V 9, a /Root or /Encrypt that is no
    dictionary, or a bad date made pypdf raise what the upload did not catch: 500s."""
    account = await make_account("sandbox")
    for password in (None, PASSWORD):
        form = {"password": password} if password else {}
        response = await post_statement(client, account.headers, hostile.malformed()[name], **form)
        assert response.status_code == 400, response.text
        detail = response.json()["details"][0]
        assert detail["field"] == "file" and detail["problem"] in ("unreadable", "scanned")


async def test_a_statement_with_a_bad_date_is_read_without_the_date(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(genuine())))
    writer.add_metadata({"/CreationDate": "D:2024134099+99'99'"})
    out = io.BytesIO()
    writer.write(out)
    started = await analyze(client, account.headers, out.getvalue())
    done = await finished(client, account.headers, started["analysis_id"])
    assert done["state"] == "completed", done


@pytest.mark.parametrize(
    ("javascript", "attachment", "kinds"),
    [
        (True, False, ["javascript"]),
        (False, True, ["embedded_file"]),
        (True, True, ["embedded_file", "javascript"]),
    ],
)
async def test_javascript_or_an_embedded_file_is_the_active_content_signal(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    javascript: bool,
    attachment: bool,
    kinds: list[str],
) -> None:
    account = await make_account("sandbox")
    carrying = hostile.with_active_content(genuine(), javascript, attachment)
    started = await analyze(client, account.headers, carrying)
    done = await finished(client, account.headers, started["analysis_id"])
    [signal] = [s for s in done["signals"] if s["code"] == "active_content"]
    assert signal["severity"] == "medium" and signal["evidence"] == {"kinds": kinds}
    assert done["verdict"] == "suspicious", done["signals"]
    plain = await analyze(client, account.headers, genuine())
    assert (await finished(client, account.headers, plain["analysis_id"]))["verdict"] == "genuine"


@pytest.mark.parametrize(
    "field", ["password", "statement_type", "declared_name", "declared_phone", "callback_url"]
)
async def test_undecodable_bytes_in_a_form_field_are_a_400_naming_it(
    client: httpx.AsyncClient, make_account: AccountFactory, field: str
) -> None:
    """Finding 19: the multipart parser read bytes that are not UTF-8 as Latin-1."""
    account = await make_account("sandbox")
    boundary = "hakikiboundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"\r\n\r\n'.encode()
        + b"caf\xe9\xff"
        + f"\r\n--{boundary}\r\n"
        'Content-Disposition: form-data; name="file"; filename="s.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
        "Date,Amount,Balance\n2024-01-01,5.00,5.00\n"
        f"\r\n--{boundary}--\r\n".encode()
    )
    response = await client.post(
        f"{URL}/analyze",
        content=body,
        headers={**account.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status_code == 400, response.text
    detail = response.json()["details"][0]
    assert detail["field"] == field and "UTF-8" in detail["problem"], response.json()
