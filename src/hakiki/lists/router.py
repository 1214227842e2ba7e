"""HTTP handler of the lists status (/v3/account/lists)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from hakiki.core.auth import AnyKey
from hakiki.core.openapi import error_responses
from hakiki.core.pagination import Pagination
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.schemas import ListStatus, ListStatusList
from hakiki.lists.service import list_status

router = APIRouter(prefix="/v3/account", tags=["Account"])


@router.get(
    "/lists",
    response_model=ListStatusList,
    summary="The screening lists in use: versions, sources and update attempts",
    responses=error_responses(401, 500),
)
async def get_lists(request: Request, principal: AnyKey) -> ListStatusList:
    runtime = request.app.state.runtime
    rows = await list_status(
        runtime.settings, runtime.db, engine=runtime.part(ScreeningEngines).live
    )
    items = [ListStatus(**row) for row in rows]
    total = len(items)
    return ListStatusList(
        data=items,
        pagination=Pagination(page=1, page_size=total, total_pages=1, total_items=total),
    )
