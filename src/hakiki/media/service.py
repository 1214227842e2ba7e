"""The local adverse-media source: news feeds the operator ingests, kept in the database and
searched in memory by the adverse-media engine with the screening name matcher."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from hakiki.core.clock import as_utc, utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.engines.adverse_media import Article, LocalFeedProvider, parse_feed
from hakiki.media import repository


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

    @property
    def size(self) -> int:
        return len(self.provider)
