"""classify_text: categories with evidence, Swahili terms, negation."""

from __future__ import annotations

from hakiki.engines.adverse_media import LEXICON, AdverseCategory, classify_text
from hakiki.engines.adverse_media.classify import NEGATION_FACTOR


def _by_category(text: str) -> dict[str, tuple[tuple[str, ...], float, tuple[str, ...]]]:
    return {m.category.value: (m.terms, m.weight, m.negated_terms) for m in classify_text(text)}


def test_closed_category_set() -> None:
    assert [c.value for c in AdverseCategory] == [
        "fraud",
        "corruption",
        "money_laundering",
        "terrorism",
        "sanctions_evasion",
        "organised_crime",
        "drug_trafficking",
        "human_trafficking",
        "tax_evasion",
        "cybercrime",
        "violent_crime",
        "regulatory_action",
    ]
    assert {t.category for t in LEXICON} == set(AdverseCategory)
    assert {t.language for t in LEXICON} == {"en", "sw"}


def test_english_evidence() -> None:
    found = _by_category(
        "EACC said the suspect faces charges of abuse of office and money laundering, "
        "while the EFCC charged him with obtaining by false pretences and forgery."
    )
    assert found["corruption"] == (("eacc", "abuse of office"), 1.0, ())
    assert found["money_laundering"] == (("money laundering",), 1.0, ())
    assert found["fraud"][0] == ("efcc", "obtaining by false pretences", "forgery")


def test_swahili_terms() -> None:
    found = _by_category(
        "Mfanyabiashara ashtakiwa kwa utakatishaji fedha, ufisadi na kutoa rushwa kwa "
        "maofisa wa TAKUKURU; polisi pia walikamata dawa za kulevya."
    )
    assert found["money_laundering"][0] == ("utakatishaji fedha",)
    assert found["corruption"][0] == ("ufisadi", "rushwa", "takukuru")
    assert found["drug_trafficking"][0] == ("dawa za kulevya",)


def test_longest_phrase_wins_and_stems() -> None:
    found = _by_category("He laundered funds through human smuggling rings and was fined.")
    assert found["money_laundering"][0] == ("laundered funds",)
    assert found["human_trafficking"][0] == ("human smuggling",)
    assert "organised_crime" not in found  # "smuggling" is inside the longer phrase
    assert found["regulatory_action"] == (("fined",), 0.6, ())


def test_neutral_text_has_no_category() -> None:
    assert (
        classify_text("Farmers open an avocado packhouse; the board sanctioned a dividend.") == ()
    )
    assert classify_text("Arsenal were awarded a penalty in the second half.") == ()


def test_negation_before_and_after() -> None:
    acquitted = classify_text("The court acquitted businessman Twinomugisha Kabaziguruka of fraud.")
    (match,) = acquitted
    assert match.category is AdverseCategory.FRAUD
    assert match.negated and match.negated_terms == ("fraud",)
    assert match.cues == ("acquitted",)
    assert match.weight == NEGATION_FACTOR
    (dropped,) = classify_text("Corruption charges against the MP were dropped on Monday.")
    assert dropped.negated and dropped.cues == ("were dropped",)
    (cleared,) = classify_text("She was cleared of corruption by the tribunal.")
    assert cleared.negated and cleared.cues == ("cleared of",)
    (swahili,) = classify_text("Mahakama imesema hana hatia ya ufisadi.")
    assert swahili.negated and swahili.cues == ("hana hatia",)


def test_negation_is_limited_to_the_sentence_and_the_plea() -> None:
    (plea,) = classify_text("He pleaded not guilty to fraud and was remanded.")
    assert not plea.negated and plea.weight == 1.0
    (other,) = classify_text("His brother was acquitted last year. He now faces fraud charges.")
    assert not other.negated
    (mixed,) = classify_text(
        "Acquitted of fraud in 2019 by a Nairobi court, he has now been charged with "
        "fraudulent trading."
    )
    assert mixed.terms == ("fraud", "fraudulent")
    assert mixed.negated_terms == ("fraud",) and not mixed.negated
    assert mixed.weight == 1.0
