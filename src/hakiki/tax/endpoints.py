"""The Tax category's entries in the endpoint catalogue (docs/api.md#tax)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.tax import sandbox

_ERRORS = (400, 402, 409, 503)

PIN = declare(
    Endpoint(
        key="tax.pin",
        method="POST",
        path="/v3/tax/pin",
        scope="tax:read",
        summary="Check a taxpayer's PIN or TIN (KE KRA PIN, by PIN or national ID; UG, TZ TIN)",
        price=300,
        errors=_ERRORS,
        sandbox=sandbox.PIN,
        logged_fields=("country_code",),
    )
)
TCC = declare(
    Endpoint(
        key="tax.tcc",
        method="POST",
        path="/v3/tax/tcc",
        scope="tax:read",
        summary="Check a Tax Compliance Certificate: valid, expired or not found",
        price=500,
        errors=_ERRORS,
        sandbox=sandbox.TCC,
        logged_fields=("country_code",),
    )
)
WITHHOLDING = declare(
    Endpoint(
        key="tax.withholding",
        method="POST",
        path="/v3/tax/withholding",
        scope="tax:read",
        summary="Check a withholding tax certificate and the withholder and payee it names",
        price=500,
        errors=_ERRORS,
        sandbox=sandbox.WITHHOLDING,
        logged_fields=("country_code",),
    )
)
STATUS = declare(
    Endpoint(
        key="tax.status",
        method="GET",
        path="/v3/tax/status/{reference}",
        scope="tax:read",
        summary="The current state of a tax check (poll a PENDING one until it is final)",
        errors=(404,),
    )
)
