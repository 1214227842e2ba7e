"""Sheets as the issuers and their customers really send them (tests/statements/sheets.py makes
look-alikes of the real files with the facts measured on them): HTML-table .xls, legacy XLS,
M-Pesa CSV exports with wrapped and split rows, dates whose order only the column tells, and
the signals calibrated so that none of these genuine shapes is called tampered."""

from __future__ import annotations

import csv
import io
from datetime import datetime

import pytest

from hakiki.engines.statements import Refused, analyse, signals
from hakiki.engines.statements.categories import categorise, lender_of
from hakiki.engines.statements.model import Declared, Header, Statement, Transaction
from tests.statements import sheets


def codes(data: bytes) -> set[str]:
    return {s.code for s in analyse(data).signals}


def totals(data: bytes) -> tuple[int, int, int]:
    transactions = analyse(data).statement.transactions
    return (
        len(transactions),
        sum(t.paid_in for t in transactions),
        sum(t.withdrawn for t in transactions),
    )


def expected(lines: list[sheets.Line]) -> tuple[int, int, int]:
    return len(lines), sum(x.paid_in for x in lines), sum(x.withdrawn for x in lines)


def test_an_mpesa_csv_export_is_read_whole_and_genuine() -> None:
    lines = sheets.mpesa_lines()
    data = sheets.mpesa_csv(lines)
    assert b"Equity\nPaybill Account Acc.\n0300" in data  # a record split, unquoted
    assert totals(data) == expected(lines)  # every row, to the cent
    analysis = analyse(data)
    assert analysis.verdict == "genuine" and analysis.signals == []
    paybill = next(t for t in analysis.statement.transactions if "Pay Bill" in t.details)
    assert paybill.details.startswith("Pay Bill to 247247 - Equity Paybill Account Acc. 0300")
    assert paybill.status == "Completed" and paybill.withdrawn == 5_00


def test_day_first_two_digit_dates_are_read_from_the_whole_column() -> None:
    lines = sheets.mpesa_lines()
    data = sheets.mpesa_csv(lines, day_first_short=True)
    assert b",14-05-23 " in data
    analysis = analyse(data)
    assert totals(data) == expected(lines) and analysis.verdict == "genuine"
    first = analysis.statement.transactions[0]
    assert first.time.month == 5 and first.time.year == 2023
    continued = next(t for t in analysis.statement.transactions if t.details.endswith(" KAMAU"))
    assert "07******" in continued.details  # the name's continuation row joined to its row


def dated_csv(dates: list[str]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Txn_Date", "Narration", "Money_Out", "MoneyIn", "Balance"])
    balance = 0
    for day in dates:
        balance += 100_00
        writer.writerow([day, "Deposit", "", "100.00", f"{balance / 100:.2f}"])
    return out.getvalue().encode()


def test_the_date_order_is_taken_from_the_column_never_row_by_row() -> None:
    month_first = analyse(dated_csv(["01/02/2024", "01/13/2024", "02/01/2024"]))
    assert [t.time.date().isoformat() for t in month_first.statement.transactions] == [
        "2024-01-02",
        "2024-01-13",
        "2024-02-01",
    ]
    # no day over 12, but only one reading is in date order
    ordered = analyse(dated_csv(["03/01/2024", "10/01/2024", "02/02/2024"]))
    assert [t.time.month for t in ordered.statement.transactions] == [1, 1, 2]
    with pytest.raises(Refused) as ambiguous:
        analyse(dated_csv(["01/02/2024", "02/03/2024", "03/04/2024"]))
    assert ambiguous.value.code == "ambiguous_dates"
    assert "'Txn_Date'" in ambiguous.value.message and "2024-01-31" in ambiguous.value.message
    with pytest.raises(Refused) as mixed:
        analyse(dated_csv(["13/01/2024", "01/14/2024"]))
    assert mixed.value.code == "ambiguous_dates" and "mixes" in mixed.value.message


def test_header_names_with_underscores_or_without_spaces() -> None:
    analysis = analyse(dated_csv(["2024-01-02", "2024-01-03"]))
    assert [t.paid_in for t in analysis.statement.transactions] == [100_00, 100_00]
    assert analysis.statement.transactions[1].balance == 200_00


def test_rows_of_one_second_chain_in_any_order_and_an_edit_still_breaks() -> None:
    lines = sheets.mpesa_lines()
    assert codes(sheets.mpesa_csv(lines)) == set()
    target = next(x for x in lines if x.details.startswith("Funds received"))
    edited = sheets.mpesa_csv(sheets.with_edit(lines, target.receipt, target.paid_in + 5000_00))
    analysis = analyse(edited)
    [signal] = [s for s in analysis.signals if s.code == "balance_break"]
    assert analysis.verdict == "tampered"
    evidence = signal.evidence["breaks"][0]
    assert evidence["receipt"] == target.receipt and evidence["page"] > 1
    assert evidence["stated_balance"] != evidence["expected_balance"]
    assert evidence["previous_receipt"]


def row(
    receipt: str, second: int, details: str, paid_in: int, out: int, balance: int
) -> Transaction:
    return Transaction(
        receipt, datetime(2022, 8, 13, 18, 54, second), details, "Completed", paid_in, out, balance
    )


def statement(rows: list[Transaction], **kwargs: object) -> Statement:
    return Statement("csv_columns_v2", "2", "mpesa", "csv", Header(), rows, **kwargs)  # type: ignore[arg-type]


def test_a_gap_beside_fuliza_rows_is_information_not_tampering() -> None:
    rows = [
        row("SC21FUL0ZA", 43, "Merchant Payment Fuliza M-Pesa to 7000001", 0, 20_00, -20_00),
        row("SC21FUL0ZA", 43, "OverDraft of Credit Party", 20_00, 0, 0),
        # the statement prints no row for the money that came in before the next payment
        row("SC29NEXT01", 58, "Merchant Payment to 7000001 - SHOP", 0, 20_00, 980_00),
    ]
    found = signals.all_signals(statement(rows), Declared())
    assert [s.code for s in found] == ["overdraft_balance_gap"]
    assert signals.verdict(found) == "genuine"
    assert found[0].evidence["breaks"][0]["expected_balance"] == "-20.00"
    plain = [
        row("A1", 1, "Funds received from JOHN", 100_00, 0, 100_00),
        row("A2", 2, "Merchant Payment to SHOP", 0, 20_00, 980_00),
    ]
    assert [s.code for s in signals.all_signals(statement(plain), Declared())] == ["balance_break"]


def test_the_summary_counts_cancelled_rows_as_the_issuer_does() -> None:
    rows = [
        row("SF15LOCK01", 1, "M-Shwari Lock Deposit", 0, 5_000_00, 5_000_34),
        row("SF36RCVD02", 2, "Funds received from JOHN", 500_00, 0, 500_00),
    ]
    rows[0].status = "Cancelled"
    genuine = statement(rows, summary={"TOTAL": (500_00, 5_000_00)})
    assert signals.summary_mismatch(genuine) is None
    doctored = statement(rows, summary={"TOTAL": (900_00, 5_000_00)})
    assert signals.summary_mismatch(doctored) is not None


def test_gtbank_html_xls_and_xlsx_are_read_and_placeholder_references_ignored() -> None:
    opening, lines = sheets.bank_lines()
    page = sheets.gtb_html(opening, lines)
    assert page.lstrip().startswith(b"<!DOCTYPE html") and b"&nbsp;" in page
    for data, layout in (
        (page, "html_columns_v2"),
        (sheets.gtb_xlsx(opening, lines), "xlsx_columns_v2"),
    ):
        analysis = analyse(data, statement_type="bank")
        read = analysis.statement.transactions
        assert analysis.statement.layout == layout and len(read) == len(lines)
        assert read[0].balance == opening + read[0].paid_in - read[0].withdrawn
        assert analysis.verdict == "genuine" and analysis.signals == []
        assert analysis.metrics["loans"]["distinct_lenders"] == 0  # "GTBank OAU Branch"


def test_a_receipt_repeated_on_the_same_day_is_still_a_duplicate() -> None:
    rows = [
        row("SB74DUPL01", 1, "Funds received from JOHN", 100_00, 0, 100_00),
        row("SB74DUPL01", 9, "Funds received from JOHN", 100_00, 0, 200_00),
        row("0", 10, "COMMISSION", 0, 5_00, 195_00),
        row("0", 11, "COMMISSION", 0, 5_00, 190_00),
    ]
    [signal] = [s for s in signals.all_signals(statement(rows), Declared())]
    assert signal.code == "duplicate_receipt" and signal.evidence["receipts"] == ["SB74DUPL01"]
    assert signal.evidence["rows"] == [
        {"receipt": "SB74DUPL01", "date": "2022-08-13", "pages": [0, 0]}
    ]


def test_a_legacy_binary_xls_is_read() -> None:
    lines = [x for x in sheets.mpesa_lines() if x.status == "Completed"]
    rows: list[list[object]] = [
        [x.time, x.receipt, x.details, x.paid_in / 100, -x.withdrawn / 100, x.balance / 100]
        for x in lines
    ]
    data = sheets.legacy_xls(
        ["Date", "Transaction ID", "Description", "Credit", "Debit", "Balance"], rows
    )
    assert data.startswith(b"\xd0\xcf\x11\xe0")
    analysis = analyse(data, statement_type="mtn_momo")
    assert analysis.statement.layout == "xls_columns_v2"
    assert totals(data) == expected(lines)
    assert analysis.statement.transactions[0].time == lines[0].time


@pytest.mark.parametrize(
    "data",
    [
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600,
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\xff" * 5000,
    ],
)
def test_a_broken_xls_is_refused_not_a_crash(data: bytes) -> None:
    with pytest.raises(Refused) as refused:
        analyse(data)
    assert refused.value.code == "unreadable"


def test_html_is_read_without_fetching_or_expanding_anything() -> None:
    page = (
        b'<!DOCTYPE html [<!ENTITY big "' + b"x" * 100 + b'">]><html><body>'
        b'<img src="http://127.0.0.1:9/x"><script>var a = "<tr><td>2024-01-01</td>";</script>'
        b"<table><tr><td>Date</td><td>Details</td><td>Amount</td><td>Balance</td></tr>"
        b"<tr><td>2024-01-02</td><td>&big; &amp; co</td><td>100.00</td><td>100.00</td></tr>"
        b"</table></body></html>"
    )
    [only] = analyse(page).statement.transactions
    assert only.details == "&big; & co" and only.paid_in == 100_00
    many = b"<html><table>" + b"<tr><td>x</td></tr>" * 60 + b"</table></html>"
    from hakiki.engines.statements.tabular import Limits

    with pytest.raises(Refused) as refused:
        analyse(many, limits=Limits(max_rows=50))
    assert refused.value.code == "too_large"


def test_savings_moves_are_not_loans_and_lenders_are_matched_as_names() -> None:
    for details in ("M-Shwari Withdraw", "M-Shwari Lock Deposit", "KCB M-PESA Deposit"):
        assert lender_of(details) is None and categorise(details, True) == "savings"
    assert lender_of("KCB M-PESA Loan Repayment") == "KCB M-Pesa"
    assert lender_of("CASH WITHDRAWAL FROM OUR ATM -006341- -GTBank OAU Branch Ile-Ife") is None
    assert lender_of("Pay Bill to 998608 - Branch International") == "Branch"
    assert lender_of("Funds received from - NATALIA WANJIRU") is None
    assert lender_of("Business Payment from 303030 - Tala via API") == "Tala"


def test_a_row_dated_out_of_order_or_centuries_away_is_no_crash() -> None:
    plain_titles = b"Date,Narration,Debit,Credit,Balance"
    out_of_order = dated_csv(["2024-02-01", "2024-01-02", "2024-03-05", "2024-04-01"]).replace(
        b"Txn_Date,Narration,Money_Out,MoneyIn,Balance", plain_titles
    )
    analysis = analyse(out_of_order)
    assert sorted(m["month"] for m in analysis.metrics["monthly"]) == [
        "2024-01",
        "2024-02",
        "2024-03",
        "2024-04",
    ]
    with pytest.raises(Refused) as refused:
        analyse(dated_csv(["0001-01-01", "9999-12-31"]))
    assert refused.value.code == "too_large" and "at most 10 years" in refused.value.message


def _damaged(how: str) -> bytes:
    opening, lines = sheets.bank_lines()
    data = bytearray(sheets.gtb_xlsx(opening, lines))
    import zipfile

    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("xl/workbook.xml")
    name_at = info.header_offset + 30
    if how == "name":
        data[name_at + 3] ^= 0x20  # the local header's name differs from the directory's
    else:  # the compressed bytes: a broken deflate stream or a bad CRC
        start = name_at + len(info.filename) + len(info.extra)
        for offset in range(start + 2, start + 12):
            data[offset] ^= 0x5A
    return bytes(data)


@pytest.mark.parametrize("how", ["name", "deflate"])
def test_a_damaged_xlsx_is_refused_not_a_crash(how: str) -> None:
    with pytest.raises(Refused) as refused:
        analyse(_damaged(how))
    assert refused.value.code == "unreadable"
