"""A bulk scan file is checked whole before anything is stored: each problem a 400 that gives
its row (the header is row 1) and column; limits on rows and bytes; nothing reserved or queued."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import URL, changed, csv_bytes, post_file, xlsx_bytes


def problems(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 400, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == "invalid_request" and body["message"].startswith("file: ")
    details: list[dict[str, Any]] = body["details"]
    return details


async def test_header_problems_name_the_column(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    typo = csv_bytes([["nmber", "channel"], ["22222222220", "bvn"]])
    [unknown, missing] = problems(await post_file(client, account.headers, typo, "id"))
    assert unknown == {
        "field": "file",
        "row": 1,
        "column": "nmber",
        "column_letter": "A",
        "problem": unknown["problem"],
    }
    assert "unknown column for a id scan" in unknown["problem"]
    assert missing["row"] == 1 and "column number is missing" in missing["problem"]

    no_channel = csv_bytes([["number"], ["22222222220"]])
    [found] = problems(await post_file(client, account.headers, no_channel, "id"))
    assert "channel form field" in found["problem"]
    with_default = await post_file(client, account.headers, no_channel, "id", channel="bvn")
    assert with_default.status_code == 202, with_default.text

    twice = csv_bytes([["phone", "Phone Number"], ["0712345678", "0712345678"]])
    [repeated] = problems(await post_file(client, account.headers, twice, "phone"))
    assert repeated["column_letter"] == "B" and "appears twice" in repeated["problem"]


async def test_value_problems_name_row_and_column(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    sheet = [
        ["reference", "number", "channel", "date_of_birth"],
        ["a-1", "22222222220", "bvn", "1990-01-31"],
        ["a-2", "", "bvn", ""],
        ["a-3", "22222222221", "ssn", ""],
        ["a-4", "22222222222", "bvn", "31/01/1990"],
        ["a-5", "22222222223", "bvn", "", "extra"],
    ]
    found = problems(await post_file(client, account.headers, csv_bytes(sheet), "id"))
    where = [(p["row"], p.get("column"), p.get("column_letter")) for p in found]
    assert where == [
        (3, "number", "B"),
        (4, "channel", "C"),
        (5, "date_of_birth", "D"),
        (6, None, "E"),
    ]
    assert "5 cells but the header has 4" in found[3]["problem"]

    # The same checks for an XLSX sheet, and for faces' URLs.
    faces = xlsx_bytes([["image_url"], ["ftp://example.com/a.jpg"], ["https://example.com/b"]])
    [bad_url] = problems(await post_file(client, account.headers, faces, "face", "f.xlsx"))
    assert (bad_url["row"], bad_url["column"]) == (2, "image_url")
    assert "http or https" in bad_url["problem"]


async def test_limits_and_unreadable_files(
    client: httpx.AsyncClient, make_account: AccountFactory, app: FastAPI
) -> None:
    account = await make_account("sandbox")
    settings = app.state.runtime.settings
    rows = [["phone"]] + [[f"07123456{i:02d}"] for i in range(5)]
    with changed(settings, bulk_max_rows=4):
        [too_many] = problems(await post_file(client, account.headers, csv_bytes(rows), "phone"))
    assert too_many["row"] == 6 and "more than 4 rows" in too_many["problem"]
    with changed(settings, bulk_max_bytes=1024):
        big = csv_bytes([["phone"]] + [["0712345678"]] * 200)
        response = await post_file(client, account.headers, big, "phone")
    assert response.status_code == 400 and response.json()["details"][0]["field"] == "file"
    assert "1,024-byte limit" in response.json()["message"]

    empty = problems(await post_file(client, account.headers, b"", "phone"))
    assert empty[0]["problem"] == "the file is empty"
    header_only = problems(await post_file(client, account.headers, b"phone\n", "phone"))
    assert "no rows" in header_only[0]["problem"]
    broken_zip = problems(await post_file(client, account.headers, b"PK\x03\x04junk", "phone"))
    assert broken_zip[0]["problem"] == "not a readable XLSX file"
    wrong_type = await post_file(client, account.headers, b"phone\n1\n", "passport")
    assert wrong_type.status_code == 400
    assert wrong_type.json()["details"][0]["field"] == "scan_type"

    listed = await client.get(URL, headers=account.headers)
    assert listed.json()["pagination"]["total_items"] == 0  # nothing was stored
