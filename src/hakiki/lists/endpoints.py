"""The account surface's list status entry in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare

LISTS = declare(
    Endpoint(
        key="account.lists",
        method="GET",
        path="/v3/account/lists",
        scope=None,
        summary="The screening lists in use: versions, sources and update attempts",
        errors=(400,),
    )
)
