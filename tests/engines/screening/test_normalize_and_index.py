"""Normalisation, token similarity and the candidate index."""

from __future__ import annotations

from hakiki.engines.screening import ScreeningEngine
from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.index import (
    MAX_CANDIDATES,
    CandidateIndex,
    IdentifierIndex,
    normalize_identifier,
)
from hakiki.engines.screening.normalize import normalize_name
from hakiki.engines.screening.similarity import align, token_similarity


def test_transliteration_case_and_punctuation() -> None:
    assert normalize_name("José NUÑEZ-García").tokens == ("jose", "nunez", "garcia")
    assert normalize_name("Шевченко").tokens == ("shevchenko",)
    assert normalize_name("Sa'id AL-'ADIL").tokens == ("said", "al", "adil")
    assert normalize_name("Dr. Ayman AL ZAWAHIRI").tokens == ("ayman", "al", "zawahiri")


def test_particles_and_initials_weigh_less() -> None:
    name = normalize_name("Abu J. al Baghdadi")
    assert dict(zip(name.tokens, name.weights, strict=True)) == {
        "abu": 1.0,
        "j": 0.5,
        "al": 0.3,
        "baghdadi": 1.0,
    }


def test_legal_forms() -> None:
    limited = normalize_name("ACME TRADING COMPANY LIMITED", is_org=True)
    ltd = normalize_name("Acme Trading Co. Ltd", is_org=True)
    assert limited.substantive == ltd.substantive == ("acme", "trading")
    for alone in ("CORP", "LIMITED", "Ltd.", "Company Limited", "LLC"):
        assert not normalize_name(alone, is_org=True), alone


def test_token_similarity_rules() -> None:
    assert token_similarity("malima", "malima") == (1.0, "exact")
    assert token_similarity("j", "joseph") == (0.6, "initial")
    score, how = token_similarity("malina", "malima")
    assert how == "typo" and 0.85 < score < 1.0
    assert token_similarity("mohamed", "muhammad") == (0.95, "variant")  # variants.py
    assert token_similarity("mohamed", "mohammet") == (0.85, "sounds alike")
    assert token_similarity("ali", "ala") == (0.0, "")  # no typos on short tokens
    assert token_similarity("hassan", "hussein")[0] == 0.0
    assert token_similarity("kamau", "okafor")[0] == 0.0


def test_alignment_handles_order_and_spacing() -> None:
    swapped = align(normalize_name("Kony Joseph"), normalize_name("Joseph KONY"))
    assert swapped.reordered
    assert swapped.list_coverage == 1.0
    spaced = align(normalize_name("Abdulrahman Khan"), normalize_name("Abdul Rahman Khan"))
    assert spaced.list_coverage == 1.0
    assert any(m.how == "written together" for m in spaced.matches)


def test_countries() -> None:
    assert to_country_code("Kenya") == "ke"
    assert to_country_code("KE") == "ke"
    assert to_country_code("tza") == "tz"
    assert to_country_code("Korea, North") == "kp"
    assert to_country_code("Côte d'Ivoire") == "ci"
    assert to_country_code("Region: Crimea") == "ua"
    assert to_country_code("undetermined") is None


def _listed_name(engine: ScreeningEngine, nid: int) -> str:
    table = engine.index.table
    return engine._entities[int(table.entity[nid])].names[int(table.slot[nid])].name


def test_candidates_are_few_and_include_typos(engine: ScreeningEngine) -> None:
    index = engine.index
    assert index.vocabulary_size > 20000
    for query, expected in (
        ("Joseph Kony", "JOSEPH KONY"),
        ("Josef Konny", "JOSEPH KONY"),  # two typos
        ("Abdelhalim Zidane Mohammed", "MOHAMMED SALAHALDIN ABD EL HALIM ZIDANE"),
        ("Aerocaribean Airlines", "AEROCARIBBEAN AIRLINES"),
    ):
        is_org = "Airlines" in query
        found = index.candidates(normalize_name(query, is_org), limit=40)
        assert 0 < len(found) <= MAX_CANDIDATES
        assert expected in {_listed_name(engine, n) for n in found}, query


def test_candidates_include_spelling_variants_and_short_forms() -> None:
    # Neither within one edit nor sounding alike: only the variants table links them.
    listed = ["Olanrewaju Bakare", "Abubakar Zulkarnaini", "Muhammad Yusuf", "Grace Wanjiru"]
    index = CandidateIndex.of(normalize_name(name) for name in listed)

    def found(query: str) -> list[str]:
        return [listed[n] for n in index.candidates(normalize_name(query))]

    assert found("Lanre") == ["Olanrewaju Bakare"]
    assert found("Abu Bakr")[0] == "Abubakar Zulkarnaini"
    assert found("Mohamed") == ["Muhammad Yusuf"]
    assert found("Mohd") == ["Muhammad Yusuf"]


def test_candidates_include_y_for_i_spellings() -> None:
    index = CandidateIndex.of([normalize_name("Yuriy")])
    # two letters apart and another first letter: only the y/i spelling links them
    assert index.candidates(normalize_name("Iurii")) == [0]
    assert token_similarity("iurii", "yuriy") == (0.95, "transliteration")


def test_candidates_are_a_short_list_not_the_whole_index(engine: ScreeningEngine) -> None:
    """What makes the index fast: a common query reaches a few dozen names (through its tokens
    and their spellings) instead of every name. (Its speed is measured by bench/screening_engine.py,
    not asserted here: a timed assertion fails on a loaded machine.)"""
    index = engine.index
    query = normalize_name("Mohamed Abdullahi Hassan")
    found = index.candidates(query)
    assert 0 < len(found) <= MAX_CANDIDATES and index.name_count > 100 * MAX_CANDIDATES


def test_identifier_index() -> None:
    index = IdentifierIndex([(0, "A-123 456"), (1, "12"), (2, "a123456")])
    assert normalize_identifier(" a-123/456 ") == "A123456"
    assert index.lookup("A123456") == (0, 2)
    assert index.lookup("12") == ()  # too short to mean anything
