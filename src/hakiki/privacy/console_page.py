"""The console's Privacy page (GET /console/privacy): the organisation's retention per
category (days, default, bounds, why) and housekeeping's purges of its data. Read-only:
policies change through PUT /v3/privacy/retention. One file in this domain, as the
verification sessions' page does (console/ importing domains would close import cycles)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from hakiki.console.roles import MANAGE_KEYS, MANAGE_USERS, REVIEW, RUN_CALLS
from hakiki.console.web import HEADERS, signed_in, templates, to_login
from hakiki.core.calls import runtime_of
from hakiki.core.pagination import PageRequest
from hakiki.privacy import retention
from hakiki.privacy.service import runs_of_org

router = APIRouter(prefix="/console", include_in_schema=False)

_PAGE = templates.from_string(
    """{% extends "base.html" %}
{% block title %}Privacy{% endblock %}
{% block main %}
<h1>Privacy</h1>
<h2>Retention</h2>
<p>How long each category is kept before housekeeping purges it (both environments). Change it
with <code>PUT /v3/privacy/retention</code>; see docs/privacy.md.</p>
<table id="retention">
<thead><tr><th scope="col">Category</th><th scope="col">Days</th><th scope="col">Set by</th>
<th scope="col">Default</th><th scope="col">Bounds</th><th scope="col">Why</th></tr></thead>
<tbody>
{% for p in policies %}
<tr><td>{{ p.category }}</td><td>{{ p.days }}</td><td>{{ p.source }}</td>
<td>{{ p.default_days }}</td><td>{{ p.min_days }}-{{ p.max_days }}</td><td>{{ p.reason }}</td></tr>
{% endfor %}
</tbody></table>
<h2>Purges</h2>
<table id="purges">
<thead><tr><th scope="col">Run</th><th scope="col">When</th>
<th scope="col">Rows purged</th></tr></thead>
<tbody>
{% for r in runs.data %}
<tr><td>{{ r.id }}</td><td>{{ r.started_at.strftime("%Y-%m-%d %H:%M") }}</td>
<td>{% for c, n in r.purged.items() %}{{ c }}: {{ n }}{% if not loop.last %}, {% endif %}
{% endfor %}</td></tr>
{% else %}<tr><td colspan="3">No purge of your data yet.</td></tr>
{% endfor %}
</tbody></table>
{% endblock %}"""
)


@router.get("/privacy")
async def privacy(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    values: dict[str, Any] = {
        "session": session,
        "path": request.url.path,
        "csrf": session.csrf(runtime.vault),
        "can": {
            "manage_keys": session.may(MANAGE_KEYS),
            "manage_users": session.may(MANAGE_USERS),
            "review": session.may(REVIEW),
            "run_calls": session.may(RUN_CALLS),
        },
        "policies": await retention.effective(runtime.db, runtime.settings, session.org_id),
        "runs": await runs_of_org(runtime, session.org_id, PageRequest(1, 25)),
    }
    return HTMLResponse(_PAGE.render(**values), headers=HEADERS)
