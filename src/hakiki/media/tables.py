"""Storage of ingested news articles (the local adverse-media source)."""

from __future__ import annotations

from sqlalchemy import Column, String, Table, Text

from hakiki.core.clock import UtcDateTime
from hakiki.core.tables import metadata

media_articles = Table(
    "media_articles",
    metadata,
    Column("id", String(64), primary_key=True),  # the article's stable id (hash of its link)
    Column("source", String(200), nullable=False),
    Column("title", Text, nullable=False),
    Column("url", Text),
    Column("published", String(40)),
    Column("text", Text, nullable=False),
    Column("guid", Text),
    Column("ingested_at", UtcDateTime(), nullable=False, index=True),
)
