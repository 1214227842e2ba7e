"""LocalFeedProvider: name search through windows, adverse filter, negation, dedup, order."""

from __future__ import annotations

import pytest

from hakiki.engines.adverse_media import (
    AdverseMediaProvider,
    Article,
    FeedParseResult,
    LocalFeedProvider,
)
from hakiki.engines.adverse_media.provider import DISTANT_FACTOR
from hakiki.engines.screening import Subject


def test_protocol(provider: LocalFeedProvider) -> None:
    assert isinstance(provider, AdverseMediaProvider)
    assert len(provider) == 8


def test_eacc_story_through_a_window(provider: LocalFeedProvider) -> None:
    # "Mr. Gideon Kirigiti Wambugu, the former county executive" names "Gideon Kirigiti".
    hits = provider.search(Subject(name="Gideon Kirigiti"))
    assert [h.title for h in hits] == ["EACC arrests former county finance chief over Sh200m graft"]
    (hit,) = hits
    assert hit.matched_text == "Gideon Kirigiti"
    assert hit.name_score >= 0.8
    categories = {c.category.value: c.terms for c in hit.categories}
    assert categories["corruption"][:3] == (
        "eacc",
        "graft",
        "ethics and anti corruption commission",
    )
    assert "abuse of office" in categories["corruption"]
    assert categories["money_laundering"] == ("money laundering",)
    assert hit.source == "test-wire" and hit.published == "2024-03-05T07:15:00Z"
    assert hit.explanation["name"]["matched_text"] == "Gideon Kirigiti"
    assert "corruption" in hit.explanation["adverse"]["reason"]
    assert hit.to_dict()["categories"][0]["category"] == hit.categories[0].category.value


def test_neutral_mention_is_not_a_hit(provider: LocalFeedProvider) -> None:
    # The avocado story names "Gideon Kirigiti" too, but is not adverse.
    hits = provider.search(Subject(name="Gideon Kirigiti"), threshold=0.5, limit=50)
    assert all("avocado" not in h.title for h in hits)


def test_full_legal_name_finds_the_shorter_press_name(provider: LocalFeedProvider) -> None:
    hits = provider.search(
        Subject(first_name="Gideon", middle_name="Kirigiti", last_name="Wambugu")
    )
    assert [h.matched_text for h in hits] == ["Gideon Kirigiti Wambugu"]


def test_efcc_fraud_arraignment(provider: LocalFeedProvider) -> None:
    (hit,) = provider.search(Subject(name="Obinna Nwachukwu"))
    assert hit.matched_text == "Obinna Ezeoke Nwachukwu"
    fraud = next(c for c in hit.categories if c.category.value == "fraud")
    assert "obtaining by false pretences" in fraud.terms and "forgery" in fraud.terms
    assert fraud.negated_terms == ()  # "pleaded not guilty" is not an exoneration


def test_cleared_story_is_reported_with_lower_score(provider: LocalFeedProvider) -> None:
    (hit,) = provider.search(Subject(name="Twinomugisha Kabaziguruka"))
    fraud = next(c for c in hit.categories if c.category.value == "fraud")
    assert fraud.negated and "acquitted" in fraud.cues
    assert hit.name_score == 1.0
    assert hit.score < 0.75
    assert "negated" in hit.explanation["adverse"]["reason"]


def test_swahili_story(provider: LocalFeedProvider) -> None:
    (hit,) = provider.search(Subject(name="Haruna Lyimo"))
    assert hit.matched_text == "Haruna Lyimo"
    assert {c.category.value for c in hit.categories} >= {"money_laundering", "corruption"}


def test_organisation_in_atom_feed(provider: LocalFeedProvider) -> None:
    (hit,) = provider.search(Subject(name="Kilimo Bora Supplies Ltd", schema="Organization"))
    assert hit.url == "https://atom.example.org/kenya/treasury-debars-supplier"
    values = {c.category.value for c in hit.categories}
    assert {"regulatory_action", "fraud"} <= values


def test_common_given_name_alone_does_not_hit(provider: LocalFeedProvider) -> None:
    assert provider.search(Subject(name="Gideon Mutua")) == []
    assert provider.search(Subject(name="Gideon")) != []  # a one-part name is the caller's choice
    assert provider.search(Subject(name="Haruna Otieno")) == []


def test_names_do_not_span_commas_or_sentences() -> None:
    article = Article.create(
        source="s",
        title="Suspects charged with fraud",
        url="https://e.org/x",
        text="The accused are Peter Baraza, Kiprono Langat and others. Baraza. Kiprono was absent.",
    )
    provider = LocalFeedProvider([article])
    assert provider.search(Subject(name="Baraza Kiprono"), threshold=0.7) == []
    (hit,) = provider.search(Subject(name="Kiprono Langat"))
    assert hit.matched_text == "Kiprono Langat"


def test_lowercase_words_are_not_names() -> None:
    article = Article.create(
        source="s",
        title="Fraud at the bank",
        url="https://e.org/y",
        text="A grace period was given to the hope fund after fraud.",
    )
    assert LocalFeedProvider([article]).search(Subject(name="Grace Hope"), threshold=0.5) == []


def test_dedup_and_add_count(rss: FeedParseResult) -> None:
    provider = LocalFeedProvider()
    assert provider.add(rss.articles) == 6
    assert provider.add(rss.articles) == 0
    same_link = Article.create(
        source="another-feed",
        title="EACC arrests former county finance chief",
        url="https://news.example.org/kenya/eacc-arrests-county-finance-chief",
        text="Gideon Kirigiti arrested over corruption.",
    )
    assert provider.add([same_link]) == 0
    assert len(provider) == 6 and same_link.article_id in provider
    assert len(provider.search(Subject(name="Gideon Kirigiti Wambugu"))) == 1


def test_ingest(rss: FeedParseResult) -> None:
    from tests.engines.adverse_media.conftest import DATA

    provider = LocalFeedProvider()
    result = provider.ingest((DATA / "atom_feed.xml").read_bytes(), source="atom")
    assert len(result.articles) == 2 and len(provider) == 2


def _story(n: int, name: str, published: str, body: str) -> Article:
    return Article.create(
        source="s", title=f"Story {n}", url=f"https://e.org/{n}", published=published, text=body
    )


def test_order_is_deterministic_and_limited() -> None:
    articles = [
        _story(1, "a", "2024-01-01", "Wekesa Barasa Nabwera was charged with fraud."),
        _story(2, "b", "2024-02-01", "Wekesa Barasa Nabwera was charged with fraud."),
        _story(3, "c", "2024-01-15", "Wekesa Barasa Nabwera was acquitted of fraud."),
        _story(4, "d", "2024-03-01", "Wekesa Nabwera was charged with fraud."),
    ]
    subject = Subject(name="Wekesa Barasa Nabwera")
    forward = LocalFeedProvider(articles).search(subject, limit=10)
    backward = LocalFeedProvider(reversed(articles)).search(subject, limit=10)
    assert [h.title for h in forward] == [h.title for h in backward]
    assert [h.title for h in forward][:2] == ["Story 2", "Story 1"]  # same score: newest first
    assert forward[-1].title == "Story 3"  # the acquittal last
    assert len(LocalFeedProvider(articles).search(subject, limit=2)) == 2


def test_adverse_terms_far_from_the_name_lower_the_score() -> None:
    filler = " ".join(["The county assembly debated the budget at length."] * 12)
    near = _story(1, "x", "2024-01-01", "Amani Chepkoech Rotich was charged with fraud.")
    far = _story(2, "x", "2024-01-01", f"Amani Chepkoech Rotich spoke. {filler} Fraud was rising.")
    hits = LocalFeedProvider([near, far]).search(Subject(name="Amani Chepkoech Rotich"))
    assert [h.title for h in hits] == ["Story 1", "Story 2"]
    assert hits[1].score == pytest.approx(hits[0].score * DISTANT_FACTOR, abs=1e-3)
    assert hits[1].explanation["proximity"]["effect"] == DISTANT_FACTOR


@pytest.mark.parametrize(("threshold", "limit"), [(-0.1, 1), (1.1, 1), (0.8, 0)])
def test_bad_arguments(provider: LocalFeedProvider, threshold: float, limit: int) -> None:
    with pytest.raises(ValueError):
        provider.search(Subject(name="Haruna Lyimo"), threshold=threshold, limit=limit)


def test_empty_name(provider: LocalFeedProvider) -> None:
    assert provider.search(Subject(name="  ")) == []
