"""The Security page: the optional TOTP second factor, set up with a code from the app and
turned off with a current one (totp.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console import totp
from hakiki.console.web import posted, render, see_other, signed_in, to_login
from hakiki.core.calls import runtime_of
from hakiki.core.errors import ApiError

router = APIRouter(include_in_schema=False)  # included by pages.router, under /console


@router.get("/security")
async def security(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    enabled = await totp.sealed_secret(runtime.db, session.user_id) is not None
    return render(request, "security.html", session, enabled=enabled, secret=None)


@router.post("/security/totp")
async def totp_start(request: Request) -> Response:
    """A new secret to add to an authenticator app; it counts once a code from it is sent."""
    session, _ = await posted(request)
    if session is None:
        return to_login()
    secret = totp.new_secret()
    uri = totp.uri(secret, session.email)
    return render(request, "security.html", session, enabled=False, secret=secret, uri=uri)


@router.post("/security/totp/confirm")
async def totp_confirm(request: Request) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    secret = form.get("secret", "")
    if not totp.SECRET.fullmatch(secret):
        raise ApiError(400, "invalid_request", "secret is not one this page issued.")
    runtime = runtime_of(request)
    if not totp.code_matches(secret, form.get("code", "")):
        uri = totp.uri(secret, session.email)
        error = "That code does not match: check the app's clock and try the next code."
        context = {"enabled": False, "secret": secret, "uri": uri, "error": error}
        return render(request, "security.html", session, 400, **context)
    await totp.store(runtime.db, runtime.vault, session.user_id, secret)
    return see_other("/console/security")


@router.post("/security/totp/disable")
async def totp_disable(request: Request) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    sealed = await totp.sealed_secret(runtime.db, session.user_id)
    if sealed is None:
        return see_other("/console/security")
    if not totp.code_matches(runtime.vault.decrypt(sealed), form.get("code", "")):
        error = "That code does not match; the second factor stays on."
        return render(request, "security.html", session, 400, enabled=True, error=error)
    await totp.store(runtime.db, runtime.vault, session.user_id, None)
    return see_other("/console/security")
