"""The console's page of hosted verification sessions (GET /console/verification-sessions):
each session's state, decision and each step's result with its evidence, and the images kept
when the organisation opted in (verification/images.py), with their deletion date. One file,
here rather than in console/ (the console's templates and script are being reworked
elsewhere, and console/ importing this domain would close an import cycle through
screening): it uses the console's session check and layout, and reads the sessions through
this domain's service, scoped to the signed-in organisation and environment, as the API's GET
does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from hakiki.console.roles import MANAGE_KEYS, MANAGE_USERS, REVIEW, RUN_CALLS
from hakiki.console.web import HEADERS, signed_in, templates, to_login
from hakiki.core.calls import runtime_of
from hakiki.core.pagination import PageRequest
from hakiki.verification import images, service

router = APIRouter(prefix="/console", include_in_schema=False)

_PAGE = templates.from_string(
    """{% extends "base.html" %}
{% block title %}Verification sessions{% endblock %}
{% block main %}
<h1>Verification sessions <span class="env">{{ session.environment }}</span></h1>
<p>{{ listed.pagination.total_items }} session(s). Each step's evidence below is what the
engines measured.</p>
<p id="image-setting">{% if setting.keep_images %}Your organisation keeps each session's document
photo and liveness frames, sealed, for {{ setting.retention_days }} days after the submission
(set {{ setting.updated_at.strftime("%Y-%m-%d %H:%M UTC") }} by {{ setting.updated_by }}).
{% else %}Photos and selfie frames are not kept (your organisation has not opted in: PUT
/v3/account/verification-settings).{% endif %}</p>
<table id="verification-sessions">
<thead><tr><th scope="col">Session</th><th scope="col">Customer</th><th scope="col">Status</th>
<th scope="col">Decision</th><th scope="col">Steps</th><th scope="col">Charged</th>
<th scope="col">Created</th></tr></thead>
<tbody>
{% for s in listed.data %}
<tr><td>{{ s.id }}</td><td>{{ s.customer_reference }}</td><td>{{ s.state }}</td>
<td>{{ s.decision or "" }}</td>
<td><ul>{% for r in s.results %}<li><strong>{{ r.step }}</strong>: {{ r.status }}: {{ r.reason }}
{% if r.evidence %}<details><summary>evidence</summary>
<pre>{{ r.evidence | tojson(indent=1) }}</pre></details>{% endif %}
</li>{% else %}<li>{{ s.steps | join(", ") }} (not submitted)</li>{% endfor %}</ul>
{% set pictures = kept.get(s.id) %}{% if pictures %}<details class="kept-images">
<summary>{{ pictures|length }} image(s) kept until
{{ pictures[0].delete_after.strftime("%Y-%m-%d") }}</summary>
{% for p in pictures %}{% set what = "Document photo" if p.kind == "document"
else "Liveness frame at " ~ p.t_ms ~ " ms" %}<figure><img src="{{ p.src }}"
alt="{{ what }} of {{ s.id }}" width="160"><figcaption>{{ p.kind }}{% if p.t_ms is not none %} ·
{{ p.t_ms }} ms{% endif %}</figcaption></figure>{% endfor %}
</details>{% endif %}</td>
<td>{{ s.charged_amount }} {{ s.currency }}</td>
<td>{{ s.created_at.strftime("%Y-%m-%d %H:%M") }}</td></tr>
{% endfor %}
</tbody></table>
{% if listed.pagination.total_pages > 1 %}<p>Page {{ listed.pagination.page }} of
{{ listed.pagination.total_pages }}{% if listed.pagination.page < listed.pagination.total_pages %}:
<a href="?page={{ listed.pagination.page + 1 }}">next</a>{% endif %}</p>{% endif %}
{% endblock %}"""
)


@router.get("/verification-sessions")
async def verification_sessions(
    request: Request, page: int = Query(1, ge=1, le=10_000)
) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    listed = await service.listing(
        runtime, (session.environment, session.org_id), PageRequest(page, 25), {}
    )
    owner = (session.environment, session.org_id)
    reviewer = session.may(REVIEW)  # the images: to those who review, not to a viewer
    shown = [s.id for s in listed.data] if reviewer else []
    kept = await images.kept_images(runtime, owner, shown)
    setting = await images.read_settings(runtime, owner)
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
        "listed": listed,
        "kept": kept,
        "setting": setting,
    }
    return HTMLResponse(_PAGE.render(**values), headers=HEADERS)
