"""The Security page: the optional TOTP second factor, set up with a code from the app and
turned off with a current one (totp.py). While one is on, no other can be set up: replacing it
takes turning it off first, with a current code, so a session alone (a borrowed browser, a
stolen cookie) cannot swap the second factor for its own."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console import totp
from hakiki.console.web import posted, render, see_other, signed_in, to_login
from hakiki.core.calls import runtime_of
from hakiki.core.errors import ApiError

router = APIRouter(include_in_schema=False)  # included by pages.router, under /console


def _already_on() -> ApiError:
    return ApiError(
        409,
        "conflict",
        "A second factor is already on: turn it off first with a current code from its app, "
        "then set up the new one.",
    )


async def _refuse_if_on(request: Request, user_id: str) -> None:
    if await totp.sealed_secret(runtime_of(request).db, user_id) is not None:
        raise _already_on()


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
    await _refuse_if_on(request, session.user_id)
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
    await _refuse_if_on(request, session.user_id)
    if not totp.code_matches(secret, form.get("code", "")):
        uri = totp.uri(secret, session.email)
        error = "That code does not match: check the app's clock and try the next code."
        context = {"enabled": False, "secret": secret, "uri": uri, "error": error}
        return render(request, "security.html", session, 400, **context)
    if not await totp.enable(runtime.db, runtime.vault, session.user_id, secret):
        raise _already_on()
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
    await totp.disable(runtime.db, session.user_id)
    return see_other("/console/security")
