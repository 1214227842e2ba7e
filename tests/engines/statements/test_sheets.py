"""Bank statements from CSV and XLSX: columns found by their names, formulas never evaluated,
a sheet that would expand to millions of cells refused quickly."""

from __future__ import annotations

import csv
import io
import re
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
    assert statement.layout == "csv_columns_v2" and statement.issuer == "bank"
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


def with_dimension(xlsx: bytes, ref: str) -> bytes:
    """The same XLSX with its first sheet's <dimension> rewritten to ``ref``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(xlsx)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<dimension ref="[^"]*"', f'<dimension ref="{ref}"'.encode(), data)
            target.writestr(info, data)
    return out.getvalue()


def betting_statement() -> list[list[object]]:
    """Salary in the first half; the second half bets 270,000.00 away."""
    rows: list[list[object]] = [["Transaction Date", "Narration", "Debit", "Credit", "Balance"]]
    balance = 0
    for month in range(1, 7):
        balance += 100_000
        rows.append(
            [f"2024-{month:02d}-25", "SALARY ACME LTD", "", "100,000.00", f"{balance:,}.00"]
        )
    for month in range(1, 7):
        balance -= 45_000
        rows.append([f"2024-{month:02d}-28", "SportPesa bet", "45,000.00", "", f"{balance:,}.00"])
    rows[7:] = sorted(rows[7:], key=lambda r: str(r[0]))
    return rows


def test_an_xlsx_whose_dimension_leaves_rows_out_is_read_whole_and_named() -> None:
    honest = xlsx_bytes(betting_statement())
    sheet = zipfile.ZipFile(io.BytesIO(honest)).read("xl/worksheets/sheet1.xml")
    assert b'<dimension ref="A1:E13"' in sheet
    hiding = with_dimension(honest, "A1:E7")  # the header and the six salaries
    whole, tampered = analyse(honest), analyse(hiding)
    assert len(tampered.statement.transactions) == len(whole.statement.transactions) == 12
    assert (
        tampered.metrics["betting"]["outflow"] == whole.metrics["betting"]["outflow"] == 27_000_000
    )
    assert tampered.score == whole.score
    signal = next(s for s in tampered.signals if s.code == "dimension_mismatch")
    assert signal.severity == "high"
    assert signal.evidence == {"declared_last_row": 7, "last_row": 13}
    assert tampered.verdict == "tampered"
    assert "dimension_mismatch" not in {s.code for s in whole.signals}


HEADER = ("Date", "Details & notes", "Amount")


def rows_xml(count: int) -> str:
    cells = (
        '<c t="inlineStr"><is><t>2024-01-02</t></is></c><c t="inlineStr"><is><t>x</t></is></c>'
        "<c><v>100</v></c>"
    )
    return "".join(f'<row r="{n}">{cells}</row>' for n in range(2, count + 2))


def sheet_package(sheet: str) -> bytes:
    book = xlsx_bytes([["Date", "Details", "Amount"]])
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(book)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = (
                sheet.encode() if info.filename == "xl/worksheets/sheet1.xml" else source.read(info)
            )
            target.writestr(info, data)
    return out.getvalue()


def test_a_sheet_over_the_row_limit_is_refused_from_a_count_before_it_is_parsed() -> None:
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    # The first row is not even well-formed XML (a bare &): a reader that parsed before it
    # counted would call the file unreadable; the count refuses it as too large first.
    header = "".join(f'<c t="inlineStr"><is><t>{name}</t></is></c>' for name in HEADER)
    broken = f'<row r="1">{header}</row>'
    sheet = f'<worksheet xmlns="{main}"><sheetData>{broken}{rows_xml(150)}</sheetData></worksheet>'
    with pytest.raises(Refused) as refused:
        analyse(sheet_package(sheet), limits=Limits(max_rows=100))
    assert refused.value.code == "too_large"
    assert refused.value.message == "file: more than 100 rows; split the file."
    within = sheet.replace(rows_xml(150), rows_xml(99)).replace(" & notes", "")
    assert (
        len(analyse(sheet_package(within), limits=Limits(max_rows=100)).statement.transactions)
        == 99
    )
