"""The verification sessions' entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.privacy.consent import Consented
from hakiki.verification import sandbox

# Each step's price (minor units), charged once when the step ran, from the session's
# reservation; HAKIKI_PRICES overrides them by key.
STEP_PRICES: dict[str, int] = {
    "verification.step.id_number": 2000,
    "verification.step.document": 1500,
    "verification.step.selfie_liveness": 1000,
    "verification.step.screening": 1000,
}

SESSION_CREATE = declare(
    Endpoint(
        key="verification.sessions.create",
        method="POST",
        path="/v3/verification/sessions",
        scope="verification:write",
        summary="Create a hosted verification link (ID number, document, selfie with liveness, "
        "screening) for one customer",
        status_code=201,
        errors=(400, 402, 409, 503),
        unit_prices=STEP_PRICES,
        sandbox=Consented(sandbox.SESSIONS, ("identity_verification",)),
        logged_fields=("steps", "country_code", "id_channel"),
        consent="required",  # the organisation's; the subject's own is ticked on the page
    )
)
SESSION_LIST = declare(
    Endpoint(
        key="verification.sessions.list",
        method="GET",
        path="/v3/verification/sessions",
        scope="verification:read",
        summary="List verification sessions, newest first (filters: status, customer_reference)",
        errors=(400,),
        sandbox=sandbox.SESSION_LIST,
    )
)
SESSION_READ = declare(
    Endpoint(
        key="verification.sessions.read",
        method="GET",
        path="/v3/verification/sessions/{session_id}",
        scope="verification:read",
        summary="One verification session: its state, each step's result and the decision",
        errors=(400, 404),
    )
)
IMAGE_SETTINGS_READ = declare(
    Endpoint(
        key="verification.settings.read",
        method="GET",
        path="/v3/account/verification-settings",
        scope=None,  # the organisation's own setting: any of its keys reads it
        summary="Whether your verification sessions' images are kept for review, and how long",
        errors=(400,),
    )
)
IMAGE_SETTINGS_UPDATE = declare(
    Endpoint(
        key="verification.settings.update",
        method="PUT",
        path="/v3/account/verification-settings",
        scope="account:admin",
        summary="Opt in (or out) to keeping verification sessions' images, sealed, for review",
        errors=(400,),
    )
)
