"""The visual_zone check on real scans and on cards rendered here: the printed page read by
PP-OCR and compared with the zone (passed, attention when a printed field differs, not_run
when the print was read in part, without a zone or any printed text)."""

from __future__ import annotations

from pathlib import Path

from hakiki.engines.documents.verify import Check, verdict, visual_zone_check
from hakiki.engines.documents.zone import scan
from hakiki.engines.face.images import load_image
from tests.documents.specimens import TD1_KENYA, render_card
from tests.engines.documents.test_pipeline import run

REAL = Path(__file__).resolve().parents[2] / "data" / "documents" / "real"
FIELDS = ("document_number", "surname", "given_names", "birth_date", "expiry_date", "sex")


def check_of(data: bytes) -> Check:
    scanned = scan(load_image(data, max_bytes=1 << 22, max_side=2000).pixels)
    assert scanned.reading is not None
    return visual_zone_check([scanned], scanned, scanned.reading.zone)


def outcomes(check: Check) -> dict[str, object]:
    return {f: check.signals[f] for f in FIELDS}


def test_the_german_specimen_prints_what_its_zone_says() -> None:
    # Numbered fields in three languages ("4. Date of birth/Geburtstag/Date de naissance"),
    # dates as 12.08.1964, the number CA000000.
    found = check_of((REAL / "pe-100_pass-bdr.jpg").read_bytes())
    assert found.status == "passed", found.reason
    assert set(outcomes(found).values()) == {"match"}
    assert found.signals["outcome"] == "confirmed" and int(found.signals["lines"] or 0) > 10


def test_the_utopian_specimen_redrawn_prints_what_its_zone_says() -> None:
    # Dates as 12 AUG/AOUT 74; its frame touches the zone (read after trimming).
    found = check_of((REAL / "yu-1.png").read_bytes())
    assert found.status == "passed", found.reason
    assert {f: o for f, o in outcomes(found).items() if o != "match"} == {}


def test_a_rendered_card_with_its_visual_zone_passes() -> None:
    found = check_of(render_card(TD1_KENYA, angle=4, blur=0.8, visual=True))
    assert found.status == "passed", found.reason
    assert set(outcomes(found).values()) == {"match"}


def test_a_doctored_birth_date_is_attention_naming_the_field() -> None:
    analysis = run(render_card(TD1_KENYA, visual=True, printed={"birth_date": "01 JAN 1985"}))
    [found] = [c for c in analysis.checks if c.name == "visual_zone"]
    assert found.status == "attention"
    assert outcomes(found) == {
        "document_number": "match", "surname": "match", "given_names": "match",
        "birth_date": "mismatch", "expiry_date": "match", "sex": "match",
    }  # fmt: skip
    assert found.reason.startswith("printed otherwise than in the zone: birth_date;")
    assert found.signals["outcome"] == "differs"
    assert verdict(analysis.checks) == "attention"
    # the zone itself is sound: only the print disagrees
    assert {c.name: c.status for c in analysis.checks}["mrz"] == "passed"


def test_a_doctored_name_is_attention() -> None:
    found = check_of(render_card(TD1_KENYA, visual=True, printed={"surname": "OTIENO"}))
    assert found.status == "attention" and found.signals["surname"] == "mismatch"


def test_a_card_without_printed_fields_is_never_passed() -> None:
    # Text, but none of the fields: compared in part, so not run (never passed, and nothing
    # differs for a person to look at).
    found = check_of(render_card(TD1_KENYA))
    assert found.status == "not_run" and found.signals["outcome"] == "partial"
    assert found.reason.startswith("compared in part: ")
    assert set(outcomes(found).values()) == {"not_found"}
    assert "not found in the print: document_number, surname" in found.reason
