"""The local adverse-media source: news feeds the operator ingests, kept in the database and
searched in memory by the adverse-media engine with the screening name matcher."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.engines.adverse_media import Article, LocalFeedProvider, MediaHit, parse_feed
from hakiki.engines.screening.subject import Subject
from hakiki.media import repository
from hakiki.screening.schemas import AmlHit, AmlResult, ListUsed, MediaDetails

LIST_CODE = "news_feeds"


@dataclass(frozen=True)
class IngestReport:
    source: str
    articles: int
    new: int
    warnings: list[str]


async def ingest(db: Database, data: bytes, *, source: str) -> IngestReport:
    """Parse one RSS or Atom document and store the articles not seen before."""
    parsed = parse_feed(data, source=source)
    articles = {a.article_id: a for a in parsed.articles}
    now = utcnow()
    async with transaction(db) as conn:
        known = await repository.existing_ids(conn, list(articles))
        fresh = [a for key, a in articles.items() if key not in known]
        await repository.insert_articles(
            conn,
            [
                {
                    "id": a.article_id,
                    "source": a.source,
                    "title": a.title,
                    "url": a.url,
                    "published": a.published,
                    "text": a.text,
                    "guid": a.guid,
                    "ingested_at": now,
                }
                for a in fresh
            ],
        )
    return IngestReport(source, len(articles), len(fresh), list(parsed.warnings))


@dataclass
class MediaLibrary:
    """The articles in memory, refreshed from the database (every process sees every ingest)."""

    provider: LocalFeedProvider = field(default_factory=LocalFeedProvider)
    last_ingested_at: datetime | None = None

    async def refresh(self, db: Database) -> int:
        async with read(db) as conn:
            rows = await repository.articles_since(conn, self.last_ingested_at)
        if not rows:
            return 0
        added = self.provider.add(
            Article(
                article_id=row["id"],
                source=row["source"],
                title=row["title"],
                url=row["url"],
                published=row["published"],
                text=row["text"],
                guid=row["guid"],
            )
            for row in rows
        )
        self.last_ingested_at = max(as_utc(row["ingested_at"]) for row in rows)
        return added

    def wanted(self, aml: AmlResult) -> bool:
        """Whether a screening asked for adverse media and there are articles to search."""
        return "adverse_media" in aml.checks and self.size > 0

    @property
    def size(self) -> int:
        return len(self.provider)

    def list_used(self) -> ListUsed:
        stamp = self.last_ingested_at.isoformat(timespec="seconds") if self.last_ingested_at else ""
        return ListUsed(
            code=LIST_CODE,
            title=f"Ingested news feeds ({self.size} articles)",
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
    if not library.wanted(aml):
        return aml
    hits = [_aml_hit(h) for h in library.provider.search(subject, threshold=threshold, limit=limit)]
    return aml.model_copy(
        update={
            "hits": [*aml.hits, *hits],
            "lists": [*aml.lists, library.list_used()],
            "unavailable": [u for u in aml.unavailable if u.check != "adverse_media"],
        }
    )
