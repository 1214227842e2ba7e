"""The operator's pages: users (change a role, remove), webhooks (add, test, disable, resend a
delivery). Rendered on the server from the domains' services; each action is the signed-in
user's and their role decides (roles.py)."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError

from hakiki.console import users
from hakiki.console.roles import MANAGE_USERS, MANAGE_WEBHOOKS
from hakiki.console.sessions import Session, principal_of
from hakiki.console.web import posted, render, see_other, signed_in, to_login
from hakiki.core.calls import Call, runtime_of
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
from hakiki.webhooks import delivery as webhook_delivery
from hakiki.webhooks import service as webhooks
from hakiki.webhooks.endpoints import RESEND as RESEND_DELIVERY
from hakiki.webhooks.schemas import EVENT_TYPES, EndpointRequest

router = APIRouter()

ID_LENGTH = 40
DELIVERIES = 25


def _forbidden(session: Session, what: str) -> ApiError:
    return ApiError(403, "insufficient_scope", f"The {session.role} role cannot {what}.")


@router.post("/users/{user_id}/role")
async def change_role(request: Request, user_id: str) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    if not session.may(MANAGE_USERS):
        raise _forbidden(session, "change roles")
    if user_id == session.user_id:
        raise ApiError(409, "conflict", "You cannot change your own role; ask another owner.")
    runtime = runtime_of(request)
    await users.change_role(
        runtime.db, session.org_id, user_id[:ID_LENGTH], form.get("role", ""), by_role=session.role
    )
    return see_other("/console/users")


@router.post("/users/{user_id}/remove")
async def remove_user(request: Request, user_id: str) -> Response:
    session, _ = await posted(request)
    if session is None:
        return to_login()
    if not session.may(MANAGE_USERS):
        raise _forbidden(session, "remove users")
    if user_id == session.user_id:
        raise ApiError(409, "conflict", "You cannot remove yourself; ask another owner.")
    runtime = runtime_of(request)
    await users.remove_user(runtime.db, session.org_id, user_id[:ID_LENGTH], by_role=session.role)
    return see_other("/console/users")


async def _webhooks_page(
    request: Request,
    session: Session,
    *,
    status: int = 200,
    error: str | None = None,
    notice: str | None = None,
    secret: str | None = None,
) -> Response:
    runtime = runtime_of(request)
    principal = principal_of(session)
    if "webhooks:read" not in principal.scopes:
        raise _forbidden(session, "see webhooks")
    endpoints = await webhooks.list_endpoints(runtime, principal, PageRequest(1, 100))
    deliveries = await webhooks.list_deliveries(runtime, principal, {}, PageRequest(1, DELIVERIES))
    urls = {e.id: e.url for e in endpoints.data}
    return render(
        request,
        "webhooks.html",
        session,
        status,
        endpoints=endpoints.data,
        deliveries=deliveries.data,
        urls=urls,
        event_types=EVENT_TYPES,
        error=error,
        notice=notice or request.query_params.get("done", "")[:300],
        failed=request.query_params.get("failed") == "1",
        secret=secret,
    )


@router.get("/webhooks")
async def webhooks_page(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    return await _webhooks_page(request, session)


def _manager(session: Session) -> None:
    if not session.may(MANAGE_WEBHOOKS):
        raise _forbidden(session, "manage webhooks")


@router.post("/webhooks")
async def add_webhook(request: Request) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    _manager(session)
    events = [name for name in EVENT_TYPES if form.get(f"event-{name}") == "on"]
    try:
        body = EndpointRequest.model_validate(
            {
                "url": form.get("url", "").strip(),
                "events": events or None,
                "description": form.get("description", "").strip() or None,
            }
        )
        endpoint, secret = await webhooks.add_endpoint(
            runtime_of(request), principal_of(session), body
        )
    except ValidationError as error:
        problem = error.errors()[0]
        return await _webhooks_page(request, session, status=400, error=str(problem["msg"]))
    except ApiError as error:
        if error.status_code != 400:
            raise
        return await _webhooks_page(request, session, status=400, error=error.message)
    return await _webhooks_page(request, session, notice=f"Added {endpoint.url}.", secret=secret)


@router.post("/webhooks/{endpoint_id}/test")
async def test_webhook(request: Request, endpoint_id: str) -> Response:
    session, _ = await posted(request)
    if session is None:
        return to_login()
    _manager(session)
    answer = await webhook_delivery.send_test(
        runtime_of(request), session.org_id, session.environment, endpoint_id[:ID_LENGTH]
    )
    if answer is None:
        raise ApiError(404, "not_found", "No such webhook endpoint in this environment.")
    status_code, error = answer
    said = (
        f"The test event was taken (HTTP {status_code})."
        if error is None
        else f"The test event was not taken: {error}."
    )
    query = {"done": said, "failed": "1"} if error else {"done": said}
    return see_other("/console/webhooks?" + urlencode(query))


@router.post("/webhooks/{endpoint_id}/disable")
async def disable_webhook(request: Request, endpoint_id: str) -> Response:
    session, _ = await posted(request)
    if session is None:
        return to_login()
    _manager(session)
    await webhooks.delete_endpoint(
        runtime_of(request), principal_of(session), endpoint_id[:ID_LENGTH]
    )
    said = "Disabled: it receives nothing more; its deliveries stay listed."
    return see_other("/console/webhooks?" + urlencode({"done": said}))


@router.post("/webhooks/deliveries/{delivery_id}/resend")
async def resend(request: Request, delivery_id: str) -> Response:
    session, _ = await posted(request)
    if session is None:
        return to_login()
    _manager(session)
    principal = principal_of(session)
    call = Call(runtime_of(request), request, principal, RESEND_DELIVERY.key, {})
    try:
        await webhooks.resend(call, delivery_id[:ID_LENGTH])
    except ApiError as error:
        if error.status_code != 409:
            raise
        return see_other("/console/webhooks?" + urlencode({"done": error.message}))
    return see_other("/console/webhooks?" + urlencode({"done": "Resent."}))
