"""The whole pipeline and its verdict, on rendered cards: clear, altered, missing zone."""

from __future__ import annotations

from datetime import date

from hakiki.engines.documents.verify import Analysis, Side, analyse, verdict
from hakiki.engines.face.images import load_image
from tests.documents.specimens import TD1_KENYA, render_card

TODAY = date(2026, 11, 24)


def run(front: bytes, kind: str = "national_id", country: str | None = "KE") -> Analysis:
    image = load_image(front, max_bytes=1 << 20, max_side=2000)
    side = Side("front_image", front, image.format, image.pixels, image.original_size)
    return analyse(side, None, kind, country, TODAY)


def statuses(analysis: Analysis) -> dict[str, str]:
    return {c.name: c.status for c in analysis.checks}


def test_a_genuine_card_is_clear() -> None:
    analysis = run(render_card(TD1_KENYA, angle=3, blur=0.8, visual=True))
    assert verdict(analysis.checks) == "clear", [c.reason for c in analysis.checks]
    assert statuses(analysis)["visual_zone"] == "passed"
    assert analysis.zone is not None and analysis.zone.document_number == "123456789"
    assert analysis.retry_reasons == []


def test_an_altered_birth_date_fails_its_check_digit_and_rejects() -> None:
    altered = (TD1_KENYA[0], "9101011" + TD1_KENYA[1][7:], TD1_KENYA[2])  # 1990 -> 1991
    analysis = run(render_card(altered))
    assert statuses(analysis)["mrz"] == "failed"
    assert verdict(analysis.checks) == "rejected"
    assert analysis.retry_reasons == []


def test_no_zone_on_a_passport_photo_is_retryable_and_a_licence_needs_none() -> None:
    blank = render_card(("REPUBLIC OF KENYA",))
    passport = run(blank, "passport")
    assert statuses(passport)["mrz"] == "attention" and passport.retry_reasons
    assert verdict(passport.checks) == "attention" and passport.zone is None
    assert statuses(passport)["visual_zone"] == "not_run"  # no zone to hold the print against
    licence = run(blank, "drivers_license")
    assert statuses(licence)["mrz"] == "not_run" and licence.retry_reasons == []
    assert statuses(licence)["consistency"] == "not_run"
