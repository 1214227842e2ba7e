"""HTTP handlers of the verification sessions (/v3/verification/sessions)."""

from __future__ import annotations

from fastapi import Depends, Path, Query

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.verification import images, service
from hakiki.verification.endpoints import (
    IMAGE_SETTINGS_READ,
    IMAGE_SETTINGS_UPDATE,
    SESSION_CREATE,
    SESSION_LIST,
    SESSION_READ,
)
from hakiki.verification.schemas import (
    ImageSettings,
    ImageSettingsRequest,
    SessionList,
    SessionRequest,
    SessionResult,
    SessionStatus,
)

router = EndpointRouter(tags=["Verification sessions"])


@router.endpoint(SESSION_CREATE, response_model=SessionResult)
async def create_session(body: SessionRequest, call: Call) -> bytes:
    """A hosted verification link for one customer, in the envelope: PENDING, `reference` the
    session's id, `data.state` `created` and the one-time `data.url` (shown only in this answer)
    to send them. On the page they consent, then do the `steps` in order. Live: the steps' price
    is reserved first (402 before anything is made); each step is charged once when it ran; the
    rest is released when the session ends. A live `id_number` step whose channel has no
    provider here is 503, nothing reserved. Sandbox: the `customer_reference`'s suffix and the
    ID number typed drive the outcome (docs/sandbox.md#verification-sessions)."""
    return await service.create(call, body)


@router.endpoint(SESSION_LIST, response_model=SessionList)
async def list_sessions(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: SessionStatus | None = Query(None),
    customer_reference: str | None = Query(None, max_length=100),
) -> SessionList:
    """Your sessions of this environment, newest first, each with its state, each step's
    result and the decision; filters `status` and `customer_reference` (an unknown status is
    400). The one-time `url` is never shown here. Free. Sandbox: the sessions made with
    sandbox keys."""
    filters = {"status": status, "customer_reference": customer_reference}
    return await service.listing(call.runtime, call.principal.owner, page, filters)


@router.endpoint(SESSION_READ, response_model=SessionResult)
async def get_session(
    call: Call, session_id: str = Path(max_length=40, description="The session's id (vss_...).")
) -> SessionResult:
    """The session in the envelope: PENDING until it ends, then COMPLETED with `verdict`
    PASS, REVIEW or FAIL from the decision, or FAILED (failed or expired); in `data`, its
    `state` (created, started, submitted, completed, failed, expired), each
    step's result (`passed`, `review`, `failed`) with its reason and evidence, and the
    `decision` (`approved`, `review`, `declined`) with its `reasons`. Another organisation's
    is 404. Free. Sandbox: a sandbox session's results follow the documented inputs (the
    customer reference's suffix, the ID number's digits)."""
    return await service.detail(call, session_id)


@router.endpoint(IMAGE_SETTINGS_READ, response_model=ImageSettings)
async def read_image_settings(call: Call) -> ImageSettings:
    """Whether this environment's sessions keep their images (the document photo and the
    liveness frames) for your analysts: `keep_images` is false unless your organisation opted
    in (`updated_at` null: never set). Free. Sandbox: the sandbox's own setting."""
    return await images.read_settings(call.runtime, call.principal.owner)


@router.endpoint(IMAGE_SETTINGS_UPDATE, response_model=ImageSettings)
async def update_image_settings(body: ImageSettingsRequest, call: Call) -> ImageSettings:
    """Opt in to keeping, or stop keeping, the images of this environment's sessions
    submitted from now on. Kept images are sealed (encrypted at rest), shown only to your
    console users on the session's page, and deleted `retention_days` (1 to 365) after the
    submission; turning it off keeps no new image and leaves the kept ones to their date.
    Needs account:admin (an owner's or admin's key). Free. Sandbox: works as in live mode, for
    sandbox sessions."""
    return await images.put_settings(call.runtime, call.principal, body)
