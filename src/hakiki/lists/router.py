"""HTTP handler of the lists status (/v3/account/lists)."""

from __future__ import annotations

from fastapi import Depends

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.lists.endpoints import LISTS
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.schemas import ListStatus, ListStatusList
from hakiki.lists.service import list_status

router = EndpointRouter(tags=["Account"])


@router.endpoint(LISTS, response_model=ListStatusList)
async def get_lists(call: Call, page: PageRequest = Depends(page_params)) -> ListStatusList:
    """The screening lists this server knows, each with what it is screened for, whether the
    live engine holds it (`in_use`), the version in use with its date, age and `stale` flag
    (older than HAKIKI_LIST_MAX_AGE_DAYS), its `source` (the bundled snapshot or a download
    by `hakiki lists update`) and the newest update attempt and error. Paginated like every
    list (`page`, `page_size`: 20 by default, 100 at most). Any key of the organisation;
    free. Sandbox keys see the same live lists, though sandbox screenings use the sandbox's
    fictional ones."""
    runtime = call.runtime
    engine = await runtime.part(ScreeningEngines).load_live()
    rows = await list_status(runtime.settings, runtime.db, engine=engine)
    data, pagination = page.slice([ListStatus(**row) for row in rows])
    return ListStatusList(data=data, pagination=pagination)
