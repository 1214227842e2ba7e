"""Adverse-media hits in a screening result: the ingested news (the media domain's library)
searched for the screened subject, as hits beside the list hits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hakiki.engines.adverse_media import MediaHit
from hakiki.engines.screening.results import ListVersion
from hakiki.engines.screening.subject import Subject
from hakiki.lists.outcomes import DatedList, ListDates
from hakiki.media.service import MediaLibrary
from hakiki.screening.schemas import AmlHit, AmlResult, ListUsed, MediaDetails, UnavailableCheck

LIST_CODE = "news_feeds"


def media_wanted(library: MediaLibrary, aml: AmlResult) -> bool:
    """Whether a screening asked for adverse media and there are articles to search."""
    return "adverse_media" in aml.checks and library.size > 0


def list_used(library: MediaLibrary, dates: ListDates) -> DatedList:
    """The ingested news as a list: dated by its last ingestion."""
    stamp = (
        library.last_ingested_at.isoformat(timespec="seconds") if library.last_ingested_at else ""
    )
    version = ListVersion(
        code=LIST_CODE,
        title=f"Ingested news feeds ({library.size} articles)",
        version=stamp,
        checks=("adverse_media",),
    )
    return replace(dates, dates={LIST_CODE: stamp or None}).dated(version)


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
    library: MediaLibrary,
    aml: AmlResult,
    subject: Subject,
    threshold: float,
    limit: int,
    dates: ListDates,
) -> AmlResult:
    """Add adverse-media hits when that check was asked for and articles are loaded (unless
    the news is stale and the operator made staleness fatal: then the check is not performed)."""
    if not media_wanted(library, aml):
        return aml
    news = list_used(library, dates)
    others = [u for u in aml.unavailable if u.check != "adverse_media"]
    used = ListUsed.of(news)
    gap = dates.stale_gaps(["adverse_media"], [news])
    if gap:
        missing = UnavailableCheck(check="adverse_media", reason=gap["adverse_media"])
        return aml.model_copy(
            update={"lists": [*aml.lists, used], "unavailable": [*others, missing]}
        )
    hits = [_aml_hit(h) for h in library.provider.search(subject, threshold=threshold, limit=limit)]
    return aml.model_copy(
        update={"hits": [*aml.hits, *hits], "lists": [*aml.lists, used], "unavailable": others}
    )
