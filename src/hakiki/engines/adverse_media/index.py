"""In-memory token index over article text: from a name to the articles worth reading.

Every folded word of an article's title and text is filed under itself and under its
phonetic key (first letter + metaphone, as the sanctions index does), so a name part written
"Mohamed" in the query reaches "Muhammad" in an article; each proposal is checked with
:func:`~hakiki.engines.screening.similarity.token_similarity`, the rule the scorer uses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from hakiki.engines.adverse_media.classify import (
    CategoryMatch,
    TermOccurrence,
    article_text,
    find_terms,
    summarise,
)
from hakiki.engines.adverse_media.model import Article
from hakiki.engines.adverse_media.text import Tokens, tokenize_text
from hakiki.engines.screening.similarity import INITIAL_SIMILARITY, phonetic_key, token_similarity


@dataclass(frozen=True, slots=True)
class IndexedArticle:
    article: Article
    tokens: Tokens
    occurrences: tuple[TermOccurrence, ...]
    categories: tuple[CategoryMatch, ...]

    @classmethod
    def build(cls, article: Article) -> IndexedArticle:
        tokens = tokenize_text(article_text(article.title, article.text))
        occurrences = tuple(find_terms(tokens))
        return cls(article, tokens, occurrences, summarise(occurrences))


class ArticleIndex:
    """Articles by position, with word postings. Not thread-safe on its own: the provider
    serialises writers."""

    def __init__(self) -> None:
        self.articles: list[IndexedArticle] = []
        self.positions: dict[str, int] = {}  # article_id -> position
        self._postings: dict[str, set[int]] = defaultdict(set)
        self._phonetic: dict[str, set[str]] = defaultdict(set)

    def __len__(self) -> int:
        return len(self.articles)

    def __contains__(self, article_id: object) -> bool:
        return article_id in self.positions

    def add(self, item: IndexedArticle) -> bool:
        """File an article; False (and nothing changes) when its id is already indexed."""
        if item.article.article_id in self.positions:
            return False
        position = len(self.articles)
        self.articles.append(item)
        self.positions[item.article.article_id] = position
        for token in set(item.tokens.folded):
            if len(token) < 2:
                continue
            postings = self._postings[token]
            if not postings:
                key = phonetic_key(token)
                if key:
                    self._phonetic[key].add(token)
            postings.add(position)
        return True

    def similar_tokens(self, token: str) -> dict[str, float]:
        """Indexed words similar to ``token`` (itself included), above an initial's score."""
        found: dict[str, float] = {}
        if token in self._postings:
            found[token] = 1.0
        key = phonetic_key(token)
        for other in sorted(self._phonetic.get(key, ())) if key else ():
            if other != token:
                score, _ = token_similarity(token, other)
                if score > INITIAL_SIMILARITY:
                    found[other] = score
        return found

    def candidates(self, tokens: Sequence[str], min_tokens: int) -> list[int]:
        """Positions of articles holding words similar to at least ``min_tokens`` of
        ``tokens`` (distinct query words), in position order."""
        counts: dict[int, int] = defaultdict(int)
        for token in dict.fromkeys(tokens):
            reached: set[int] = set()
            for other in self.similar_tokens(token):
                reached.update(self._postings[other])
            for position in reached:
                counts[position] += 1
        return sorted(p for p, count in counts.items() if count >= min_tokens)
