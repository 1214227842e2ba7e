"""The analysts' alert queue in the console (/console/alerts): the screening alerts raised by
onboarding screenings (every API call that screens a name or an identity) and by ongoing
monitoring, filtered by status, list, assignee and age; one alert's page with the subject beside
the list entry, the score's explanation and the history; assign, comment, resolve (a reason is
required) and the same in bulk.

Pages are rendered on the server from screening's services (no API JSON parsed); the actions
run through the same services as the API's, as the signed-in user (the history names them),
each a request-log row of its own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError

from hakiki.console import users
from hakiki.console.roles import REVIEW
from hakiki.console.sessions import Session, principal_of
from hakiki.console.web import posted, render, see_other, signed_in, to_login
from hakiki.core.auth import Principal
from hakiki.core.calls import Call, runtime_of
from hakiki.core.clock import utcnow
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
from hakiki.lists.engines import ScreeningEngines
from hakiki.screening import alerts_queue
from hakiki.screening.alerts_schemas import AssignRequest, CommentRequest, ResolveRequest
from hakiki.screening.endpoints import ALERT_ASSIGN, ALERT_COMMENT, ALERT_RESOLVE

router = APIRouter()

PAGE_SIZE = 25
AGES = {"1": 1, "7": 7, "30": 30}  # "older than N days"
STATUSES = ("open", "resolved", "closed")
READ_SCOPE = "screening:read"
WRITE_SCOPE = "screening:write"
ID_LENGTH = 40


def _reader(session: Session) -> Principal | None:
    """The session's principal when its role reads the queue (screening:read), else None."""
    principal = principal_of(session)
    return principal if READ_SCOPE in principal.scopes else None


def _actor(session: Session) -> Principal:
    principal = principal_of(session)
    if not session.may(REVIEW) or WRITE_SCOPE not in principal.scopes:
        raise ApiError(403, "insufficient_scope", f"The {session.role} role cannot work alerts.")
    return principal


def _call(request: Request, principal: Principal, key: str, payload: dict[str, Any]) -> Call:
    return Call(runtime_of(request), request, principal, key, payload)


def _filters(session: Session, query: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The queue's filters from the page's query: the service's, and the form's values."""
    chosen = {
        "status": query.get("status", "open"),
        "list": query.get("list", "").strip()[:80],
        "assignee": query.get("assignee", ""),
        "age": query.get("age", ""),
    }
    filters: dict[str, Any] = {}
    if chosen["status"] in STATUSES:
        filters["status"] = chosen["status"]
    if chosen["list"]:
        filters["list_code"] = chosen["list"]
    if chosen["assignee"] == "me":
        filters["assignee_id"] = session.user_id
    elif chosen["assignee"] == "none":
        filters["assignee_id"] = ""
    elif chosen["assignee"][:ID_LENGTH]:
        filters["assignee_id"] = chosen["assignee"][:ID_LENGTH]
    if chosen["age"] in AGES:
        filters["created_to"] = utcnow() - timedelta(days=AGES[chosen["age"]])
    return filters, chosen


def _page_number(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 10_000))
    except ValueError:
        return 1


async def queue_counts(request: Request, session: Session) -> dict[str, int] | None:
    """The overview's counts: open, unassigned, mine, older than 7 days (None when the role
    does not read the queue)."""
    principal = _reader(session)
    if principal is None:
        return None
    runtime = runtime_of(request)
    week_ago = utcnow() - timedelta(days=7)
    asked: dict[str, dict[str, Any]] = {
        "open": {"status": "open"},
        "unassigned": {"status": "open", "assignee_id": ""},
        "mine": {"status": "open", "assignee_id": session.user_id},
        "older": {"status": "open", "created_to": week_ago},
    }
    return {name: await alerts_queue.count(runtime, principal, f) for name, f in asked.items()}


@router.get("/alerts")
async def queue(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    principal = _reader(session)
    if principal is None:
        return render(request, "alerts.html", session, 403, forbidden=True)
    runtime = runtime_of(request)
    query = dict(request.query_params)
    filters, chosen = _filters(session, query)
    page = PageRequest(_page_number(query.get("page")), PAGE_SIZE)
    found = await alerts_queue.list_alerts(runtime, principal, dict(filters), page)
    trail = await alerts_queue.recent_history(runtime, principal, limit=15)
    people = await users.list_users(runtime.db, runtime.vault, session.org_id)
    return render(
        request,
        "alerts.html",
        session,
        alerts=found.data,
        pagination=found.pagination,
        chosen=chosen,
        statuses=STATUSES,
        users=[u for u in people if not u["disabled"]],
        trail=trail,
        notice=query.get("done", "")[:200],
        can_act=session.may(REVIEW) and WRITE_SCOPE in principal.scopes,
        forbidden=False,
    )


async def _alert_page(
    request: Request, session: Session, alert_id: str, *, error: str | None = None
) -> Response:
    principal = _reader(session)
    if principal is None:
        return render(request, "alerts.html", session, 403, forbidden=True)
    runtime = runtime_of(request)
    alert = await alerts_queue.get_alert(runtime, principal, alert_id[:ID_LENGTH])
    engine = await runtime.part(ScreeningEngines).for_environment(principal.live)
    entry = engine.find_entity(alert.list_code, alert.entity_id)
    people = await users.list_users(runtime.db, runtime.vault, session.org_id)
    return render(
        request,
        "alert.html",
        session,
        400 if error else 200,
        alert=alert,
        entry=entry,
        users=[u for u in people if not u["disabled"]],
        error=error,
        can_act=session.may(REVIEW) and WRITE_SCOPE in principal.scopes,
    )


@router.get("/alerts/{alert_id}")
async def alert_page(request: Request, alert_id: str) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    return await _alert_page(request, session, alert_id)


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"])
    return f"{field}: {first['msg']}"


async def _act(request: Request, session: Session, alert_id: str, form: dict[str, str]) -> None:
    """One action of the form on one alert, as the signed-in user."""
    principal = _actor(session)
    action = form.get("action", "")
    if action == "assign":
        assignee = form.get("assignee", "")
        if assignee == "me":
            assignee = session.email
        body: Any = AssignRequest(assignee=assignee or None)
        await alerts_queue.assign(
            _call(request, principal, ALERT_ASSIGN.key, body.model_dump()), alert_id, body
        )
    elif action == "comment":
        body = CommentRequest(comment=form.get("comment", ""))
        await alerts_queue.comment(
            _call(request, principal, ALERT_COMMENT.key, body.model_dump()), alert_id, body
        )
    elif action == "resolve":
        body = ResolveRequest.model_validate(
            {"decision": form.get("decision", ""), "reason": form.get("reason", "").strip()}
        )
        await alerts_queue.resolve(
            _call(request, principal, ALERT_RESOLVE.key, body.model_dump()), alert_id, body
        )
    else:
        raise ApiError(400, "invalid_request", "action must be assign, comment or resolve.")


@router.post("/alerts/{alert_id}")
async def act(request: Request, alert_id: str) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    alert_id = alert_id[:ID_LENGTH]
    try:
        await _act(request, session, alert_id, form)
    except ValidationError as error:
        return await _alert_page(request, session, alert_id, error=_problem(error))
    except ApiError as error:
        if error.status_code not in (400, 409):
            raise
        return await _alert_page(request, session, alert_id, error=error.message)
    return see_other(f"/console/alerts/{alert_id}")


@router.post("/alerts")
async def bulk(request: Request) -> Response:
    """The same action on every alert ticked in the queue (each its own history row); a
    resolution needs its reason like one alert's."""
    session, form = await posted(request)
    if session is None:
        return to_login()
    picked = [value[:ID_LENGTH] for name, value in form.items() if name.startswith("pick-")]
    if not picked:
        return see_other("/console/alerts?" + urlencode({"done": "Tick at least one alert."}))
    done, refused = 0, []
    for alert_id in picked:
        try:
            await _act(request, session, alert_id, form)
            done += 1
        except ValidationError as error:
            refused.append(f"{alert_id}: {_problem(error)}")
        except ApiError as error:
            if error.status_code == 403:
                raise
            refused.append(f"{alert_id}: {error.message}")
    message = f"{done} of {len(picked)} alerts updated."
    if refused:
        message += " Refused: " + "; ".join(refused)
    return see_other("/console/alerts?" + urlencode({"done": message[:200]}))
