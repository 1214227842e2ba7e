"""What every console page shares: templates, security headers, bounded form bodies, the
signed-in session and its CSRF check, static files."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape

from hakiki.console import sessions
from hakiki.console.roles import (
    MANAGE_CREDIT,
    MANAGE_KEYS,
    MANAGE_USERS,
    MANAGE_WEBHOOKS,
    REVIEW,
    RUN_CALLS,
)
from hakiki.console.sessions import Session
from hakiki.core import request_body
from hakiki.core.auth import SESSION_COOKIE
from hakiki.core.calls import runtime_of
from hakiki.core.clock import as_utc
from hakiki.core.errors import ApiError, invalid_request, payload_too_large

FORM_LIMIT = 16 << 10
MAX_FIELDS = 40
LOGIN_CSRF_COOKIE = "hakiki_console_login"
STATIC = Path(__file__).parent / "static"
STATIC_FILES = {  # name -> media type: nothing else is served
    "console.css": "text/css; charset=utf-8",
    "console.js": "text/javascript; charset=utf-8",
}
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

templates = Environment(
    loader=PackageLoader("hakiki.console", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def when(value: datetime | None) -> str:
    """The console's one timestamp format: to the second, in UTC, the zone named."""
    if value is None:
        return ""
    return as_utc(value).strftime("%Y-%m-%d %H:%M:%S UTC")


def pretty(value: Any) -> str:
    """JSON as a person reads it (escaped by the template like any text, not as \u003c)."""
    return json.dumps(value, ensure_ascii=False, indent=1)


templates.filters["when"] = when
templates.filters["pretty"] = pretty


def render(
    request: Request,
    template: str,
    session: Session | None = None,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    values: dict[str, Any] = {"session": session, "path": request.url.path, **context}
    if session is not None:
        values["csrf"] = session.csrf(runtime_of(request).vault)
        values["can"] = {
            "manage_credit": session.may(MANAGE_CREDIT),
            "manage_keys": session.may(MANAGE_KEYS),
            "manage_users": session.may(MANAGE_USERS),
            "manage_webhooks": session.may(MANAGE_WEBHOOKS),
            "review": session.may(REVIEW),
            "run_calls": session.may(RUN_CALLS),
        }
    html = templates.get_template(template).render(**values)
    return HTMLResponse(html, status_code=status, headers=HEADERS)


def to_login() -> RedirectResponse:
    return RedirectResponse("/console/login", status_code=303, headers=HEADERS)


def see_other(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303, headers=HEADERS)


async def signed_in(request: Request) -> Session | None:
    return await sessions.current(runtime_of(request), request.cookies.get(SESSION_COOKIE))


async def read_form(request: Request) -> dict[str, str]:
    """An application/x-www-form-urlencoded body of at most FORM_LIMIT bytes and MAX_FIELDS
    fields: 413 over the size, 415 for another type, 400 for NUL, lone surrogates or a field
    sent twice."""
    declared = request_body.content_length(request.scope)
    if declared == 0:
        return {}
    media = request_body.media_type(request.scope)
    if media != "application/x-www-form-urlencoded":
        raise ApiError(
            415,
            "unsupported_media_type",
            "Console forms are sent as application/x-www-form-urlencoded.",
        )
    if declared is not None and declared > FORM_LIMIT:
        raise payload_too_large(FORM_LIMIT)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_LIMIT:
            raise payload_too_large(FORM_LIMIT)
    try:
        text = body.decode("utf-8")
        pairs = parse_qsl(
            text,
            keep_blank_values=True,
            strict_parsing=False,
            max_num_fields=MAX_FIELDS,
            errors="surrogatepass",
        )
    except (UnicodeDecodeError, ValueError) as exc:
        raise invalid_request("The form is not valid URL-encoded UTF-8.", field="body") from exc
    form: dict[str, str] = {}
    for name, value in pairs:
        request_body.check_parameter(name, value)
        if name in form:
            raise invalid_request(f"The form sent {name} twice.", field=name)
        form[name] = value
    return form


async def posted(request: Request) -> tuple[Session | None, dict[str, str]]:
    """The session of a console form's POST and its fields: None unless signed in; 403 when
    the form's CSRF token is not the session's."""
    session = await signed_in(request)
    if session is None:
        return None, {}
    form = await read_form(request)
    if not sessions.csrf_matches(runtime_of(request), session, form.get("csrf")):
        raise ApiError(403, "csrf_failed", "The form's CSRF token is missing or stale; reload.")
    return session, form


def new_login_csrf() -> str:
    return secrets.token_urlsafe(24)


def static_file(name: str) -> Response:
    media = STATIC_FILES.get(name)
    if media is None:
        raise ApiError(404, "not_found", "No such file.")
    headers = {"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"}
    return Response((STATIC / name).read_bytes(), media_type=media, headers=headers)
