"""Page-number pagination for list endpoints (docs/api.md#conventions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from fastapi import Query
from pydantic import BaseModel

from hakiki.core.clock import as_utc
from hakiki.core.errors import ApiError, invalid_request

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
# The highest page a list answers. With 100 items a page the offset stays far inside the
# databases' 64-bit integers (SQLite's LIMIT/OFFSET, PostgreSQL's bigint); a larger page number
# would overflow them and is refused as a 400 when the request arrives.
MAX_PAGE = 2**31 - 1

T = TypeVar("T")


class Pagination(BaseModel):
    page: int
    page_size: int
    total_pages: int
    total_items: int


@dataclass(frozen=True)
class PageRequest:
    page: int
    page_size: int

    def __post_init__(self) -> None:
        if not 1 <= self.page <= MAX_PAGE:
            raise invalid_request(
                f"page: must be from 1 to {MAX_PAGE}.",
                field="page",
                problem=f"must be from 1 to {MAX_PAGE}",
            )
        if not 1 <= self.page_size <= MAX_PAGE_SIZE:
            raise invalid_request(
                f"page_size: must be from 1 to {MAX_PAGE_SIZE}.",
                field="page_size",
                problem=f"must be from 1 to {MAX_PAGE_SIZE}",
            )

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size

    def slice(self, items: Sequence[T]) -> tuple[list[T], Pagination]:
        """One page of a list held in memory (channels, countries, check types, the lists'
        status, the sandbox's test values) and its pagination, as the database lists page."""
        return list(items[self.offset : self.offset + self.page_size]), self.describe(len(items))

    def describe(self, total_items: int) -> Pagination:
        pages = (total_items + self.page_size - 1) // self.page_size
        return Pagination(
            page=self.page, page_size=self.page_size, total_pages=pages, total_items=total_items
        )


def page_params(
    page: int = Query(1, ge=1, le=MAX_PAGE, description=f"Page number, from 1 to {MAX_PAGE}."),
    page_size: int = Query(
        DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="Items per page (at most 100)."
    ),
) -> PageRequest:
    return PageRequest(page, page_size)


def parse_day(value: str | None, field: str) -> datetime | None:
    """A list's date filter (``created_from``, ``created_to``): ISO 8601, a date or a time;
    a time without a zone is UTC."""
    if value is None:
        return None
    try:
        return as_utc(datetime.fromisoformat(value))
    except ValueError:
        raise ApiError(
            400,
            "invalid_request",
            f"{field}: must be a date or time in ISO 8601 (2026-01-31 or 2026-01-31T08:00:00Z).",
            details=[{"field": field, "problem": "not an ISO 8601 date"}],
        ) from None
