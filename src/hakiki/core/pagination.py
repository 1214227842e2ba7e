"""Page-number pagination for list endpoints (docs/api.md#conventions)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Query
from pydantic import BaseModel

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


class Pagination(BaseModel):
    page: int
    page_size: int
    total_pages: int
    total_items: int


@dataclass(frozen=True)
class PageRequest:
    page: int
    page_size: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size

    def describe(self, total_items: int) -> Pagination:
        pages = (total_items + self.page_size - 1) // self.page_size
        return Pagination(
            page=self.page, page_size=self.page_size, total_pages=pages, total_items=total_items
        )


def page_params(
    page: int = Query(1, ge=1, description="Page number, from 1."),
    page_size: int = Query(
        DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="Items per page (at most 100)."
    ),
) -> PageRequest:
    return PageRequest(page, page_size)
