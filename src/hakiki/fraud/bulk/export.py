"""The results file of a bulk scan: one line per row of the upload, flat columns per scan type,
as CSV (streamed) or XLSX.

Neither may run anything in a spreadsheet (CSV/formula injection, OWASP): in the CSV a text that
starts with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return or a line feed gets a leading
``'``, unless the whole text is a plain number (``-2``, ``+254712345678`` stay as they are: a
spreadsheet reads them as numbers, never as formulas); in the XLSX every text is a string cell
(never a formula or an error cell), and those same texts also carry Excel's quote-prefix style so
that editing the cell keeps it text.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator, Iterable
from typing import Any

from hakiki.core.database import read
from hakiki.core.runtime import Runtime
from hakiki.fraud.bulk import repository
from hakiki.fraud.bulk.schemas import BulkRowResult
from hakiki.fraud.bulk.service import row_result

BATCH = 1000
COMMON = ["row", "reference", "status", "risk_score", "risk_level", "signals"]
TAIL = ["error_code", "error_message", "transaction_id"]
COLUMNS = {
    "id": ["number", "channel", "country_code", "number_valid", "format_problem", "reports",
           "reporting_organisations", "names", "birth_dates", "phones", "faces"],
    "phone": ["phone", "e164", "valid", "reason", "line_type", "original_carrier", "region",
              "reports", "identities", "checks_last_7_days"],
    "face": ["image_url", "identity_numbers", "fraud_bank_matches", "other_identities",
             "closest_distance", "reports"],
}  # fmt: skip


# A formula, a DDE call or a cell-splitting character when a spreadsheet reads a cell's start.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
# What XML (so XLSX) cannot hold: C0 controls other than tab, line feed, carriage return.
_NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


def is_formula_like(text: str) -> bool:
    return text.startswith(FORMULA_STARTS) and _PLAIN_NUMBER.fullmatch(text) is None


def csv_safe(value: Any) -> Any:
    """The value as the CSV holds it: a text a spreadsheet would run as a formula gets a `'`."""
    if isinstance(value, str) and is_formula_like(value):
        return "'" + value
    return value


def header(scan_type: str) -> list[str]:
    return COMMON + COLUMNS[scan_type] + TAIL


def _type_values(scan_type: str, result: BulkRowResult) -> dict[str, Any]:
    found, given = result.findings or {}, result.input
    reports = found.get("fraud_reports") or {}
    if scan_type == "id":
        links = found.get("identity_links") or {}
        return {
            **given,
            "number_valid": found.get("number_valid"),
            "format_problem": found.get("format_problem"),
            "reports": reports.get("count"),
            "reporting_organisations": reports.get("organisations"),
            **{k: links.get(k) for k in ("names", "birth_dates", "phones", "faces")},
        }
    if scan_type == "phone":
        phone, links = found.get("phone") or {}, found.get("links") or {}
        details = ("e164", "valid", "reason", "line_type", "original_carrier", "region")
        return {
            **given,
            **{k: phone.get(k) for k in details},
            "reports": reports.get("count"),
            "identities": links.get("identities"),
            "checks_last_7_days": links.get("checks_last_7_days"),
        }
    links = found.get("links") or {}
    return {
        "image_url": given.get("image_url"),
        "identity_numbers": ";".join(given.get("identity_numbers", [])),
        **{k: links.get(k) for k in ("fraud_bank_matches", "other_identities", "closest_distance")},
        "reports": reports.get("count"),
    }


def flat(scan_type: str, result: BulkRowResult) -> list[Any]:
    values: dict[str, Any] = {
        "row": result.row,
        "reference": result.reference,
        "status": result.status,
        "risk_score": result.risk.score if result.risk else None,
        "risk_level": result.risk.level if result.risk else None,
        "signals": ";".join(s.code for s in result.risk.signals) if result.risk else None,
        "error_code": result.error.code if result.error else None,
        "error_message": result.error.message if result.error else None,
        "transaction_id": result.transaction_id,
        **_type_values(scan_type, result),
    }
    return ["" if values.get(name) is None else values[name] for name in header(scan_type)]


async def results(runtime: Runtime, bulk_id: str) -> AsyncIterator[list[BulkRowResult]]:
    """Every row's result, in sheet order, a batch at a time."""
    after = 0
    while True:
        async with read(runtime.db) as conn:
            rows = await repository.list_results(conn, bulk_id, after_row=after, limit=BATCH)
        if not rows:
            return
        yield [row_result(runtime, row) for row in rows]
        after = rows[-1]["row_number"]


def _csv_lines(rows: Iterable[list[Any]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([csv_safe(value) for value in row] for row in rows)
    return buffer.getvalue().encode()


async def csv_stream(runtime: Runtime, scan: dict[str, Any]) -> AsyncIterator[bytes]:
    scan_type = scan["scan_type"]
    yield b"\xef\xbb\xbf" + _csv_lines([header(scan_type)])  # the BOM: Excel reads UTF-8
    async for batch in results(runtime, scan["id"]):
        yield _csv_lines(flat(scan_type, result) for result in batch)


def _xlsx_row(sheet: Any, values: list[Any]) -> list[Any]:
    """The row's cells: every text a string cell (openpyxl would make ``=...`` a formula and
    ``#N/A`` an error), formula-like texts quote-prefixed; numbers and booleans stay typed."""
    from openpyxl.cell import WriteOnlyCell

    cells: list[Any] = []
    for value in values:
        if not isinstance(value, str):
            cells.append(value)
            continue
        text = _NOT_IN_XML.sub("\ufffd", value)
        cell = WriteOnlyCell(sheet, value=text)
        cell.data_type = "s"  # whatever openpyxl inferred from the text
        if is_formula_like(text):
            cell.quotePrefix = True
        cells.append(cell)
    return cells


async def xlsx_bytes(runtime: Runtime, scan: dict[str, Any]) -> bytes:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("results")
    scan_type = scan["scan_type"]
    sheet.append(_xlsx_row(sheet, header(scan_type)))
    async for batch in results(runtime, scan["id"]):
        for result in batch:
            sheet.append(_xlsx_row(sheet, flat(scan_type, result)))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
