"""Scoring rules in isolation."""

from __future__ import annotations

from hakiki.engines.screening.model import ListEntity, NameEntry, NameKind
from hakiki.engines.screening.normalize import normalize_name
from hakiki.engines.screening.scorer import (
    compare_birth_dates,
    compare_countries,
    score_entity,
    score_name,
)


def name_score(query: str, listed: str, kind: NameKind = "primary") -> float:
    return score_name(normalize_name(query), normalize_name(listed), kind).score


def test_name_scores() -> None:
    assert name_score("Adam Malima", "Adam MALIMA") == 1.0
    assert 0.85 <= name_score("Adam Kighoma Ali Malima", "Adam Malima") < 1.0
    assert 0.8 <= name_score("Adam Malima", "Adam Kighoma Malima") < 0.9  # a middle name missing
    # surname written first, one common part: the order carries little (issue 12), never 1.0
    assert name_score("Malima Adam", "Adam Malima") == 0.97
    assert name_score("Adam Malima", "Adam Malima", "weak_alias") == 0.95
    assert name_score("Adam Malina", "Adam Malima") > 0.9
    assert name_score("Adam Juma", "Adam Malima") < 0.8
    assert name_score("Patricia Lucas Wheeler", "PATRICIA") <= 0.65  # one part only
    assert name_score("Grace Kamau", "Peter Otieno") == 0.0


def test_name_reason_is_readable() -> None:
    scored = score_name(
        normalize_name("Adam Kighoma Ali Malimma"), normalize_name("Adam MALIMA"), "primary"
    )
    assert scored.reason == (
        "2 of 2 list-name parts matched ('adam' exact, 'malimma'~'malima' typo); "
        "extra in query: 'kighoma', 'ali'; a name part on one side only (omitted, not contradicted)"
    )


def test_birth_dates() -> None:
    assert compare_birth_dates("1971-03-02", ["1971-03-02"])[:2] == (1.0, 0.05)
    assert compare_birth_dates("1971-03-02", ["1971"])[:2] == (0.8, 0.02)
    assert compare_birth_dates("1971", ["1971-03-02"])[:2] == (0.8, 0.02)
    assert compare_birth_dates("1971-03-02", ["1971-02-03"])[:2] == (0.7, 0.0)
    assert compare_birth_dates("1971-03-02", ["1971-07-09"])[1] < 0
    assert compare_birth_dates("1971", ["1972"])[1] < 0
    assert compare_birth_dates("1971-03-02", ["1950-01-01"])[:2] == (0.0, -0.2)
    # the best of several list dates counts
    assert compare_birth_dates("1960-04-11", ["1963-04-11", "1960-04-11"])[0] == 1.0
    assert compare_birth_dates("1971", [])[2] == "list gives no date of birth"
    assert "not understood" in compare_birth_dates("soon", ["1971"])[2]


def test_countries() -> None:
    assert compare_countries(["ke"], ["ke", "ug"])[:2] == (1.0, 0.02)
    assert compare_countries(["ke"], ["af"])[:2] == (0.0, -0.05)
    assert compare_countries(["ke"], [])[1] == 0.0


def test_entity_score_combines_features() -> None:
    entity = ListEntity(
        entity_id="1",
        list_code="t",
        schema="Person",
        names=(NameEntry("Adam MALIMA"),),
        birth_dates=("1971-03-02",),
        countries=("tz",),
        identifiers=(("passport", "AB123456"),),
        gender="male",
    )
    name = score_name(normalize_name("Adam Malima"), normalize_name("Adam MALIMA"), "primary")
    total, why = score_entity(name, entity, birth_date="1971-03-02", countries=["tz"])
    assert total == 1.0
    assert why["birth_date"]["reason"] == "same date 1971-03-02"
    total, why = score_entity(name, entity, birth_date="1980-01-01", gender="female")
    assert total == 0.7
    assert why["gender"]["effect"] == -0.1
    weak = score_name(normalize_name("John Smith"), normalize_name("Adam MALIMA"), "primary")
    total, why = score_entity(weak, entity, identifier_matches=[("passport", "AB123456")])
    assert total == 0.85
    assert why["identifier"]["reason"] == "same passport AB123456"
