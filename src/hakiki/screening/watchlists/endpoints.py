"""The organisation watchlists' entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.settings import Settings
from hakiki.screening.watchlists import sandbox


def upload_max_body_bytes(settings: Settings) -> int:
    """HAKIKI_WATCHLIST_MAX_BYTES: the CSV is the whole body."""
    return settings.watchlist_max_bytes


UPLOAD = declare(
    Endpoint(
        key="screening.watchlist.upload",
        consent="none",  # no subject's consent to record here
        method="POST",
        path="/v3/screening/watchlists",
        scope="screening:write",
        summary="Upload your organisation's own watchlist (CSV); a job builds it",
        status_code=202,
        errors=(400, 409, 413, 415),
        sandbox=sandbox.UPLOAD,
        max_body_bytes=upload_max_body_bytes,
        logged_fields=("list_type",),
    )
)
LIST = declare(
    Endpoint(
        key="screening.watchlists",
        method="GET",
        path="/v3/screening/watchlists",
        scope="screening:read",
        summary="Your organisation's watchlists, newest first",
        errors=(400,),
        sandbox=sandbox.LIST,
    )
)
READ = declare(
    Endpoint(
        key="screening.watchlist",
        method="GET",
        path="/v3/screening/watchlists/{watchlist_id}",
        scope="screening:read",
        summary="A watchlist's status, progress and the rows it refused",
        errors=(400, 404),
    )
)
DELETE = declare(
    Endpoint(
        key="screening.watchlist.delete",
        method="DELETE",
        path="/v3/screening/watchlists/{watchlist_id}",
        scope="screening:write",
        summary="Delete a watchlist: it is no longer screened, its files are erased",
        status_code=204,
        errors=(400, 404),
    )
)
