"""Invitations and password resets by e-mail (HAKIKI_SMTP_*): GET and POST /console/reset
(ask for a link) and /console/reset/{token} (choose a password). Asking answers the same
whether or not the address belongs to a user, and counts against the sign-in throttle, so the
form neither reveals users nor sends unbounded mail."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console import links, passwords, users
from hakiki.console.throttle import LoginThrottle
from hakiki.console.web import new_login_csrf, read_form, render, see_other
from hakiki.core import mail
from hakiki.core.calls import runtime_of
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.console")
router = APIRouter(include_in_schema=False)  # included by pages.router, under /console

CSRF_COOKIE = "hakiki_console_reset"
SENT = "If the address belongs to a console user, a link to choose a password is on its way."


def _form(request: Request, template: str, status: int = 200, **context: object) -> Response:
    token = new_login_csrf()
    response = render(request, template, None, status, form_csrf=token, **context)
    response.set_cookie(
        CSRF_COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/console/reset",
    )
    return response


async def _checked_form(request: Request) -> dict[str, str]:
    form = await read_form(request)
    sent = form.get("csrf", "")
    if not sent or sent != request.cookies.get(CSRF_COOKIE):
        raise ApiError(403, "csrf_failed", "The form expired; reload the page.")
    return form


def link_url(runtime: Runtime, request: Request, token: str) -> str:
    base = runtime.settings.console_base_url or str(request.base_url)
    return f"{base.rstrip('/')}/console/reset/{token}"


async def send_link(
    runtime: Runtime, request: Request, user: dict[str, str], email: str, purpose: str
) -> None:
    token = await links.issue(runtime.db, runtime.vault, user["id"], purpose)
    url = link_url(runtime, request, token)
    if purpose == "invite":
        subject = "Your Hakiki console account"
        text = (
            f"You have been given access to the Hakiki console. Choose your password at:\n\n"
            f"{url}\n\nThe link works once, for 72 hours.\n"
        )
    else:
        subject = "Choose a new Hakiki console password"
        text = (
            f"Someone (we hope you) asked to reset your console password. Choose a new one "
            f"at:\n\n{url}\n\nThe link works once, for an hour. If it was not you, ignore "
            "this message: your password has not changed.\n"
        )
    await mail.send(runtime.settings, email, subject, text)


@router.get("/reset")
async def reset_form(request: Request) -> Response:
    available = mail.configured(runtime_of(request).settings)
    return _form(request, "reset_request.html", available=available, sent=None)


@router.post("/reset")
async def reset_request(request: Request) -> Response:
    form = await _checked_form(request)
    runtime = runtime_of(request)
    if not mail.configured(runtime.settings):
        return _form(request, "reset_request.html", 503, available=False, sent=None)
    email = form.get("email", "").strip().lower()[:254]
    client = request.client.host if request.client else "unknown"
    throttle = runtime.part(LoginThrottle)
    wait = await throttle.retry_after(email, client)
    if wait is not None:
        response = _form(
            request,
            "reset_request.html",
            429,
            available=True,
            sent=None,
            error=f"Too many attempts; try again in {wait} s.",
        )
        response.headers["Retry-After"] = str(wait)
        return response
    await throttle.failed(email, client)  # a reset request costs what a failed sign-in does
    user = await users.find_by_email(runtime.db, runtime.vault, email)
    if user is not None and user["disabled_at"] is None:
        try:
            await send_link(runtime, request, user, email, "reset")
        except Exception:  # the answer must not tell whether a user exists
            logger.exception("console: the password-reset e-mail could not be sent")
    return _form(request, "reset_request.html", available=True, sent=SENT)


@router.get("/reset/{token}")
async def choose_form(request: Request, token: str) -> Response:
    runtime = runtime_of(request)
    link = await links.find(runtime.db, runtime.vault, token)
    if link is None:
        return render(request, "link_dead.html", None, 404)
    return _form(request, "choose_password.html", email=link["email"], token=token)


@router.post("/reset/{token}")
async def choose(request: Request, token: str) -> Response:
    form = await _checked_form(request)
    runtime = runtime_of(request)
    link = await links.find(runtime.db, runtime.vault, token)
    if link is None:
        return render(request, "link_dead.html", None, 404)
    password = form.get("password", "")
    problem = passwords.problem(password)
    if problem is None and password != form.get("repeat", ""):
        problem = "must be typed the same twice"
    if problem is not None:
        return _form(
            request,
            "choose_password.html",
            400,
            email=link["email"],
            token=token,
            error=f"The password {problem}.",
        )
    if not await links.use(runtime.db, runtime.vault, token, password):
        return render(request, "link_dead.html", None, 404)
    return see_other("/console/login")
