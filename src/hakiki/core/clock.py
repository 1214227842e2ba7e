"""UTC time: the clock, and the column type every timestamp is stored with."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """The instant in UTC; a naive value is taken to be UTC already (SQLite keeps no zone)."""
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that always gives back an aware UTC datetime.

    PostgreSQL's ``timestamptz`` keeps the instant, but SQLite stores the text of the wall time
    without its zone and hands back naive datetimes: every response rendered from them would
    carry no zone. This type writes every value as its UTC instant (a naive one is taken to be
    UTC) and reads every value back as UTC, on both databases. The DDL is the same as
    ``DateTime(timezone=True)``'s.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return as_utc(value) if isinstance(value, datetime) else value

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return as_utc(value) if isinstance(value, datetime) else value
