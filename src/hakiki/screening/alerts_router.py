"""HTTP handlers of the alert queue (/v3/screening/alerts)."""

from __future__ import annotations

from typing import Literal

from fastapi import Depends, Query

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params, parse_day
from hakiki.core.routing import EndpointRouter
from hakiki.screening import alerts_queue
from hakiki.screening.alerts_schemas import (
    AlertList,
    AlertWithHistory,
    AssignRequest,
    CommentRequest,
    ResolveRequest,
)
from hakiki.screening.endpoints import (
    ALERT,
    ALERT_ASSIGN,
    ALERT_COMMENT,
    ALERT_RESOLVE,
    ALERTS,
)

router = EndpointRouter(tags=["Screening alerts"])


@router.endpoint(ALERTS, response_model=AlertList)
async def list_alerts(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: Literal["open", "resolved", "closed"] | None = Query(None),
    subject: str | None = Query(
        None,
        max_length=120,
        description="A monitored subject's id (msub_...), a subject_key, or your reference.",
    ),
    list_code: str | None = Query(None, max_length=80, alias="list"),
    created_from: str | None = Query(None, description="ISO 8601 date or time."),
    created_to: str | None = Query(None, description="ISO 8601 date or time."),
) -> AlertList:
    """The queue of your organisation's alerts in this environment, newest first, paginated:
    each with its hit (the list entry's details, the matched name, score and explanation), the
    subject (name, your reference), its `origin` (`onboarding` or `monitoring`), `status`,
    assignee and times. Filters: `status` (open, resolved, closed), `subject` (a monitored
    subject's id, a `subject_key` or your reference), `list` (a list code), `created_from`
    and `created_to`. Free. Sandbox: the alerts opened by sandbox screenings (a new
    organisation has none; screening 'Sandbox Sanction Person' opens one)."""
    filters = {
        "status": status,
        "subject": subject,
        "list_code": list_code,
        "created_from": parse_day(created_from, "created_from"),
        "created_to": parse_day(created_to, "created_to"),
    }
    return await alerts_queue.list_alerts(call.runtime, call.principal, filters, page)


@router.endpoint(ALERT, response_model=AlertWithHistory)
async def get_alert(alert_id: str, call: Call) -> AlertWithHistory:
    """One alert with its full history, oldest first: who (the user or key, or `system`) did
    what and when. Another organisation's id, or one of the other environment, is 404. Free.
    Sandbox: the same, on the alerts of sandbox screenings."""
    return await alerts_queue.get_alert(call.runtime, call.principal, alert_id)


@router.endpoint(ALERT_ASSIGN, response_model=AlertWithHistory)
async def assign_alert(alert_id: str, body: AssignRequest, call: Call) -> bytes:
    """Assigns the alert to a console user of your organisation (their e-mail address) or an
    API key of this environment (its client id); `null` unassigns. Answers the alert with its
    history. Free. Sandbox: the same, on the alerts of sandbox screenings."""
    return await alerts_queue.assign(call, alert_id, body)


@router.endpoint(ALERT_COMMENT, response_model=AlertWithHistory)
async def comment_alert(alert_id: str, body: CommentRequest, call: Call) -> bytes:
    """Adds a comment to the alert's history (any status). Answers the alert with its history.
    Free. Sandbox: the same, on the alerts of sandbox screenings."""
    return await alerts_queue.comment(call, alert_id, body)


@router.endpoint(ALERT_RESOLVE, response_model=AlertWithHistory)
async def resolve_alert(alert_id: str, body: ResolveRequest, call: Call) -> bytes:
    """Resolves an open alert: `decision` `true_match` or `false_positive`, with a `reason`.
    The decision is also recorded as a screening review of the hit: a false positive is left
    out of this subject's later screenings, and raises no new alert, until the list entry
    changes. A resolved or closed alert is 409. Free. Sandbox: the same, on the alerts of
    sandbox screenings."""
    return await alerts_queue.resolve(call, alert_id, body)
