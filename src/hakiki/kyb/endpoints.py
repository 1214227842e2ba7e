"""The KYB category's entries in the endpoint catalogue (docs/api.md#kyb)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.kyb import sandbox

_LOGGED = ("country_code", "screen_owners", "checks", "threshold")

BUSINESS = declare(
    Endpoint(
        key="kyb.business",
        method="POST",
        path="/v3/kyb/business",
        scope="business:read",
        summary="Look up a business's registration (KE BRS, UG URSB, TZ BRELA; global fallback)",
        price=2500,
        errors=(400, 402, 409, 503),
        sandbox=sandbox.BUSINESS,
        logged_fields=_LOGGED,
    )
)
OWNERSHIP = declare(
    Endpoint(
        key="kyb.ownership",
        method="POST",
        path="/v3/kyb/ownership",
        scope="business:read",
        summary="Directors, shareholders and beneficial owners, screened, with BODS statements",
        price=5000,
        errors=(400, 402, 409, 503),
        sandbox=sandbox.OWNERSHIP,
        logged_fields=_LOGGED,
    )
)
STATUS = declare(
    Endpoint(
        key="kyb.status",
        method="GET",
        path="/v3/kyb/status/{reference}",
        scope="business:read",
        summary="A KYB check as it stands (poll a PENDING one until it is final)",
        errors=(404,),
    )
)
