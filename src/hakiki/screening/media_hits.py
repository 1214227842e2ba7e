"""Adverse-media hits in a screening result: the ingested news (the media domain's library)
searched for the screened subject, as hits beside the list hits."""

from __future__ import annotations

from typing import Any

from hakiki.engines.adverse_media import MediaHit
from hakiki.engines.screening.subject import Subject
from hakiki.media.service import MediaLibrary
from hakiki.screening.schemas import AmlHit, AmlResult, ListUsed, MediaDetails

LIST_CODE = "news_feeds"


def media_wanted(library: MediaLibrary, aml: AmlResult) -> bool:
    """Whether a screening asked for adverse media and there are articles to search."""
    return "adverse_media" in aml.checks and library.size > 0


def list_used(library: MediaLibrary) -> ListUsed:
    stamp = (
        library.last_ingested_at.isoformat(timespec="seconds") if library.last_ingested_at else ""
    )
    return ListUsed(
        code=LIST_CODE,
        title=f"Ingested news feeds ({library.size} articles)",
        version=stamp,
        checks=["adverse_media"],
    )


def _aml_hit(hit: MediaHit) -> AmlHit:
    categories = [
        {
            "category": str(c.category),
            "terms": list(c.terms),
            "negated_terms": list(c.negated_terms),
        }
        for c in hit.categories
    ]
    explanation: dict[str, Any] = {k: dict(v) for k, v in hit.explanation.items()}
    return AmlHit(
        check="adverse_media",
        list_code=LIST_CODE,
        list_version=hit.published or "",
        programs=[str(c.category) for c in hit.categories],
        entity_id=hit.article_id,
        entity_name=hit.title,
        entity_schema="Article",
        matched_name=hit.matched_text,
        matched_name_kind="mention",
        score=round(hit.score, 4),
        explanation=explanation,
        entity_fingerprint=hit.article_id[:20],
        media=MediaDetails(
            url=hit.url, source=hit.source, published=hit.published, categories=categories
        ),
    )


def with_media(
    library: MediaLibrary, aml: AmlResult, subject: Subject, threshold: float, limit: int
) -> AmlResult:
    """Add adverse-media hits when that check was asked for and articles are loaded."""
    if not media_wanted(library, aml):
        return aml
    hits = [_aml_hit(h) for h in library.provider.search(subject, threshold=threshold, limit=limit)]
    return aml.model_copy(
        update={
            "hits": [*aml.hits, *hits],
            "lists": [*aml.lists, list_used(library)],
            "unavailable": [u for u in aml.unavailable if u.check != "adverse_media"],
        }
    )
