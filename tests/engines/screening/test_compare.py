"""compare_names: the names a client holds against the names on a registry record."""

from __future__ import annotations

import pytest

from hakiki.engines.screening import compare_names


def test_exact_ignoring_case_and_accents() -> None:
    result = compare_names("José", "Müller", "JOSE", None, "MULLER")
    assert result.match
    assert result.score == 1.0
    assert result.reason == "first name matches; last name matches"
    assert result.first_name.to_dict() == {"supplied": "José", "on_record": "JOSE", "score": 1.0}


def test_record_has_middle_names() -> None:
    result = compare_names("Adam", "Malima", "ADAM", "KIGHOMA ALI", "MALIMA")
    assert result.match and result.score == 1.0


def test_supplied_first_name_is_the_record_middle_name() -> None:
    result = compare_names("Wanjiru", "Kamau", "Grace", "Wanjiru", "Kamau")
    assert result.match
    assert result.first_name.on_record == "Wanjiru"
    assert 0.85 <= result.first_name.score < 1.0
    assert "middle name" in result.reason


def test_order_of_given_names_does_not_matter() -> None:
    result = compare_names("Kighoma Adam", "Malima", "Adam", "Kighoma", "Malima")
    assert result.match and result.score == 1.0
    assert result.first_name.on_record == "Adam Kighoma"


def test_small_typo() -> None:
    result = compare_names("Adam", "Malina", "Adam", None, "Malima")
    assert result.match
    assert 0.85 < result.last_name.score < 1.0
    assert "last name nearly matches ('Malina' vs 'Malima')" in result.reason


def test_swapped_names_match_but_never_exactly() -> None:
    result = compare_names("Malima", "Adam", "ADAM", None, "MALIMA")
    assert result.match
    assert result.score == 0.9
    assert "swapped" in result.reason


@pytest.mark.parametrize(
    ("supplied", "record"),
    [
        (("Peter", "Malima"), ("Adam", None, "Malima")),  # sibling
        (("Grace", "Kamau"), ("Grace", "Wanjiru", "Otieno")),  # another family
        (("John", "Smith"), ("Adam", None, "Malima")),
    ],
)
def test_different_people(supplied: tuple[str, str], record: tuple[str, str | None, str]) -> None:
    result = compare_names(*supplied, *record)
    assert not result.match
    assert "differs" in result.reason


def test_transliteration_variant_and_initial() -> None:
    assert compare_names("Mohamed", "Ali", "Muhammad", None, "Ali").match
    initial = compare_names("A", "Malima", "Adam", None, "Malima")
    assert initial.first_name.score == 0.6
    assert initial.match  # at the default threshold; a stricter one rejects it
    assert not compare_names("A", "Malima", "Adam", None, "Malima", threshold=0.9).match


def test_missing_parts() -> None:
    only_last = compare_names(None, "Malima", "Adam", None, "Malima")
    assert only_last.match
    assert "first name not supplied" in only_last.reason
    nothing = compare_names(None, "  ", "Adam", None, "Malima")
    assert not nothing.match
    assert nothing.reason == "no name supplied"
    absent = compare_names("Adam", "Malima", None, None, "Malima")
    assert not absent.match
    assert "first name not on record" in absent.reason
    assert absent.to_dict()["first_name"]["on_record"] is None
