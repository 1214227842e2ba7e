"""The hosted invitation page (GET and POST /invitations/{token}): server-rendered HTML with
the consent text, the fields the package's checks need and the document uploads. It shows
nothing of the organisation but its name. The token in the link is the only credential: it is
stored as a keyed hash, dies on reinitiate, and the form carries a CSRF token bound to it
(double-submit: a hidden field and a SameSite=Strict cookie, both required)."""

from __future__ import annotations

import hmac
import json
from html import escape
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from hakiki.background import lifecycle, repository, timers
from hakiki.background.candidates import token_hash
from hakiki.background.check_types import ALL_CODES, BY_COUNTRY
from hakiki.background.invitation_form import (
    CONSENT,
    CREDIT_CONSENT,
    DOCUMENT_BYTES,
    Submission,
    label,
    needs,
    read_submission,
)
from hakiki.core import clock, request_body
from hakiki.core.calls import runtime_of
from hakiki.core.clock import as_utc
from hakiki.core.database import read, transaction
from hakiki.core.errors import ApiError, payload_too_large
from hakiki.core.ids import new_id
from hakiki.core.runtime import Runtime

router = APIRouter(include_in_schema=False)

CSRF_COOKIE = "hakiki_invitation_csrf"
FORM_LIMIT = 3 * DOCUMENT_BYTES + (64 << 10)
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",  # the link's token must not leak to other sites
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;"
    "color:#222}label{display:block;margin-top:1rem;font-weight:600}input[type=text],"
    "input[type=date],textarea{width:100%;padding:.4rem}.error{color:#b00020}"
    ".consent{background:#f4f4f4;padding:1rem;margin-top:1rem}button{margin-top:1.5rem;"
    "padding:.6rem 1.2rem}"
)


def _page(title: str, body: str, status: int = 200, csrf: str | None = None) -> HTMLResponse:
    html = (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{escape(title)}</h1>{body}</body></html>"
    )
    response = HTMLResponse(html, status_code=status, headers=_HEADERS)
    if csrf is not None:
        response.set_cookie(
            CSRF_COOKIE, csrf, httponly=True, samesite="strict", secure=False, path="/invitations"
        )
    return response


def _gone() -> HTMLResponse:
    return _page(
        "This link does not work",
        "<p>This invitation link is not valid any more. If you still need to complete the "
        "check, ask the organisation that invited you to send a new invitation.</p>",
        404,
    )


def _dead(row: dict[str, Any]) -> bool:
    """Expired, or pending past its expiry (before the timer has run)."""
    if row["status"] == "expired":
        return True
    return row["status"] == "pending" and as_utc(row["expires_at"]) <= clock.utcnow()


def _csrf(runtime: Runtime, hashed: str) -> str:
    return runtime.vault.lookup_hash("invitation-csrf", hashed)


async def _request_for(runtime: Runtime, token: str) -> dict[str, Any] | None:
    if not 20 <= len(token) <= 100:
        return None
    async with read(runtime.db) as conn:
        return await repository.by_token(conn, token_hash(runtime.vault, token))


def _form(org: str, row: dict[str, Any], csrf: str, submission: Submission | None = None) -> str:
    snapshot = json.loads(row["package_snapshot"])
    fields, documents = needs(snapshot)
    errors = submission.errors if submission else {}
    given = submission.given if submission else {}

    def error(name: str) -> str:
        return (
            f'<div class=error id="{name}-error">{escape(errors[name])}</div>'
            if name in errors
            else ""
        )

    offered = BY_COUNTRY[snapshot["country"]]
    names = [(offered.get(c) or ALL_CODES[c]).name for c in snapshot["check_types"]]
    checks = "".join(f"<li>{escape(name)}</li>" for name in names)
    parts = [
        f"<p><strong>{escape(org)}</strong> has invited you to complete a background check.</p>",
        f"<p>The checks:</p><ul>{checks}</ul>",
        '<form method=post enctype="multipart/form-data">',
        f'<input type=hidden name=csrf_token value="{escape(csrf)}">',
    ]
    for name in fields:
        value = escape(given.get(name, ""))
        kind = "date" if name == "date_of_birth" else "text"
        if name == "referees":
            control = f"<textarea id={name} name={name} rows=3 maxlength=500>{value}</textarea>"
        else:
            control = (
                f'<input id={name} name={name} type={kind} maxlength=500 value="{value}" required>'
            )
        parts.append(f"<label for={name}>{escape(label(name))}</label>{control}{error(name)}")
    for name in documents:
        parts.append(
            f"<label for={name}>{escape(label(name))}</label>"
            f'<input id={name} name={name} type=file accept=".pdf,.jpg,.jpeg,.png" required>'
            f"{error(name)}"
        )
    credit = CREDIT_CONSENT if "credit_bureau" in snapshot["check_types"] else ""
    consent = escape(CONSENT.format(org=org) + credit)
    parts.append(
        f"<div class=consent><p>{consent}</p><label><input type=checkbox id=consent "
        f"name=consent value=yes> I consent</label>{error('consent')}</div>"
        "<button type=submit id=submit>Submit</button></form>"
    )
    return "".join(parts)


def _submitted_already() -> HTMLResponse:
    """A second submission of one link: 409, nothing changed."""
    return _page("Thank you", "<p>This check has already been submitted.</p>", 409)


@router.get("/invitations/{token}", response_class=HTMLResponse)
async def invitation_page(token: str, request: Request) -> HTMLResponse:
    runtime = runtime_of(request)
    row = await _request_for(runtime, token)
    if row is None:
        return _gone()
    async with read(runtime.db) as conn:
        org = await lifecycle.org_name(conn, row["org_id"])
    if _dead(row):
        return _gone()
    if row["status"] != "pending":
        return _page("Thank you", "<p>This check has already been submitted.</p>")
    csrf = _csrf(runtime, row["token_hash"])
    return _page("Background check", _form(org, row, csrf), csrf=csrf)


@router.post("/invitations/{token}", response_class=HTMLResponse)
async def submit_invitation(token: str, request: Request) -> HTMLResponse:
    runtime = runtime_of(request)
    declared = request_body.content_length(request.scope)
    if declared is not None and declared > FORM_LIMIT:
        raise payload_too_large(FORM_LIMIT)
    row = await _request_for(runtime, token)
    if row is None:
        return _gone()
    csrf = _csrf(runtime, row["token_hash"])
    bounded = Request(request.scope, request_body.bounded(request.receive, FORM_LIMIT))
    try:
        form = await bounded.form(max_files=5, max_fields=30, max_part_size=64 << 10)
    except (ApiError, StarletteHTTPException):
        raise  # 413 from the bounded body
    except Exception:  # a malformed multipart body
        return _page("Background check", "<p class=error>The form could not be read.</p>", 400)
    sent = form.get("csrf_token")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    if not (
        isinstance(sent, str)
        and hmac.compare_digest(sent.encode(), csrf.encode())
        and hmac.compare_digest(cookie.encode(), csrf.encode())
    ):
        return _page(
            "Background check", "<p class=error>The form has expired: reload the page.</p>", 403
        )
    async with read(runtime.db) as conn:
        org = await lifecycle.org_name(conn, row["org_id"])
    if _dead(row):
        return _gone()
    if row["status"] != "pending":
        return _submitted_already()
    submission = await read_submission(form, json.loads(row["package_snapshot"]))
    if submission.errors:
        return _page("Background check", _form(org, row, csrf, submission), 400, csrf=csrf)
    now = clock.utcnow()
    documents = [
        {
            "id": new_id("bgd"),
            "kind": d["kind"],
            "content_type": d["content_type"],
            "size": d["size"],
            "sha256": d["sha256"],
            "sealed": runtime.vault.seal(
                orjson.dumps({"filename": d["filename"]}) + b"\n" + d["data"]
            ),
            "created_at": now,
        }
        for d in submission.documents
    ]
    async with transaction(runtime.db) as conn:
        latest = await repository.lock_request(conn, row["id"])
        if latest is None or latest["token_hash"] != row["token_hash"]:
            return _gone()
        # Another submission of this link may have won while this one was read: only a
        # pending request moves, the rest are told so (not a refused transition's 500).
        moved = None
        if latest["status"] == "pending":
            moved = await timers.submit(conn, runtime, latest, submission.given, documents)
    if moved is None:
        return _submitted_already()
    return _page(
        "Thank you",
        f"<p id=done>Your information has been sent to {escape(org)}. You can close this page.</p>",
    )
