"""HTTP handlers of organisation watchlists (/v3/screening/watchlists)."""

from __future__ import annotations

from fastapi import Depends, Path, Query
from fastapi.responses import Response

from hakiki.core.calls import Call
from hakiki.core.errors import unsupported_media_type
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.request_body import media_type
from hakiki.core.routing import EndpointRouter
from hakiki.screening.watchlists import service
from hakiki.screening.watchlists.endpoints import DELETE, LIST, READ, UPLOAD
from hakiki.screening.watchlists.schemas import (
    ListType,
    Watchlist,
    WatchlistList,
    WatchlistStatus,
)

router = EndpointRouter(tags=["Organisation watchlists"])

WatchlistId = Path(max_length=40)
CSV_TYPES = ("text/csv", "application/csv", "text/plain")
# The body, documented so Swagger's "Try it out" can send it (issue 35): the CSV itself.
CSV_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "text/csv": {
                "schema": {"type": "string"},
                "example": "id,name,aliases,birth_date,countries\n"
                "C-1,Juma Bakari Mwinyi,Juma Mwinyi,1980-01-01,TZ\n",
            }
        },
    }
}


@router.endpoint(UPLOAD, response_model=Watchlist, openapi_extra=CSV_BODY)
async def upload(
    call: Call,
    name: str = Query(max_length=100, description="Your label for the list.", examples=["Fraud"]),
    list_type: ListType = Query(
        "watchlist",
        description="watchlist (screened by every name screening, check `watchlist`) or pep "
        "(screened with the pep check; columns position, start_date, end_date).",
    ),
) -> bytes:
    """The body is the CSV file itself (`Content-Type: text/csv`, UTF-8 or Windows-1252;
    comma, semicolon or tab), streamed to disk encrypted as it arrives, up to
    HAKIKI_WATCHLIST_MAX_BYTES (413 beyond) and a million rows. Header row first, `name`
    required; `aliases`, `birth_date`, `countries`, `identifiers` (`type:value`), `schema`,
    `program`, `id`, and for a PEP list `position`, `start_date`, `end_date` (columns in
    docs/api.md). A body whose header has no `name` column is a 400 at once; otherwise 202
    with the watchlist `pending`: a job reads it (`processing`, `rows_read` growing), then it
    is `ready` and your screenings in this environment include it, or `failed` with the reason
    naming the line. Rows refused (an empty name, an unknown schema, a duplicate id) are
    counted and listed by line in `issues`, never with their values. Free. Sandbox: the same,
    for sandbox screenings."""
    media = media_type(call.request.scope)
    if media not in CSV_TYPES:
        raise unsupported_media_type("text/csv", media)
    return await service.upload(call, name, list_type)


@router.endpoint(LIST, response_model=WatchlistList)
async def list_watchlists(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: WatchlistStatus | None = Query(None),
    list_type: ListType | None = Query(None),
) -> WatchlistList:
    """Your organisation's watchlists of this environment, newest first, paginated, each with
    its status and progress; filters `status` and `list_type`. Free. Sandbox: the watchlists
    uploaded with sandbox keys."""
    filters: dict[str, str | None] = {"status": status, "list_type": list_type}
    return await service.list_watchlists(call.runtime, call.principal.owner, page, filters)


@router.endpoint(READ, response_model=Watchlist)
async def get_watchlist(call: Call, watchlist_id: str = WatchlistId) -> Watchlist:
    """The watchlist's status and progress: `rows_read` so far while `processing`,
    `rows_accepted`, `rows_refused`, the first 100 `issues` by line, `failure_reason` when
    `failed`. Another organisation's watchlist, or one of the other environment, is 404. Free.
    Sandbox: the watchlists uploaded with sandbox keys."""
    return await service.get_watchlist(call.runtime, call.principal.owner, watchlist_id)


@router.endpoint(DELETE)
async def delete_watchlist(call: Call, watchlist_id: str = WatchlistId) -> Response:
    """204 No Content. The watchlist is no longer screened, and its upload and index are
    erased (a build under way is dropped). Another organisation's watchlist is 404. Free.
    Sandbox: the same, for a watchlist uploaded with a sandbox key."""
    await service.delete_watchlist(call.runtime, call.principal.owner, watchlist_id)
    return Response(status_code=204)
