"""Issue 33: the name classes the engine still missed on held-out Kenyan and Nigerian pairs and
on UN positives with typos. Each rule is general, named in the explanation, and fails on the
scorer before it; the common-name protections of screening stay."""

from __future__ import annotations

import pytest

from hakiki.engines.screening.normalize import normalize_name
from hakiki.engines.screening.scorer import score_name, score_names_symmetric
from hakiki.engines.screening.similarity import token_similarity
from hakiki.lists.screen import compare_pair


def screened(query: str, listed: str) -> tuple[float, str]:
    result = score_name(normalize_name(query), normalize_name(listed), "primary")
    return result.score, result.reason


def compared(a: str, b: str) -> tuple[float, str]:
    result = score_names_symmetric(normalize_name(a), normalize_name(b), "primary")
    return result.score, result.reason


# --- Kenyan and Nigerian record styles -------------------------------------------------------


@pytest.mark.parametrize(
    ("full", "short"),
    [("Oluwadamilare", "Damilare"), ("Olufemi", "Femi"), ("Olatokunbo", "Tokunbo")],
)
def test_a_yoruba_given_name_without_its_olu_prefix_is_a_short_form(full: str, short: str) -> None:
    assert token_similarity(full.lower(), short.lower()) == (0.9, "short form")
    score, reason = compared(f"{full} Bankole Adeyemo", f"{short} Bankole Adeyemo")
    assert score >= 0.9
    assert "short form" in reason


def test_the_prefix_alone_or_a_short_rest_is_no_short_form() -> None:
    assert token_similarity("oluola", "ola")[0] == 0.0  # three letters left: no
    assert token_similarity("olumide", "mide")[1] == "short form"
    assert token_similarity("adeola", "ola")[0] == 0.0


def test_a_given_name_written_short_matches_in_context() -> None:
    score, reason = compared("Chris Wanyama Okello", "Christopher Wanyama Okello")
    assert score >= 0.85
    assert "short form" in reason
    # alone it is no match, and a surname that starts like another is no short form
    assert screened("Chris", "Christopher")[0] == 0.0
    score, _ = compared("Peter Okel", "Peter Okello")
    assert "short form" not in compared("Peter Okel", "Peter Okello")[1]


def test_yoruba_dotted_s_matches_s_and_sh() -> None:
    assert normalize_name("Jóṣúà Adébáyọ̀").tokens == ("josua", "adebayo")
    assert token_similarity("josua", "joshua") == (0.95, "transliteration")
    assert compared("Jóṣúà Kolawole Adebayo", "Joshua Kolawole Adebayo")[0] >= 0.95
    assert compared("Ṣẹgun Kolawole Adebayo", "Segun Kolawole Adebayo")[0] == 1.0


def test_a_maa_or_kalenjin_son_of_particle_is_no_name_part() -> None:
    name = normalize_name("Daniel Kasaine ole Sapit")
    assert name.substantive == ("daniel", "kasaine", "sapit")
    score, _ = compared("Daniel Kasaine ole Sapit", "Daniel Kasaine Sapit")
    assert score >= 0.95
    assert compared("Kiprono arap Chelimo", "Kiprono Chelimo")[0] >= 0.95
    # first, "Ole" is a given name (Scandinavian)
    assert normalize_name("Ole Gunnar Berg").substantive == ("ole", "gunnar", "berg")


def test_ben_first_is_a_given_name() -> None:
    assert normalize_name("Ben Wekesa-Barasa").substantive == ("ben", "wekesa", "barasa")
    score, _ = compared("Ben Wekesa-Barasa", "Ben Wekesa")
    assert score >= 0.85


def test_one_shared_part_with_extras_on_both_sides_needs_a_date_of_birth() -> None:
    a, b = "Nkechi Adaeze", "Nkechi Okafor"
    score, reason = compared(a, b)
    assert score < 0.8  # never on the name alone
    assert "a date of birth decides" in reason
    same = compare_pair(
        {
            "a": {"name": a, "birth_date": "1971-03-09", "country": "ng"},
            "b": {"name": b, "birth_date": "1971-03-09", "country": "ng"},
        },
        threshold=0.8,
    )
    assert same["decision"] == "match"
    other = compare_pair(
        {
            "a": {"name": a, "birth_date": "1971-03-09", "country": "ng"},
            "b": {"name": b, "birth_date": "1966-11-02", "country": "ng"},
        },
        threshold=0.8,
    )
    assert other["decision"] == "no_match"
    # screening keeps its single-part cap: a date of birth does not make a one-part hit
    assert screened(a, b)[0] <= 0.65


def test_given_name_and_surname_agreeing_with_other_middle_names_match_in_compare_mode() -> None:
    score, reason = compared("Peter Kimani Otieno", "Peter Mwangi Otieno")
    assert score >= 0.8
    assert "middle names differ" in reason
    # screening keeps the conflict (a changed middle name may be another person on a list)
    assert screened("Peter Kimani Otieno", "Peter Mwangi Otieno")[0] < 0.8
    # a different surname is no middle name
    assert compared("Peter Kimani Otieno", "Peter Kimani Wekesa")[0] < 0.8


def test_compare_mode_omission_of_a_part_beside_common_parts() -> None:
    # two common parts, surname first, one part left out: two linked records, not a search
    score, _ = compared("Musa Hassan", "HASSAN Musa Juma")
    assert score >= 0.8
    # in screening the same names stay under the threshold (common-name protection)
    assert screened("Musa Hassan", "HASSAN Musa Juma")[0] < 0.8


def test_two_edits_inside_a_long_name() -> None:
    score, how = token_similarity("oyinlola", "oyelola")
    assert how == "typo" and score > 0.75
    # not when the start or the last letter differs, nor under seven letters
    assert token_similarity("aminlola", "oyelola")[0] == 0.0
    assert token_similarity("oyinlola", "oyelolu")[0] == 0.0
    assert token_similarity("oyinla", "oyela")[0] == 0.0


# --- UN positives with typos ------------------------------------------------------------------


def test_a_slip_in_a_short_part_matches_in_context() -> None:
    score, reason = screened("Tadesse Rab Haile", "Tadesse Rabi Haile")
    assert score >= 0.9
    assert "typo (short part, in context)" in reason
    score, reason = screened("Tadesse Omr Haile", "Tadesse Omar Haile")
    assert "typo (short part, in context)" in reason
    # two short words alone stay apart, and two short names of their own are two names
    assert token_similarity("rab", "rabi")[0] == 0.0
    assert screened("Rab", "Rabi")[0] == 0.0
    assert "typo" not in screened("Wang Hai Mwangi", "Wang Han Mwangi")[1]
    # beside a rare part they may be a slip
    assert "typo" in screened("Wang Hai Kiprotich", "Wang Han Kiprotich")[1]
    # a name written in Hangul romanises by rule: one letter apart is another character
    assert normalize_name("영일 현정 허").latin is False
    assert "typo" not in screened("영일 현정 허", "Yong Il HO")[1]


def test_a_part_boundary_moved_by_one_letter() -> None:
    score, reason = screened("Ta Ehun Kiprono Chelimo", "Tae Hun Kiprono Chelimo")
    assert score >= 0.9
    assert "part boundary moved" in reason
    # other letters are no moved boundary
    assert "part boundary moved" not in screened("Ta Ehun Kiprono", "Tae Hin Kiprono")[1]


def test_a_slip_in_bin_does_not_swap_father_and_son() -> None:
    score, reason = screened("Ahmad bim Hassan bin Saleh", "Ahmad bin Hassan bin Saleh")
    assert "father" not in reason
    assert score >= 0.8
    # the real swap still costs
    _, reason = screened("Hassan bin Ahmad bin Saleh", "Ahmad bin Hassan bin Saleh")
    assert "given name and father's name swapped" in reason


def test_every_part_a_near_spelling_is_no_hit_on_the_name_alone() -> None:
    score, reason = screened("Jonah Kamotho", "Jonha KAMOTO")
    assert score < 0.8
    assert "every matched part is a near spelling" in reason
    # compare mode (two linked records) is not capped, and one exact part lifts the cap
    assert compared("Jonah Kamotho", "Jonha KAMOTO")[0] >= 0.8
    assert screened("Jonah Kamotho", "Jonah KAMOTO")[0] >= 0.8


def test_a_middle_initial_is_no_surname() -> None:
    score, reason = screened("Alex M. Wanyonyi", "Alex MUTUNGA")
    assert score <= 0.65
    assert "only one name part matched" in reason
    # an initial where the surname is stays an initial of the surname
    assert screened("Alex M.", "Alex MUTUNGA")[0] > 0.65


def test_a_typo_on_a_listed_variant() -> None:
    score, how = token_similarity("mohmmad", "muhammad")
    assert how == "variant with a typo" and 0.8 < score < 0.95
    score, reason = screened("Mohmmad Haqqani Zadran", "Muhammad Haqqani Zadran")
    assert score >= 0.85
    assert "variant with a typo" in reason
