"""Bank statements from CSV and XLSX: columns found by their names, formulas never evaluated,
a sheet that would expand to millions of cells refused quickly."""

from __future__ import annotations

import csv
import io
import time
import zipfile

import pytest
from openpyxl import Workbook

from hakiki.engines.statements import Refused, analyse
from hakiki.engines.statements.tabular import Limits

ROWS = [
    ["Transaction Date", "Narration", "Reference", "Debit", "Credit", "Balance"],
    ["2024-01-02", "Opening deposit", "FT001", "", "10,000.00", "10,000.00"],
    ["2024-01-25", "SALARY ACME LTD", "FT002", "", "50,000.00", "60,000.00"],
    ["2024-01-28", "ATM withdrawal", "FT003", "5,000.00", "", "55,000.00"],
    ["2024-02-25", "SALARY ACME LTD", "FT004", "", "50,000.00", "105,000.00"],
    ["2024-02-26", '=HYPERLINK("http://x","KPLC")', "FT005", "1,000.00", "", "104,000.00"],
]


def csv_bytes(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def xlsx_bytes(rows: list[list[object]]) -> bytes:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_bank_csv_is_read_by_its_column_names_and_formulas_are_data() -> None:
    analysis = analyse(csv_bytes(ROWS), statement_type="bank")
    statement = analysis.statement
    assert statement.layout == "csv_columns_v1" and statement.issuer == "bank"
    assert [t.paid_in for t in statement.transactions] == [10_000_00, 50_000_00, 0, 50_000_00, 0]
    assert statement.transactions[-1].details.startswith("=HYPERLINK")  # text, as sent
    assert analysis.verdict == "genuine"
    assert analysis.metrics["income"]["average_monthly_income"] > 0


def test_an_xlsx_formula_is_read_as_text_and_named() -> None:
    rows: list[list[object]] = [list(r) for r in ROWS]
    rows[3][5] = "=F3-D4"  # a balance computed, not exported
    analysis = analyse(xlsx_bytes(rows))
    signal = next(s for s in analysis.signals if s.code == "formula_cells")
    assert "F4" in signal.evidence["cells"] and "E6" not in signal.evidence["cells"]


def test_a_running_balance_break_in_a_csv() -> None:
    rows = [list(r) for r in ROWS]
    rows[3][5] = "65,000.00"
    analysis = analyse(csv_bytes(rows))
    assert "balance_break" in {s.code for s in analysis.signals}


def test_a_tiny_xlsx_declaring_millions_of_cells_is_refused_quickly() -> None:
    sheet = (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/'
        'spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData/></worksheet>'
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
        archive.writestr("[Content_Types].xml", "<Types/>")
    started = time.monotonic()
    with pytest.raises(Refused) as refused:
        analyse(out.getvalue())
    assert refused.value.code == "too_large" and time.monotonic() - started < 1


def test_a_zip_bomb_is_refused_before_inflating() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * 80_000_000 + b"</a>")
    assert len(out.getvalue()) < 200_000
    with pytest.raises(Refused) as refused:
        analyse(out.getvalue())
    assert refused.value.code == "too_large"


def test_a_csv_over_the_row_limit_and_one_without_a_header_are_refused() -> None:
    many = csv_bytes([ROWS[0]] + [ROWS[1]] * 30)
    with pytest.raises(Refused) as refused:
        analyse(many, limits=Limits(max_rows=20))
    assert refused.value.code == "too_large"
    with pytest.raises(Refused) as refused:
        analyse(b"a,b\n1,2\n")
    assert refused.value.code == "unsupported_layout"


def test_nul_and_lone_surrogates_are_refused() -> None:
    with pytest.raises(Refused):
        analyse(b"Date,Amount\n2024-01-01,\x00\n")
    surrogate = csv_bytes(ROWS).replace(b"Opening", b"Op\xed\xb3\xbfening")  # UTF-8 of U+DCFF
    with pytest.raises(Refused) as refused:
        analyse(surrogate)
    assert refused.value.code == "unreadable"
