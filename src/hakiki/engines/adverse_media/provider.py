"""Adverse-media providers: who mentions the subject, and in what adverse context.

:class:`AdverseMediaProvider` is the interface; :class:`LocalFeedProvider` searches articles
the operator ingested from RSS/Atom feeds, in memory.

How :class:`LocalFeedProvider` searches:

1. The subject's name is normalised as for sanctions screening
   (:func:`~hakiki.engines.screening.normalize.normalize_name`).
2. Candidate articles hold words similar to at least two of its name parts (one for a
   one-part name, or when ``threshold`` is at most 0.65, the screening cap for a single
   matched part).
3. Around every capitalised word of the article that matches a name part, every window of
   1 to n + 2 words (n = the subject's name parts) that does not cross a comma, bracket,
   quote, dash, line break or sentence end, and starts and ends with a capitalised word, is
   scored with :func:`~hakiki.engines.screening.scorer.score_name`: the subject is the query
   and the window the listed name, so "Mr. John Kamau Mwangi, the former CEO," yields the
   window "John Kamau" for the subject "John Kamau", while "John Otieno" shares only a
   given name and scores low.
   The best window (the shortest of equal scores) is the article's ``name_score``; it must
   reach ``threshold``. The scorer's own caps apply: a name made only of common parts
   ("John Kamau") scores below the default 0.8, as in sanctions screening, since an article
   gives no date of birth to confirm it.
4. The article must be adverse: a category (:mod:`.classify`) of weight at least
   :data:`MIN_ADVERSE_WEIGHT`. An acquittal story stays a hit (a reviewer wants to see it)
   with a lower weight and its negation reported; a neutral mention is never a hit.
5. ``score = name_score * (0.5 + 0.5 * strongest category weight)``, times
   :data:`DISTANT_FACTOR` when no adverse term is within :data:`NEAR_WORDS` words of a
   matching mention of the name. Hits are ordered by score, name score, newest first, then
   article id.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from hakiki.engines.adverse_media.feeds import FeedParseResult, parse_feed
from hakiki.engines.adverse_media.index import ArticleIndex, IndexedArticle
from hakiki.engines.adverse_media.model import Article, MediaHit
from hakiki.engines.screening.normalize import (
    SUBSTANTIVE,
    NormalizedName,
    is_org_schema,
    normalize_name,
)
from hakiki.engines.screening.scorer import SINGLE_PART_CAP, NameScore, score_name
from hakiki.engines.screening.similarity import INITIAL_SIMILARITY, token_similarity
from hakiki.engines.screening.subject import Subject

MIN_ADVERSE_WEIGHT = 0.2
ADVERSE_BASE = 0.5
NEAR_WORDS = 60
DISTANT_FACTOR = 0.8
EXTRA_WINDOW_WORDS = 2


@runtime_checkable
class AdverseMediaProvider(Protocol):
    def search(
        self, subject: Subject, *, threshold: float = 0.8, limit: int = 10
    ) -> list[MediaHit]:
        """Adverse articles mentioning ``subject`` with a name score of at least
        ``threshold``, best first, at most ``limit``."""
        ...


class _Mention:
    __slots__ = ("first", "last", "score")

    def __init__(self, first: int, last: int, score: NameScore) -> None:
        self.first = first
        self.last = last
        self.score = score


class LocalFeedProvider:
    """Articles ingested from feeds, held in memory and searched by name.

    ``add`` and ``search`` may be called from several threads.
    """

    def __init__(self, articles: Iterable[Article] = ()) -> None:
        self._index = ArticleIndex()
        self._lock = threading.Lock()
        self.add(articles)

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, article_id: object) -> bool:
        return article_id in self._index

    @property
    def articles(self) -> list[Article]:
        with self._lock:
            return [item.article for item in self._index.articles]

    def add(self, articles: Iterable[Article]) -> int:
        """Index articles; one already held (same ``article_id``) is skipped. Returns how many
        were new."""
        added = 0
        for article in articles:
            if article.article_id in self._index:
                continue
            item = IndexedArticle.build(article)
            with self._lock:
                added += self._index.add(item)
        return added

    def ingest(self, data: bytes, *, source: str) -> FeedParseResult:
        """Parse a feed and add its articles (raises FeedFormatError like parse_feed)."""
        result = parse_feed(data, source=source)
        self.add(result.articles)
        return result

    def search(
        self, subject: Subject, *, threshold: float = 0.8, limit: int = 10
    ) -> list[MediaHit]:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold must be between 0 and 1")
        if limit < 1:
            raise ValueError("limit must be at least 1")
        is_org = is_org_schema(subject.schema)
        query = normalize_name(subject.full_name, is_org)
        if not query:
            return []
        parts = [t for t, w in zip(query.tokens, query.weights, strict=True) if w >= SUBSTANTIVE]
        parts = [t for t in dict.fromkeys(parts) if len(t) > 1] or list(query.substantive)
        min_parts = 1 if len(parts) == 1 or threshold <= SINGLE_PART_CAP else 2
        with self._lock:
            positions = self._index.candidates(parts, min_parts)
            items = [self._index.articles[p] for p in positions]
        found: list[MediaHit] = []
        for item in items:
            if not item.categories or item.categories[0].weight < MIN_ADVERSE_WEIGHT:
                continue
            mentions = _mentions(item, query, parts, is_org, threshold)
            if mentions:
                found.append(_hit(item, mentions))
        found.sort(key=lambda h: h.article_id)
        found.sort(key=lambda h: h.published or "", reverse=True)
        found.sort(key=lambda h: (-h.score, -h.name_score))
        return found[:limit]


def _mentions(
    item: IndexedArticle,
    query: NormalizedName,
    parts: list[str],
    is_org: bool,
    threshold: float,
) -> list[_Mention]:
    """Windows of the article text naming the subject with a score of at least
    ``threshold``, best first."""
    tokens = item.tokens
    folded, capitalised, joins = tokens.folded, tokens.capitalised, tokens.name_joins
    anchors = [
        i
        for i, token in enumerate(folded)
        if capitalised[i]
        and any(token_similarity(token, part)[0] > INITIAL_SIMILARITY for part in parts)
    ]
    longest = len(query.tokens) + EXTRA_WINDOW_WORDS
    seen: set[tuple[int, int]] = set()
    mentions: list[_Mention] = []
    for anchor in anchors:
        # The run of words around the anchor that a name may span.
        low = anchor
        while low > 0 and joins[low - 1] and anchor - low + 1 < longest:
            low -= 1
        high = anchor
        while high < len(folded) - 1 and joins[high] and high - anchor + 1 < longest:
            high += 1
        for first in range(low, anchor + 1):
            for last in range(anchor, min(high, first + longest - 1) + 1):
                if (first, last) in seen or not (capitalised[first] and capitalised[last]):
                    continue
                seen.add((first, last))
                window = normalize_name(tokens.original(first, last), is_org)
                if not window:
                    continue
                scored = score_name(query, window, "primary")
                if scored.score >= threshold:
                    mentions.append(_Mention(first, last, scored))
    mentions.sort(key=lambda m: (-m.score.score, m.last - m.first, m.first))
    return mentions


def _hit(item: IndexedArticle, mentions: list[_Mention]) -> MediaHit:
    best = mentions[0]
    article = item.article
    name_score = round(best.score.score, 4)
    top = item.categories[0]
    score = name_score * (ADVERSE_BASE + (1.0 - ADVERSE_BASE) * top.weight)
    distances = [
        max(0, occurrence.first - m.last, m.first - occurrence.last)
        for occurrence in item.occurrences
        for m in mentions
    ]
    nearest = min(distances)
    explanation: dict[str, dict[str, Any]] = {
        "name": {
            "score": name_score,
            "matched_text": item.tokens.original(best.first, best.last),
            "mentions": len(mentions),
            "reason": best.score.reason,
        },
        "adverse": {
            "score": top.weight,
            "reason": "; ".join(_describe(c) for c in item.categories),
        },
    }
    if nearest > NEAR_WORDS:
        score *= DISTANT_FACTOR
        explanation["proximity"] = {
            "score": 0.0,
            "effect": DISTANT_FACTOR,
            "reason": f"nearest adverse term is {nearest} words from the name",
        }
    else:
        explanation["proximity"] = {
            "score": 1.0,
            "effect": 1.0,
            "reason": f"adverse term within {nearest} words of the name",
        }
    return MediaHit(
        article_id=article.article_id,
        title=article.title,
        url=article.url,
        source=article.source,
        published=article.published,
        matched_text=item.tokens.original(best.first, best.last),
        name_score=name_score,
        categories=item.categories,
        score=round(score, 4),
        explanation=explanation,
    )


def _describe(match: Any) -> str:
    text = f"{match.category.value} {match.weight} ({', '.join(match.terms)})"
    if match.negated_terms:
        text += f"; negated: {', '.join(match.negated_terms)} (cue: {', '.join(match.cues)})"
    return text
