"""Bulk scans over HTTP on both databases: sandbox and live ID scans, phones from an XLSX sheet,
progress and results, the results file, per-row debits and the reservation, the webhook."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx
from openpyxl import load_workbook

from hakiki.core.database import Database
from tests.conftest import AccountFactory, debit_count
from tests.fraud.bulk.conftest import URL, csv_bytes, finished, post_file, upload, xlsx_bytes
from tests.webhooks.conftest import create_endpoint, eventually
from tests.webhooks.receiver import Receiver

ID_PRICE, PHONE_PRICE = 500, 200


async def wallet(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.get("/v3/account/wallet", headers=headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def test_sandbox_id_scan_matches_the_single_scan_and_charges_nothing(
    client: httpx.AsyncClient, make_account: AccountFactory, receiver: Receiver
) -> None:
    account = await make_account("sandbox")
    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    sheet = [["reference", "number", "channel"]]
    sheet += [[f"loan-{d}", f"2222222222{d}", "bvn"] for d in (0, 5, 6, 7)]
    sheet += [["loan-short", "1234", "bvn"], ["loan-ke", "20000000", "national_id"]]
    started = await upload(client, account.headers, csv_bytes(sheet), "id")
    assert started["total_records"] == 6 and started["price_per_row"] == 0
    done = await finished(client, account.headers, started["bulk_id"])
    assert (done["state"], done["processed_records"]) == ("completed", 6)
    assert (done["success_count"], done["error_count"], done["charged_amount"]) == (6, 0, 0)
    assert done["started_at"] and done["completed_at"]

    levels = {r["reference"]: r["risk"]["level"] for r in done["results"]}
    assert levels == {
        "loan-0": "LOW", "loan-5": "MEDIUM", "loan-6": "HIGH", "loan-7": "CRITICAL",
        "loan-short": "MEDIUM", "loan-ke": "LOW",
    }  # fmt: skip
    for row in done["results"]:  # each row answers what the single scan answers
        single = await client.post(
            "/v3/fraud/id-scan", json={"channel": row["input"]["channel"],
            "country_code": row["input"]["country_code"], "number": row["input"]["number"]},
            headers=account.headers,
        )  # fmt: skip
        assert single.json()["data"]["risk"] == row["risk"]
        assert single.json()["data"]["identity_links"] == row["findings"]["identity_links"]
    assert [r["row"] for r in done["results"]] == [2, 3, 4, 5, 6, 7]
    assert done["results"][4]["findings"]["number_valid"] is False

    page = await client.get(
        f"{URL}/{started['bulk_id']}", params={"page": 2, "page_size": 4}, headers=account.headers
    )
    assert [r["row"] for r in page.json()["data"]["results"]] == [6, 7]
    assert page.json()["data"]["pagination"]["total_items"] == 6

    exported = await client.get(
        f"{URL}/{started['bulk_id']}", params={"format": "csv"}, headers=account.headers
    )
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert [line["reference"] for line in lines] == [f"loan-{d}" for d in (0, 5, 6, 7)] + [
        "loan-short", "loan-ke",
    ]  # fmt: skip
    assert lines[3]["risk_level"] == "CRITICAL" and "several_faces" in lines[3]["signals"]
    assert lines[4]["number_valid"] == "False" and lines[5]["country_code"] == "KE"

    book = await client.get(
        f"{URL}/{started['bulk_id']}", params={"format": "xlsx"}, headers=account.headers
    )
    sheet_out = load_workbook(io.BytesIO(book.content), read_only=True).worksheets[0]
    values = list(sheet_out.iter_rows(values_only=True))
    assert values[0][:3] == ("row", "reference", "status") and len(values) == 7

    delivered = await eventually(lambda: receiver.accepted())
    event = delivered[0].json
    assert event["type"] == "bulk_scan.completed" and delivered[0].problem is None
    assert event["data"]["bulk_id"] == started["bulk_id"]
    assert event["data"]["success_count"] == 6 and event["data"]["status"] == "completed"


async def test_live_id_scan_debits_each_row_once_and_releases_the_rest(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    reporter = await make_account("live", balance=ID_PRICE)
    lender = await make_account("live", balance=100 * ID_PRICE)
    number = "22987650123"
    report = {
        "subject": {"last_name": "Okafor", "identifiers": [{"type": "bvn", "value": number}]},
        "incident": {"category": "identity_theft", "date": "2026-10-02",
                     "description": "Opened an account with a stolen BVN."},
    }  # fmt: skip
    created = await client.post("/v3/fraud/reports", json=report, headers=reporter.headers)
    assert created.status_code == 201, created.text

    sheet = [["number", "first_name", "last_name", "date_of_birth"],
             [number, "Chidi", "Okafor", "1990-05-01"],
             ["22987650124", "Amina", "Bello", ""],
             ["22987650125", "", "", ""]]  # fmt: skip
    started = await upload(client, lender.headers, csv_bytes(sheet), "id", channel="bvn")
    assert started["price_per_row"] == ID_PRICE and started["live"] is True
    done = await finished(client, lender.headers, started["bulk_id"])
    assert (done["success_count"], done["charged_amount"]) == (3, 3 * ID_PRICE)
    first = done["results"][0]
    assert first["findings"]["fraud_reports"]["categories"] == {"identity_theft": 1}
    assert "reported" in [s["code"] for s in first["risk"]["signals"]]
    assert all(r["transaction_id"] for r in done["results"])
    assert len({r["transaction_id"] for r in done["results"]}) == 3
    assert await debit_count(db, lender.org_id) == 3  # one wallet transaction per row
    money = await wallet(client, lender.headers)
    assert (money["balance"], money["reserved"]) == (97 * ID_PRICE, 0)

    # The names given were seen with the number: once another organisation gives the same date
    # of birth (one organisation alone never carries a count), a later single scan counts it.
    other = await make_account("live", balance=ID_PRICE)
    told = {"channel": "bvn", "number": number, "date_of_birth": "1990-05-01"}
    assert (await client.post("/v3/fraud/id-scan", json=told, headers=other.headers)).is_success
    single = await client.post(
        "/v3/fraud/id-scan", json={"channel": "bvn", "number": number}, headers=reporter.headers
    )
    assert single.json()["data"]["identity_links"]["birth_dates"] == 1


async def test_live_upload_needs_the_whole_price_and_replays_by_key(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender = await make_account("live", balance=2 * PHONE_PRICE)
    sheet = csv_bytes([["phone"], ["0712345678"], ["0722000111"], ["0733000222"]])
    short = await post_file(client, lender.headers, sheet, "phone", country_code="KE")
    assert short.status_code == 402
    listed = await client.get(URL, headers=lender.headers)
    assert listed.json()["data"] == []
    assert (await wallet(client, lender.headers))["reserved"] == 0

    two = csv_bytes([["phone"], ["0712345678"], ["0722000111"]])
    keyed = {**lender.headers, "Idempotency-Key": "bulk-upload-1"}
    first = await post_file(client, keyed, two, "phone", country_code="KE")
    again = await post_file(client, keyed, two, "phone", country_code="KE")
    assert first.status_code == again.status_code == 202
    assert again.json()["data"]["bulk_id"] == first.json()["data"]["bulk_id"]
    assert again.headers.get("idempotent-replayed") == "true"
    await finished(client, lender.headers, first.json()["data"]["bulk_id"])
    listed = await client.get(URL, headers=lender.headers, params={"status": "completed"})
    assert [s["bulk_id"] for s in listed.json()["data"]] == [first.json()["data"]["bulk_id"]]
    money = await wallet(client, lender.headers)
    assert (money["balance"], money["reserved"]) == (0, 0)


async def test_phones_from_an_xlsx_sheet(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender = await make_account("live", balance=10 * PHONE_PRICE)
    sheet = xlsx_bytes([
        ["Phone Number", "Country", "Reference"],
        [712345678, "KE", "r1"],  # typed as a number: the leading 0 is gone
        ["+234 803 123 4567", "", "r2"],
        ["12", "KE", "r3"],
    ])  # fmt: skip
    response = await post_file(client, lender.headers, sheet, "phone", "phones.xlsx")
    assert response.status_code == 202, response.text
    assert response.json()["data"]["file_format"] == "xlsx"
    done = await finished(client, lender.headers, response.json()["data"]["bulk_id"])
    phones = [r["findings"]["phone"] for r in done["results"]]
    assert [p["e164"] for p in phones[:2]] == ["+254712345678", "+2348031234567"]
    assert phones[0]["original_carrier"] and phones[1]["region"] == "NG"
    assert phones[2]["valid"] is False
    assert done["charged_amount"] == 3 * PHONE_PRICE


async def test_another_organisation_cannot_see_a_scan(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    owner, other = await make_account("sandbox"), await make_account("sandbox")
    started = await upload(client, owner.headers, csv_bytes([["phone"], ["0712345678"]]), "phone")
    for params in ({}, {"format": "csv"}):
        response = await client.get(
            f"{URL}/{started['bulk_id']}", params=params, headers=other.headers
        )
        assert response.status_code == 404
    assert (await client.get(URL, headers=other.headers)).json()["data"] == []
