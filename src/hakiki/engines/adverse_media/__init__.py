"""Adverse-media engine: a pure library (no HTTP, no database).

Feeds are parsed into :class:`Article` items (:mod:`.feeds`), classified into a closed set of
adverse categories with a transparent English/Swahili lexicon (:mod:`.classify`), and
searched by name with the sanctions-screening name scorer (:mod:`.provider`).
"""

from hakiki.engines.adverse_media.classify import (
    LEXICON,
    NEGATION_CUES,
    AdverseCategory,
    CategoryMatch,
    Term,
    classify_text,
)
from hakiki.engines.adverse_media.feeds import FeedFormatError, FeedParseResult, parse_feed
from hakiki.engines.adverse_media.model import Article, MediaHit
from hakiki.engines.adverse_media.provider import AdverseMediaProvider, LocalFeedProvider

__all__ = [
    "LEXICON",
    "NEGATION_CUES",
    "AdverseCategory",
    "AdverseMediaProvider",
    "Article",
    "CategoryMatch",
    "FeedFormatError",
    "FeedParseResult",
    "LocalFeedProvider",
    "MediaHit",
    "Term",
    "classify_text",
    "parse_feed",
]
