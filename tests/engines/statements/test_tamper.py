"""Every doctored statement is flagged with the signal of its edit; no genuine one is flagged.
Statements are generated with reportlab in the layouts read (tests/statements/documents.py)."""

from __future__ import annotations

from functools import cache

import pytest

from hakiki.engines.statements import Declared, Refused, analyse
from hakiki.engines.statements.model import Analysis
from tests.statements import documents as d


@cache
def rows() -> tuple[d.Row, ...]:
    return tuple(d.mpesa_rows(150, 3, seed=11))


def codes(analysis: Analysis) -> set[str]:
    return {s.code for s in analysis.signals}


def genuine() -> bytes:
    return d.mpesa_pdf(list(rows()))


def test_a_genuine_mpesa_statement_is_read_whole_and_not_flagged() -> None:
    analysis = analyse(genuine(), declared=Declared(name="Jane Mwangi", phone="+254 722 000111"))
    statement = analysis.statement
    assert statement.layout == "mpesa_openpdf_v1"
    assert statement.issuer == "mpesa"
    assert len(statement.transactions) == len(rows())
    assert [t.receipt for t in statement.transactions] == [r.receipt for r in rows()]
    assert [t.balance for t in statement.transactions] == [r.balance for r in rows()]
    assert statement.header.name == d.NAME and statement.header.phone == d.PHONE
    assert analysis.signals == [] and analysis.verdict == "genuine"


def test_a_genuine_airtel_statement_is_read_and_not_flagged() -> None:
    analysis = analyse(d.airtel_pdf(list(rows())), statement_type="airtel_money")
    assert analysis.statement.layout == "airtel_money_v2"
    assert len(analysis.statement.transactions) == len(rows())
    assert analysis.verdict == "genuine", [s.as_dict() for s in analysis.signals]


def test_a_genuine_locked_statement_opens_with_its_password() -> None:
    locked = d.mpesa_pdf(list(rows()), password=d.ID_NUMBER)
    analysis = analyse(locked, password=d.ID_NUMBER)
    assert analysis.verdict == "genuine" and len(analysis.statement.transactions) == len(rows())
    with pytest.raises(Refused) as wrong:
        analyse(locked, password="00000000")
    assert (wrong.value.code, wrong.value.field) == ("wrong_password", "password")
    with pytest.raises(Refused) as missing:
        analyse(locked)
    assert missing.value.code == "password_required"


def test_an_amount_edited_with_an_incremental_save() -> None:
    target = rows()[40]
    edited = d.incremental_edit(
        genuine(), d.money(target.balance), d.money(target.balance + 50_000_00)
    )
    analysis = analyse(edited)
    assert {"incremental_update", "balance_break"} <= codes(analysis)
    [breaks] = [s for s in analysis.signals if s.code == "balance_break"]
    assert target.receipt in {b["receipt"] for b in breaks.evidence["breaks"]}
    assert analysis.verdict == "tampered"


@pytest.mark.parametrize("producer", ["Microsoft Word 2013", "www.ilovepdf.com"])
def test_a_file_resaved_by_an_editor(producer: str) -> None:
    analysis = analyse(d.resaved(genuine(), producer))
    [signal] = [s for s in analysis.signals if s.code == "producer_mismatch"]
    assert signal.severity == "high" and signal.evidence["producer"] == producer
    assert analysis.verdict == "tampered"


def test_a_file_resaved_by_another_program_is_suspicious() -> None:
    analysis = analyse(d.resaved(genuine(), "Some PDF Printer 1.0"))
    assert codes(analysis) == {"producer_mismatch"} and analysis.verdict == "suspicious"


def test_an_amount_overlaid_on_a_white_box() -> None:
    target = rows()[60]
    doctored = d.Doctoring(covered={target.receipt: d.money(target.balance + 10_000_00)})
    analysis = analyse(d.mpesa_pdf(list(rows()), doctoring=doctored))
    assert {"overlaid_text", "balance_break"} <= codes(analysis)
    [overlay] = [s for s in analysis.signals if s.code == "overlaid_text"]
    assert overlay.evidence["places"][0]["how"] == "text covered by a drawn shape"


def test_new_text_drawn_over_hidden_text() -> None:
    target = rows()[70]
    doctored = d.Doctoring(overdrawn={target.receipt: d.money(target.balance + 7_000_00)})
    analysis = analyse(d.mpesa_pdf(list(rows()), doctoring=doctored))
    assert "overlaid_text" in codes(analysis)
    [overlay] = [s for s in analysis.signals if s.code == "overlaid_text"]
    assert overlay.evidence["places"][0]["how"] == "text drawn over other text"


def test_a_foreign_font_in_the_amount_column() -> None:
    target = rows()[33]
    doctored = d.Doctoring(amount_font={target.receipt: "Times-Roman"})
    analysis = analyse(d.mpesa_pdf(list(rows()), doctoring=doctored))
    [signal] = [s for s in analysis.signals if s.code == "foreign_font"]
    assert signal.evidence["column_font"] == d.mpesa_look.body_font(d.mpesa_look.OPENPDF)
    assert signal.evidence["foreign_fonts"] == {"Times-Roman": [target.receipt]}
    assert codes(analysis) == {"foreign_font"}


def test_summary_totals_that_disagree() -> None:
    analysis = analyse(d.mpesa_pdf(list(rows()), doctoring=d.Doctoring(summary_extra=20_000_00)))
    assert codes(analysis) == {"summary_mismatch"} and analysis.verdict == "tampered"


def test_duplicate_receipts() -> None:
    analysis = analyse(d.mpesa_pdf(d.with_duplicate(list(rows()))))
    assert codes(analysis) == {"duplicate_receipt"}


def test_declared_name_and_phone_that_are_not_the_holders() -> None:
    analysis = analyse(genuine(), declared=Declared(name="Peter Otieno", phone="0733999888"))
    assert codes(analysis) == {"declared_name_mismatch", "declared_phone_mismatch"}
    assert analysis.verdict == "suspicious"


def test_a_scanned_statement_is_refused() -> None:
    with pytest.raises(Refused) as refused:
        analyse(d.scanned_pdf())
    assert refused.value.code == "scanned"


def test_a_file_of_another_type_than_declared_is_refused() -> None:
    with pytest.raises(Refused) as refused:
        analyse(genuine(), statement_type="airtel_money")
    assert refused.value.field == "statement_type"


def airtel() -> bytes:
    return d.airtel_pdf(list(rows()))


def test_an_airtel_statement_resaved_by_word_as_in_the_uganda_study() -> None:
    analysis = analyse(d.resaved(airtel(), "Microsoft® Word 2013"))
    [signal] = [s for s in analysis.signals if s.code == "producer_mismatch"]
    assert signal.severity == "high" and analysis.verdict == "tampered"


def test_an_airtel_amount_edited_with_an_incremental_save() -> None:
    target = rows()[20]
    edited = d.incremental_edit(airtel(), d.money(target.balance), d.money(target.balance + 1))
    analysis = analyse(edited, statement_type="airtel_money")
    assert {"incremental_update", "balance_break"} <= codes(analysis)


def test_a_pdf_bomb_is_refused_before_a_page_is_decoded() -> None:
    import io
    import zlib

    import pypdf
    from pypdf.generic import NameObject, StreamObject

    writer = pypdf.PdfWriter()
    page = writer.add_blank_page(595, 842)
    contents = StreamObject()
    contents.set_data(zlib.compress(b"0" * 500_000_000, 9))  # 500 MB of page content
    contents[NameObject("/Filter")] = NameObject("/FlateDecode")
    page[NameObject("/Contents")] = writer._add_object(contents)
    out = io.BytesIO()
    writer.write(out)
    assert len(out.getvalue()) < 1_000_000
    with pytest.raises(Refused) as refused:
        analyse(out.getvalue())
    assert refused.value.code == "too_large"
