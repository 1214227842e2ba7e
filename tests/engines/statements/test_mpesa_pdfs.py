"""Safaricom's M-Pesa statements as its two generators draw them (2023/24 OpenPDF, 2022 iText;
tests/statements/mpesa_look.py): every row read, the summary's totals met to the cent, no
signal on a genuine file; each doctored copy, made the way applicants make them, named by the
signal that caught it, with its evidence."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest

from hakiki.engines.statements import analyse
from hakiki.engines.statements.layouts import MPESA_OPENPDF, TableReader
from hakiki.engines.statements.model import Analysis
from hakiki.engines.statements.pdf_reader import Cell, Fill, Page
from tests.statements import documents as d

ERAS = ("openpdf", "itext")
# The balance chain of rows printed out of order within one second is the sheets helper's
# (issue 31, signals.balance_breaks); every other signal must stay silent on genuine files.
CHAIN = {"balance_break"}


@cache
def rows() -> tuple[d.Row, ...]:
    return tuple(d.mpesa_rows(150, 3, seed=11, quirks=True))


@cache
def genuine(era: str, password: str | None = None) -> bytes:
    return d.mpesa_pdf(list(rows()), era=era, password=password)


def codes(analysis: Analysis) -> set[str]:
    return {s.code for s in analysis.signals}


def signal(analysis: Analysis, code: str) -> dict[str, object]:
    [found] = [s for s in analysis.signals if s.code == code]
    return found.evidence


@pytest.mark.parametrize("era", ERAS)
def test_each_generation_is_read_whole_with_the_summary_met(era: str) -> None:
    password = d.ID_NUMBER
    analysis = analyse(genuine(era, password), password=password)
    statement = analysis.statement
    assert statement.layout == f"mpesa_{era}_v1"
    listed = list(rows())
    assert Counter(t.receipt for t in statement.transactions) == Counter(r.receipt for r in listed)
    assert len(statement.transactions) == len(listed)
    assert {t.status for t in statement.transactions} == {"Completed", "Cancelled"}
    paid_in = sum(t.paid_in for t in statement.transactions)
    withdrawn = sum(t.withdrawn for t in statement.transactions)
    assert statement.summary["TOTAL"] == (paid_in, withdrawn)  # Cancelled rows counted
    assert paid_in == sum(r.paid_in for r in listed)
    header = statement.header
    assert (header.name, header.phone) == (d.NAME, d.PHONE)
    assert (header.period_start, header.period_end) == (
        listed[0].time.date(),
        listed[-1].time.date(),
    )
    assert codes(analysis) <= CHAIN, [s.as_dict() for s in analysis.signals]
    assert statement.pdf is not None and len(statement.pdf.page_labels) == statement.pdf.pages


def test_white_titles_on_green_cells_are_read_as_text_not_as_hidden_text() -> None:
    analysis = analyse(genuine("openpdf"))
    assert analysis.statement.pdf is not None and analysis.statement.pdf.overlays == []
    assert "overlaid_text" not in codes(analysis)


@pytest.mark.parametrize("era", ERAS)
def test_an_amount_painted_over_in_an_editor(era: str) -> None:
    target = next(r for r in rows()[40:] if [x.balance for x in rows()].count(r.balance) == 1)
    old, new = d.money(target.balance), d.money(target.balance + 10_000_00)
    analysis = analyse(d.painted_over(genuine(era), old, new))
    assert analysis.verdict == "tampered"
    [place] = signal(analysis, "overlaid_text")["places"]  # type: ignore[misc]
    assert place["how"] == "text covered by a drawn shape"
    assert (place["hidden"], place["shown"]) == (old, new) and place["page"] >= 1
    # the editor types in Helvetica: foreign to the 2023/24 DejaVuSans, not to the 2022 file
    fonts_differ = d.mpesa_look.body_font(d.mpesa_look.ERAS[era]) != "Helvetica"
    assert ("foreign_font" in codes(analysis)) == fonts_differ


@pytest.mark.parametrize("era", ERAS)
def test_a_page_removed(era: str) -> None:
    analysis = analyse(d.page_removed(genuine(era), 2))
    assert {"pages_missing", "summary_mismatch"} <= codes(analysis)
    evidence = signal(analysis, "pages_missing")
    pages = evidence["pages_in_file"]
    assert evidence["pages_declared"] == [pages + 1]  # type: ignore[operator]
    assert {"page": 2, "printed": f"3 of {pages + 1}"} in evidence["misnumbered"]  # type: ignore[operator]
    assert analysis.verdict == "tampered"


def test_an_incremental_edit() -> None:
    target = rows()[60]
    edited = d.incremental_edit(
        genuine("itext"), d.money(target.balance), d.money(target.balance + 50_000_00)
    )
    analysis = analyse(edited)
    assert "incremental_update" in codes(analysis) and analysis.verdict == "tampered"
    assert signal(analysis, "incremental_update")["eof_markers"] == 2


@pytest.mark.parametrize("era", ERAS)
def test_a_re_export_by_a_word_processor(era: str) -> None:
    # What LibreOffice writes when it re-exports a PDF opened in Draw.
    analysis = analyse(d.resaved(genuine(era), "LibreOffice 7.3", creator="Draw"))
    evidence = signal(analysis, "producer_mismatch")
    assert evidence == {"producer": "LibreOffice 7.3", "creator": "Draw"}
    assert analysis.verdict == "tampered"


@pytest.mark.parametrize("era", ERAS)
def test_a_password_removed_by_an_unlocking_tool_is_named_but_not_tampered(era: str) -> None:
    producer = "3-Heights(TM) PDF Security Shell 4.12.26.3 (http://www.pdf-tools.com)"
    creator = d.mpesa_look.ERAS[era].creator
    unlocked = d.resaved(
        genuine(era, d.ID_NUMBER),
        producer,
        creator=creator,
        modified="D:20240331104102+03'00'",
        password=d.ID_NUMBER,
    )
    analysis = analyse(unlocked)
    evidence = signal(analysis, "unlocked_by_tool")
    assert (evidence["producer"], evidence["creator"]) == (producer, creator)
    assert evidence["seconds_after_creation"] == 12 * 60 + 36
    assert codes(analysis) - CHAIN == {"unlocked_by_tool"}
    assert analysis.verdict != "tampered" or codes(analysis) & CHAIN


@pytest.mark.parametrize(("era", "other"), [("openpdf", "itext"), ("itext", "openpdf")])
def test_a_generator_that_does_not_print_this_layout_is_a_mismatch(era: str, other: str) -> None:
    producer = d.mpesa_look.ERAS[other].producer
    analysis = analyse(d.mpesa_pdf(list(rows()), era=era, producer=producer))
    evidence = signal(analysis, "producer_mismatch")
    assert evidence["producer"] == producer and analysis.verdict != "genuine"


@pytest.mark.parametrize("pale", [False, True])
def test_white_text_on_nothing_coloured_is_hidden_text(pale: bool) -> None:
    target = rows()[30]
    salary = "SALARY"
    doctored = d.Doctoring(white={target.receipt: salary}, pale=pale)
    analysis = analyse(d.mpesa_pdf(list(rows()), doctoring=doctored))
    [place] = signal(analysis, "overlaid_text")["places"]  # type: ignore[misc]
    assert place["how"] == "white text" and analysis.verdict == "tampered"


def test_a_business_statements_extra_columns_are_left_aside() -> None:
    """Pay Bill statements add Transaction Type and Other Party after Balance (mpesa2csv):
    the seven columns are read by their title cells, the extra ones left aside."""
    edges = [*d.mpesa_look.OPENPDF.edges, 620.0, 700.0]
    titles = [*d.mpesa_look.COLUMNS, "Transaction Type", "Other Party"]
    fills = [Fill(a, b, 60, 71, (67, 176, 42)) for a, b in itertools.pairwise(edges)]
    title_line = [
        Cell(a + 5, b - 5, t, {"DejaVuSans"}, 69)
        for a, b, t in zip(edges, edges[1:], titles, strict=False)
    ]
    values = [
        "SC0L06L7D3",
        "2024-03-01 10:00:00",
        "Pay Bill Online to 888880",
        "Completed",
        "",
        "-500.00",
        "1,200.00",
        "Pay Bill",
        "254700000001",
    ]
    row = [
        Cell(a + 3, b - 3, v, {"DejaVuSans"}, 79)
        for a, b, v in zip(edges, edges[1:], values, strict=False)
        if v
    ]
    reader = TableReader(MPESA_OPENPDF)
    reader.read(Page(2, [title_line, row], [], 20, 0, fills))
    [read] = reader.rows
    assert (read.receipt, read.withdrawn, read.balance, read.details) == (
        "SC0L06L7D3", 500_00, 1_200_00, "Pay Bill Online to 888880",
    )  # fmt: skip
