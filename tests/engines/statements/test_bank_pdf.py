"""Bank statement PDFs read without a layout per bank: each bank's look-alike read with every
row, the reading proven by the running balance, and what does not prove itself refused."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import date
from functools import cache

import pytest
from reportlab.pdfgen.canvas import Canvas

from hakiki.engines.statements import Refused, analyse, pdf_reader
from hakiki.engines.statements.bank_pdf import Money, money
from tests.statements import bank_documents as b


@cache
def listed() -> list[b.BankRow]:
    return b.rows(45, seed=3)


@cache
def pdf_of(bank: str) -> bytes:
    return b.statement_pdf(b.LOOKS[bank], listed())


def password_of(look: b.BankLook) -> str | None:
    return look.owner_password or look.user_password if look.owner_password != "" else None


@pytest.mark.parametrize("bank", sorted(b.LOOKS))
def test_each_banks_statement_is_read_with_every_row_and_judged_genuine(bank: str) -> None:
    look = b.LOOKS[bank]
    result = analyse(pdf_of(bank), password=password_of(look))
    statement = result.statement
    assert (statement.layout, statement.issuer) == ("bank_pdf_v1", "bank")
    read = [(t.time.date(), t.paid_in, t.withdrawn, t.balance) for t in statement.transactions]
    day = "value_day" if look.columns[0].field == "value_date" else "day"
    expected = [(getattr(r, day), r.credit, r.debit, r.balance) for r in listed()]
    assert read == expected  # every row, oldest first, to the cent
    assert statement.transactions[1].details == listed()[1].details  # wrapped lines joined
    assert (result.verdict, result.signals) == ("genuine", [])
    assert statement.pdf is not None and statement.pdf.producer == look.producer
    if look.preamble or look.totals_row:
        credits, debits = sum(r.credit for r in listed()), sum(r.debit for r in listed())
        assert statement.summary["TOTAL"] == (credits, debits)


def test_an_overdrawn_account_with_dr_balances_and_signed_amounts_chains() -> None:
    rows = b.overdrawn(listed())
    for look in (b.STANBIC, b.ABSA_KE, b.UBA):
        statement = analyse(b.statement_pdf(look, rows)).statement
        assert [t.balance for t in statement.transactions] == [r.balance for r in rows]


def test_a_reading_whose_balances_do_not_chain_is_refused_not_reported() -> None:
    columns = tuple(
        replace(c, title=("Credit",) if c.field == "debit" else ("Debit",))
        if c.field in ("debit", "credit")
        else c
        for c in b.EQUITY.columns
    )  # the titles over the wrong columns: read as printed, the balances chain nowhere
    swapped = b.statement_pdf(replace(b.EQUITY, columns=columns), listed())
    with pytest.raises(Refused) as refused:
        analyse(swapped)
    assert refused.value.code == "unproven_reading"
    assert "'Credit' as credit, 'Debit' as debit" in refused.value.message
    assert "balances do not follow" in refused.value.message

    scrambled = [replace(r, balance=r.balance + 7 * i) for i, r in enumerate(listed())]
    with pytest.raises(Refused) as refused:
        analyse(b.statement_pdf(b.EQUITY, scrambled))
    assert refused.value.code == "unproven_reading"


def test_an_amount_edited_without_its_balance_is_read_and_judged_tampered() -> None:
    edited = b.Doctored(listed()).amount_raised(10, 5_000_00)
    result = analyse(b.statement_pdf(b.ECOBANK, edited))
    assert result.verdict == "tampered"
    (signal,) = result.signals
    assert signal.code == "balance_break" and signal.evidence["count"] == 1
    assert signal.evidence["breaks"][0]["stated_balance"] == b.plain(listed()[10].balance)


def test_a_stated_total_that_disagrees_with_the_rows_is_a_signal() -> None:
    look = replace(b.ECOBANK, totals_row="Total Debit/Total Credit/New Balance")
    genuine = b.statement_pdf(look, listed(), compress=False)
    assert analyse(genuine).statement.summary["TOTAL"][0] == sum(r.credit for r in listed())
    credits = b.plain(sum(r.credit for r in listed())).encode()
    assert genuine.count(credits) == 1  # the totals row (the page streams are not compressed)
    doctored = genuine.replace(credits, b"9" + credits[1:])
    result = analyse(doctored)
    assert result.verdict == "tampered"
    assert [s.code for s in result.signals] == ["summary_mismatch"]


def test_dates_ambiguous_over_the_whole_column_are_refused_with_a_reason() -> None:
    rows = [
        replace(r, day=date(2024, 1 + i, 2 + i), value_day=date(2024, 1 + i, 2 + i))
        for i, r in enumerate(listed()[:10])
    ]  # 02/01, 03/02, ...: day first and month first both read in order
    with pytest.raises(Refused) as refused:
        analyse(b.statement_pdf(b.EQUITY, rows))
    assert refused.value.code == "ambiguous_dates"
    assert "Transaction Date" in refused.value.message

    settled = [*rows, replace(listed()[10], day=date(2024, 11, 25), value_day=date(2024, 11, 25))]
    statement = analyse(b.statement_pdf(b.EQUITY, settled)).statement  # one 25/11 settles it
    assert statement.transactions[0].time.date() == date(2024, 1, 2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234.56", Money(123456, None)),
        ("1 234.56", Money(123456, None)),
        (".50", Money(50, None)),
        ("(20.00)", Money(-2000, None)),
        ("-18,088.25", Money(-1808825, None)),
        ("5.00-", Money(-500, None)),
        ("KES 1,000.00", Money(100000, None)),
        ("\u20a61,000.00", Money(100000, None)),
        ("NGN 5.00 DR", Money(-500, "dr")),
        ("12,001.10 CR", Money(1200110, "cr")),
        ("000000000001", None),  # a reference, not money
        ("07/12/2016", None),
        ("INTEREST PAID", None),
    ],
)
def test_bank_amount_formats(text: str, expected: Money | None) -> None:
    assert money(text) == expected


def _pdf(*lines: str) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out)
    for index, line in enumerate(lines):
        canvas.drawString(60, 780 - 14 * index, line)
    canvas.save()
    return out.getvalue()


def test_other_pdfs_are_refused_as_an_unsupported_layout() -> None:
    with pytest.raises(Refused) as refused:  # the "invalid" fixtures of ng-bank-parser
        analyse(_pdf("Hello world!", "This a random PDF file for testing our parsers."))
    assert refused.value.code == "unsupported_layout"
    words = _pdf("Account Statement", "Account Number: 0123456789", "Available Balance 5.00")
    with pytest.raises(Refused) as refused:  # a bank's words but no transaction table
        analyse(words)
    assert refused.value.code == "unsupported_layout"
    assert "debit and credit" in refused.value.message


def test_locks_an_empty_owner_password_opens_and_a_user_password_is_asked_for() -> None:
    opened = analyse(pdf_of("uba"))  # UBA's: a user password, an empty owner password
    assert opened.statement.pdf is not None and opened.statement.pdf.encrypted
    with pytest.raises(Refused) as refused:
        analyse(pdf_of("firstbank"))
    assert refused.value.code == "password_required"
    assert len(analyse(pdf_of("firstbank"), password="97531").statement.transactions) == 45


def test_amounts_printed_into_one_another_are_read_apart() -> None:
    rich = [replace(r, balance=r.balance + 12_000_000_00) for r in listed()]
    statement = analyse(b.statement_pdf(b.ECOBANK, rich)).statement  # narrow cells, big sums
    assert [t.balance for t in statement.transactions] == [r.balance for r in rich]
    assert [t.paid_in for t in statement.transactions] == [r.credit for r in rich]


def test_white_titles_on_a_dark_cell_are_text_white_elsewhere_is_hidden() -> None:
    out = io.BytesIO()
    canvas = Canvas(out)
    canvas.setFillColorRGB(216 / 255, 33 / 255, 35 / 255)  # UBA's red title cells
    canvas.rect(50, 700, 100, 14, 0, 1)
    canvas.setFillColorRGB(0.98, 0.98, 0.98)  # a near-white box (Ecobank's rows)
    canvas.rect(200, 700, 100, 14, 0, 1)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.drawString(55, 704, "Balance")
    canvas.drawString(205, 704, "1,000.00")  # white on near-white: invisible to a reader
    canvas.drawString(355, 704, "2,000.00")  # white on the page
    canvas.save()
    pdf = pdf_reader.open_pdf(out.getvalue(), None)
    try:
        (page,) = list(pdf_reader.pages(pdf))
    finally:
        pdf.close()
    assert [[c.text for c in line] for line in page.lines] == [["Balance"]]
    assert len(page.overlays) == 2 and all("white" in o["how"] for o in page.overlays)


def test_a_page_of_nothing_but_title_words_is_refused_not_searched_forever() -> None:
    out = io.BytesIO()
    canvas = Canvas(out)
    canvas.setFont("Helvetica", 3)
    canvas.drawString(10, 830, "Account Number Statement Balance")
    for index in range(250):
        y = 825 - 3 * index
        for x, word in ((10, "Date"), (40, "Narration"), (90, "Debit"), (120, "Credit")):
            canvas.drawString(x, y, word)
        canvas.drawString(150, y, "Balance")
        canvas.drawString(200, y, "Opening Balance")
    canvas.save()
    with pytest.raises(Refused) as refused:
        analyse(out.getvalue())
    assert refused.value.code == "unsupported_layout"
