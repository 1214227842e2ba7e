"""Files built to hurt the upload: an XLSX whose declared dimension spans the whole grid, a zip
bomb, entity declarations, a sheet too slow to read, control characters and unpaired surrogates,
countries no scan supports. Each is a quick 400 naming the problem (and its row and column where
there is one), nothing is stored or reserved, and a normal upload still works beside them.

The XLSX files are written by hand here (zipfile and the XML itself), as an attacker would."""

from __future__ import annotations

import asyncio
import io
import time
import zipfile
from collections.abc import Iterable

import httpx
from fastapi import FastAPI

from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import URL, changed, csv_bytes, finished, post_file, xlsx_bytes
from tests.fraud.bulk.test_bulk_scans import wallet
from tests.fraud.bulk.test_upload_checks import problems

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/'
        'vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    ),
    "_rels/.rels": (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}">'
        f'<Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/>'
        "</Relationships>"
    ),
    "xl/workbook.xml": (
        f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{DOC}">'
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}">'
        f'<Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/>'
        "</Relationships>"
    ),
}
SHEET = "xl/worksheets/sheet1.xml"


def cell(reference: str, text: str) -> str:
    return f'<c r="{reference}" t="inlineStr"><is><t>{text}</t></is></c>'


def sheet_xml(body: str, *, prolog: str = "", dimension: str = "A1:XFD1048576") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet xmlns="{MAIN}">'
        f'<dimension ref="{dimension}"/><sheetData>{body}</sheetData></worksheet>'
    )


def package(sheet: str | Iterable[bytes]) -> bytes:
    """An XLSX file: the fixed parts and the worksheet (text, or pieces streamed into the zip)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in PARTS.items():
            archive.writestr(name, text)
        if isinstance(sheet, str):
            archive.writestr(SHEET, sheet)
        else:
            with archive.open(SHEET, "w", force_zip64=True) as part:
                for piece in sheet:
                    part.write(piece)
    return out.getvalue()


async def timed_post(
    client: httpx.AsyncClient, headers: dict[str, str], content: bytes, scan_type: str
) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = await post_file(client, headers, content, scan_type, "hostile.xlsx")
    return response, time.monotonic() - started


async def nothing_stored(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    listed = await client.get(URL, headers=headers)
    assert listed.json()["pagination"]["total_items"] == 0


async def test_a_sheet_declaring_the_whole_grid_is_read_as_the_rows_it_has(
    client: httpx.AsyncClient, make_account: AccountFactory, app: FastAPI
) -> None:
    # 1.5 KB: rows 1, 2 and 1,048,576 under a dimension of A1:XFD1048576. openpyxl padded every
    # absent row to 16,384 cells: about a quarter of an hour of one thread for this file.
    account = await make_account("sandbox")
    body = (
        f'<row r="1">{cell("A1", "phone")}</row>'
        f'<row r="2">{cell("A2", "0712345678")}</row>'
        f'<row r="1048576">{cell("A1048576", "0722000111")}</row>'
    )
    evil = package(sheet_xml(body))
    assert len(evil) < 2000
    response, took = await timed_post(client, account.headers, evil, "phone")
    assert response.status_code == 202, response.text
    assert took < 5, took
    assert response.json()["data"]["total_records"] == 2
    done = await finished(client, account.headers, response.json()["data"]["bulk_id"])
    assert [r["row"] for r in done["results"]] == [2, 1048576]

    # The same shape past the row limit is a 400 as soon as the limit is passed.
    many = "".join(f'<row r="{n}">{cell(f"A{n}", "0712345678")}</row>' for n in range(2, 12))
    tail = f'<row r="1048576">{cell("A1048576", "0722000111")}</row>'
    with changed(app.state.runtime.settings, bulk_max_rows=5):
        response, took = await timed_post(
            client, account.headers, package(sheet_xml(f'<row r="1">{cell("A1", "phone")}</row>'
            + many + tail)), "phone"
        )  # fmt: skip
    [found] = problems(response)
    assert found["row"] == 7 and "more than 5 rows" in found["problem"] and took < 5

    # Cells at the grid's right edge are noted, never padded up to: a 400 naming the row.
    wide = "".join(
        f'<row r="{n}">{cell(f"A{n}", "0712345678")}{cell(f"XFD{n}", "x")}</row>'
        for n in range(2, 2002)
    )
    evil_wide = package(sheet_xml(f'<row r="1">{cell("A1", "phone")}</row>{wide}'))
    response, took = await timed_post(client, account.headers, evil_wide, "phone")
    found_wide = problems(response)
    assert found_wide[0]["row"] == 2 and took < 5
    assert "16,384 cells but the header has 1" in found_wide[0]["problem"]

    # A header as wide as the grid is refused outright.
    header = package(sheet_xml(f'<row r="1">{cell("A1", "phone")}{cell("XFD1", "x")}</row>'))
    [too_wide] = problems(await post_file(client, account.headers, header, "phone", "h.xlsx"))
    assert "more than 100 columns" in too_wide["problem"]


async def test_a_zip_bomb_is_refused_from_the_zip_directory(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    head = sheet_xml(f'<row r="1">{cell("A1", "phone")}</row>').split("</sheetData>")[0]

    def pieces() -> Iterable[bytes]:
        yield head.encode()
        blank = b" " * (1024 * 1024)
        for _ in range(150):  # 150 MB of whitespace inside sheetData: about 150 KB deflated
            yield blank
        yield b"</sheetData></worksheet>"

    bomb = package(pieces())
    assert len(bomb) < 1024 * 1024
    response, took = await timed_post(client, account.headers, bomb, "phone")
    [found] = problems(response)
    assert "unpacks to more than 100 MB" in found["problem"] and took < 5, (found, took)
    await nothing_stored(client, account.headers)


async def test_doctype_and_entities_are_refused(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    entities = ['<!ENTITY a "hahahahahahahahahaha">']  # a billion laughs: 10**8 of them
    for inner, outer in zip("abcdefgh", "bcdefghi", strict=True):
        entities.append(f'<!ENTITY {outer} "{f"&{inner};" * 10}">')
    laughs = "<!DOCTYPE worksheet [" + "".join(entities) + "]>"
    body = f'<row r="1">{cell("A1", "phone")}</row><row r="2">{cell("A2", "&i;")}</row>'
    response, took = await timed_post(
        client, account.headers, package(sheet_xml(body, prolog=laughs)), "phone"
    )
    [found] = problems(response)
    assert "declares a DOCTYPE" in found["problem"] and took < 5

    external = '<!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    body = f'<row r="1">{cell("A1", "phone")}</row><row r="2">{cell("A2", "&x;")}</row>'
    [found] = problems(
        await post_file(client, account.headers, package(sheet_xml(body, prolog=external)),
                        "phone", "x.xlsx")
    )  # fmt: skip
    assert "declares a DOCTYPE" in found["problem"]
    await nothing_stored(client, account.headers)


def many_rows(count: int) -> Iterable[bytes]:
    """A header and ``count`` rows of two numbers (no references: each row and cell follows the
    one before), about 50 bytes of XML a row."""
    yield (
        sheet_xml(f'<row r="1">{cell("A1", "phone")}{cell("B1", "reference")}</row>')
        .split("</sheetData>")[0]
        .encode()
    )
    block = b"<row><c><v>712345678</v></c><c><v>1</v></c></row>" * 1000
    for _ in range(count // 1000):
        yield block
    yield b"</sheetData></worksheet>"


async def test_reading_has_a_wall_clock_budget_and_does_not_stall_other_uploads(
    client: httpx.AsyncClient, make_account: AccountFactory, app: FastAPI
) -> None:
    slow, other = await make_account("sandbox"), await make_account("sandbox")
    big = package(many_rows(1_000_000))  # seconds of reading on any machine
    small = csv_bytes([["phone"], ["0712345678"]])
    settings = app.state.runtime.settings
    finished_at: dict[str, float] = {}

    async def post(name: str, headers: dict[str, str], content: bytes) -> httpx.Response:
        response = await post_file(client, headers, content, "phone", name)
        finished_at[name] = time.monotonic()
        return response

    with changed(settings, bulk_max_rows=2_000_000, bulk_parse_seconds=1.0):
        started = time.monotonic()
        slow_response, small_response = await asyncio.gather(
            post("big.xlsx", slow.headers, big),
            post("small.csv", other.headers, small),
        )
    [found] = problems(slow_response)
    assert "longer than its 1-second budget" in found["problem"]
    assert finished_at["big.xlsx"] - started < 5  # stopped at the budget, not read to the end
    assert small_response.status_code == 202, small_response.text
    assert finished_at["small.csv"] < finished_at["big.xlsx"]  # not queued behind the slow one
    await nothing_stored(client, slow.headers)

    # The default budget reads a normal sheet, written by openpyxl, as before.
    normal = xlsx_bytes([["phone", "reference"], ["0712345678", "r1"], [712345679, "r2"]])
    response = await post_file(client, slow.headers, normal, "phone", "n.xlsx", country_code="KE")
    assert response.status_code == 202, response.text
    done = await finished(client, slow.headers, response.json()["data"]["bulk_id"])
    assert [r["input"]["phone"] for r in done["results"]] == ["0712345678", "712345679"]


async def test_control_characters_and_surrogates_name_their_cell(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    nul = b"reference,phone\nr1,0712345678\nr2,07123\x0045678\n"
    [found] = problems(await post_file(client, account.headers, nul, "phone"))
    assert (found["row"], found["column"], found["column_letter"]) == (3, "phone", "B")
    assert "control character (U+0000)" in found["problem"]
    bell = csv_bytes([["reference", "phone"], ["r\x07", "0712345678"]])
    [found] = problems(await post_file(client, account.headers, bell, "phone"))
    assert (found["row"], found["column"]) == (2, "reference")

    # XML cannot carry them: a character reference to NUL or to a lone surrogate, or the
    # surrogate's bytes written raw, is a 400 at the cell, not a 500.
    for text in ("07&#0;1", "07&#xD800;1", "07\udfff1"):
        body = f'<row r="1">{cell("A1", "phone")}</row><row r="2">{cell("B2", text)}</row>'
        raw = sheet_xml(body).encode("utf-8", "surrogatepass")
        content = package([raw])
        [found] = problems(await post_file(client, account.headers, content, "phone", "c.xlsx"))
        assert (found["row"], found["column_letter"]) == (2, "B"), found
        assert "not a readable XLSX file (bad XML" in found["problem"]

    # A surrogate's bytes in a CSV are not UTF-8: the file reads as Windows-1252, stored safely.
    odd = b"reference,phone\nr\xed\xa0\x80,0712345678\n"
    response = await post_file(client, account.headers, odd, "phone")
    assert response.status_code == 202, response.text
    done = await finished(client, account.headers, response.json()["data"]["bulk_id"])
    assert done["results"][0]["reference"] == "r\xed\xa0\u20ac"

    # The file's own name is stored without its control characters (written by hand: httpx
    # would percent-encode them).
    boundary = "hostile-boundary"
    form = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="scan_type"\r\n\r\nphone\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\x00b\x1f.csv"'
        "\r\nContent-Type: text/csv\r\n\r\nphone\r\n0712345678\r\n"
        f"--{boundary}--\r\n"
    ).encode()
    response = await client.post(
        f"{URL}/upload",
        content=form,
        headers={**account.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status_code == 202, response.text
    assert response.json()["data"]["file_name"] == "a_b_.csv"
    listed = await client.get(URL, headers=account.headers)
    assert listed.json()["pagination"]["total_items"] == 2  # the two accepted files only


async def test_an_unsupported_country_is_refused_before_anything_is_reserved(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    lender = await make_account("live", balance=10_000)
    before = await wallet(client, lender.headers)

    phones = csv_bytes([["phone", "country_code"], ["0712345678", "KE"], ["2025550123", "US"]])
    [found] = problems(await post_file(client, lender.headers, phones, "phone"))
    assert (found["row"], found["column"], found["column_letter"]) == (3, "country_code", "B")
    assert found["problem"] == "'US' is not a supported country; use one of KE, NG, TZ, UG"

    default = csv_bytes([["phone"], ["0712345678"]])
    [found] = problems(await post_file(client, lender.headers, default, "phone", country_code="GH"))
    assert found["row"] == 2 and "country_code (form field): 'GH' is not" in found["problem"]

    ids = csv_bytes([["number", "channel", "country_code"], ["GHA-123456789-0", "ghana_card",
                     "GH"]])  # fmt: skip
    [found] = problems(await post_file(client, lender.headers, ids, "id"))
    assert (found["row"], found["column"]) == (2, "country_code")
    assert "'GH' is not a supported country" in found["problem"]

    after = await wallet(client, lender.headers)
    assert (after["balance"], after["reserved"]) == (before["balance"], before["reserved"])
    await nothing_stored(client, lender.headers)

    # A supported country, in any case, still scans.
    fine = csv_bytes([["phone", "country_code"], ["0712345678", "ke"]])
    response = await post_file(client, lender.headers, fine, "phone")
    assert response.status_code == 202, response.text
    done = await finished(client, lender.headers, response.json()["data"]["bulk_id"])
    assert done["state"] == "completed" and done["success_count"] == 1


async def test_a_sheet_over_the_row_limit_is_refused_from_a_count_before_it_is_parsed(
    client: httpx.AsyncClient, make_account: AccountFactory, app: FastAPI
) -> None:
    # The header is not well-formed XML (a bare &): a reader that parsed before it counted would
    # answer "bad XML"; the count of row tags refuses the file as too long first.
    account = await make_account("sandbox")
    many = "".join(f'<row r="{n}">{cell(f"A{n}", "0712345678")}</row>' for n in range(2, 40))
    evil = package(sheet_xml(f'<row r="1">{cell("A1", "phone & more")}</row>{many}'))
    with changed(app.state.runtime.settings, bulk_max_rows=30):
        [found] = problems(await post_file(client, account.headers, evil, "phone", "long.xlsx"))
    assert found == {"field": "file", "row": 32, "problem": "more than 30 rows; split the file"}
    await nothing_stored(client, account.headers)
