"""Statement sheets over HTTP (an HTML-table .xls, an M-Pesa CSV export, a column of dates
that cannot be read one way only) and the listing of an organisation's analyses."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import AccountFactory
from tests.statements import sheets
from tests.statements.conftest import URL, analyze, finished, post_statement


async def test_a_gtbank_html_xls_completes_genuine(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    opening, lines = sheets.bank_lines()
    page = await analyze(client, account.headers, sheets.gtb_html(opening, lines))
    assert page["file_format"] == "html"
    done = await finished(client, account.headers, page["analysis_id"], page_size=100)
    assert done["state"] == "completed" and done["layout"] == "html_columns_v2"
    assert done["verdict"] == "genuine" and len(done["transactions"]) == len(lines)


async def test_an_mpesa_csv_export_completes_genuine_with_its_savings(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    export = await analyze(client, account.headers, sheets.mpesa_csv(sheets.mpesa_lines()))
    done = await finished(client, account.headers, export["analysis_id"])
    assert done["verdict"] == "genuine" and done["signals"] == []
    assert done["metrics"]["categories"]["savings"]["count"] > 0


async def test_dates_readable_both_ways_are_a_400_that_says_so(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    sheet = (
        b"Date,Details,Amount,Balance\n"
        b"01/02/2024,Deposit,100.00,100.00\n"
        b"02/03/2024,Deposit,100.00,200.00\n"
        b"03/04/2024,Deposit,100.00,300.00\n"
    )
    response = await post_statement(client, account.headers, sheet, name="statement.csv")
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["details"] == [{"field": "file", "problem": "ambiguous_dates"}]
    assert "day-month and as month-day" in body["message"]


async def test_the_list_of_analyses_is_the_organisations_newest_first_with_filters(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    owner = await make_account("sandbox")
    stranger = await make_account("sandbox")
    lines = sheets.mpesa_lines()
    genuine = await analyze(client, owner.headers, sheets.mpesa_csv(lines))
    await finished(client, owner.headers, genuine["analysis_id"])
    await asyncio.sleep(0.01)  # distinct creation times
    target = next(x for x in lines if x.details.startswith("Funds received"))
    edited = sheets.with_edit(lines, target.receipt, target.paid_in + 1_000_00)
    tampered = await analyze(client, owner.headers, sheets.mpesa_csv(edited))
    await finished(client, owner.headers, tampered["analysis_id"])
    await analyze(client, stranger.headers, sheets.mpesa_csv(lines))

    listed = await client.get(URL, headers=owner.headers)
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert [a["analysis_id"] for a in body["data"]] == [
        tampered["analysis_id"],
        genuine["analysis_id"],
    ]
    assert body["pagination"] == {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 2}
    assert "transactions" not in body["data"][0] and body["data"][0]["verdict"] == "tampered"

    async def ids(**params: str) -> list[str]:
        response = await client.get(URL, params=params, headers=owner.headers)
        assert response.status_code == 200, response.text
        return [a["analysis_id"] for a in response.json()["data"]]

    assert await ids(verdict="genuine") == [genuine["analysis_id"]]
    assert await ids(status="completed", page_size="1", page="2") == [genuine["analysis_id"]]
    assert await ids(status="failed") == []
    created = genuine["created_at"]
    assert await ids(created_from=created, created_to=tampered["created_at"]) == [
        genuine["analysis_id"]
    ]
    assert await ids(created_from="2999-01-01") == []
    bad = await client.get(URL, params={"created_from": "yesterday"}, headers=owner.headers)
    assert bad.status_code == 400 and bad.json()["details"][0]["field"] == "created_from"
    wrong = await client.get(URL, params={"verdict": "forged"}, headers=owner.headers)
    assert wrong.status_code == 400
    live = await make_account("live", balance=100_000)
    other_environment = await client.get(URL, headers=live.headers)
    assert other_environment.json()["data"] == []
