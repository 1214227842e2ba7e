"""The 360 evaluation engine's entries in the endpoint catalogue (docs/api.md#360-evaluation)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.envelope import InData
from hakiki.evaluation import sandbox

_ERRORS = (400, 402, 404, 409, 503)
# Figures and categories that say nothing about the person; identity and amounts are masked.
_LOGGED = ("country_code", "explanation", "market.offtake")

CROP = declare(
    Endpoint(
        key="evaluation.crop",
        method="POST",
        path="/api/v1/farmer360/crop",
        scope="evaluation:read",
        summary="Score a crop farmer on 1000 points: CRB, agro-ecological, cash flow, market",
        price=2000,
        errors=_ERRORS,
        sandbox=InData(sandbox.CROP),
        logged_fields=(*_LOGGED, "farm.crops.crop", "farm.crops.irrigated"),
    )
)
LIVESTOCK = declare(
    Endpoint(
        key="evaluation.livestock",
        method="POST",
        path="/api/v1/farmer360/livestock",
        scope="evaluation:read",
        summary="Score a livestock farmer on 1000 points: CRB, NDVI/weather, cash flow, market",
        price=2000,
        errors=_ERRORS,
        sandbox=InData(sandbox.LIVESTOCK),
        logged_fields=(*_LOGGED, "herd.species"),
    )
)
AGRI_SME = declare(
    Endpoint(
        key="evaluation.agri_sme",
        method="POST",
        path="/api/v1/agsme360/agrismes",
        scope="evaluation:read",
        summary="Score an agri-SME on 1000 points: combined CRB, cash flow, audited accounts",
        price=3000,
        errors=_ERRORS,
        sandbox=InData(sandbox.AGRI_SME),
        logged_fields=("country_code", "explanation", "audited_accounts.audit_opinion"),
    )
)
