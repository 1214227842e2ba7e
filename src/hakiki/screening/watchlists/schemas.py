"""Response models of the organisation watchlist endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from hakiki.core.pagination import Pagination
from hakiki.screening.watchlists import examples

ListType = Literal["watchlist", "pep"]
WatchlistStatus = Literal["pending", "processing", "ready", "failed"]


class RowIssue(BaseModel):
    line: int = Field(description="The line of the file (the header is line 1).")
    problem: str = Field(description="What was wrong; the value itself is never repeated.")
    refused: bool = Field(description="true: the row was left out; false: one value dropped.")


class Watchlist(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.WATCHLIST]})

    id: str = Field(description="wl_...: also the list_code of this list's hits.")
    live: bool
    name: str = Field(description="Your label for the list (the hits' list title).")
    list_type: ListType = Field(
        description="watchlist: screened by every name screening (hits have check "
        "`watchlist`); pep: screened when the pep check is asked for (check `pep`)."
    )
    status: WatchlistStatus = Field(
        description="pending (queued), processing (the job reads the rows), ready (screened "
        "from now on), failed (see failure_reason; nothing of it is screened)."
    )
    size_bytes: int
    sha256: str = Field(description="SHA-256 of the file as uploaded.")
    rows_read: int = Field(description="Data rows read so far (progress while processing).")
    rows_accepted: int = Field(description="Rows kept as list entries.")
    rows_refused: int = Field(description="Rows left out (each named in issues).")
    issue_count: int = Field(description="Rows refused and values dropped, in all.")
    issues: list[RowIssue] = Field(description="The first 100 issues, by line.")
    failure_reason: str | None = Field(
        description="Why the file could not be used, naming its line; null unless failed."
    )
    created_at: datetime
    completed_at: datetime | None


class WatchlistList(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [examples.WATCHLIST],
                    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 1},
                }
            ]
        }
    )

    data: list[Watchlist]
    pagination: Pagination
