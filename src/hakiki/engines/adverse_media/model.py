"""Articles the operator ingests, and the hits a provider returns."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

if TYPE_CHECKING:
    from hakiki.engines.adverse_media.classify import CategoryMatch

_TRACKING_PARAMS = ("utm_", "fbclid", "gclid", "mc_cid", "mc_eid")


def canonical_url(url: str) -> str:
    """The URL an article is identified by: scheme and host lowercased, the fragment and
    tracking parameters (``utm_*``, ``fbclid``...) dropped, so the same story reached through
    two feeds or two campaigns gets one id."""
    parts = urlsplit(url.strip())
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith(_TRACKING_PARAMS)
    ]
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path, urlencode(query), "")
    )


def make_article_id(
    *, url: str | None, guid: str | None, source: str, title: str, published: str | None
) -> str:
    """Stable id: a SHA-256 of the canonical link, else of the guid/id, else of
    (source, title, published). The same article always gets the same id."""
    if url:
        key = "url:" + canonical_url(url)
    elif guid and guid.strip():
        key = "guid:" + guid.strip()
    else:
        key = "title:" + "\x1f".join((source, title, published or ""))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Article:
    """One news item. ``published`` is ISO 8601 (``2024-03-05T07:00:00Z``, or a date) or None;
    ``text`` is plain text (HTML stripped, entities unescaped)."""

    article_id: str
    source: str
    title: str
    url: str | None
    published: str | None
    text: str
    guid: str | None = None

    @classmethod
    def create(
        cls,
        *,
        source: str,
        title: str,
        url: str | None = None,
        published: str | None = None,
        text: str = "",
        guid: str | None = None,
    ) -> Article:
        article_id = make_article_id(
            url=url, guid=guid, source=source, title=title, published=published
        )
        return cls(article_id, source, title, url, published, text, guid)

    def to_dict(self) -> dict[str, Any]:
        return {
            "article_id": self.article_id,
            "source": self.source,
            "title": self.title,
            "url": self.url,
            "published": self.published,
            "text": self.text,
            "guid": self.guid,
        }


@dataclass(frozen=True, slots=True)
class MediaHit:
    """An article that mentions the subject and is adverse.

    ``name_score`` is the screening name score of the best mention (``matched_text``);
    ``score`` combines it with the strongest category weight (see :mod:`.provider`).
    """

    article_id: str
    title: str
    url: str | None
    source: str
    published: str | None
    matched_text: str
    name_score: float
    categories: tuple[CategoryMatch, ...]
    score: float
    explanation: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "article_id": self.article_id,
            "title": self.title,
            "url": self.url,
            "source": self.source,
            "published": self.published,
            "matched_text": self.matched_text,
            "name_score": self.name_score,
            "categories": [c.to_dict() for c in self.categories],
            "score": self.score,
            "explanation": {k: dict(v) for k, v in self.explanation.items()},
        }
