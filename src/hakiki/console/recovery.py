"""Invitations and password resets by e-mail (HAKIKI_SMTP_*): GET and POST /console/reset
(ask for a link) and /console/reset/{token} (choose a password). Asking answers the same, after
the same work, whether or not the address belongs to a user: the look-up and the mail happen
after the answer is sent. Asks are throttled per address and per client apart from sign-ins
(throttle.ResetThrottle), so the form neither reveals users, nor sends unbounded mail, nor
locks anyone out. Links point at HAKIKI_CONSOLE_BASE_URL, never at the request's Host
(core.mail_links)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.background import BackgroundTask

from hakiki.console import links, passwords, users
from hakiki.console.throttle import ResetThrottle
from hakiki.console.web import new_login_csrf, read_form, render, see_other
from hakiki.core import mail, mail_links
from hakiki.core.calls import runtime_of
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.console")
router = APIRouter(include_in_schema=False)  # included by pages.router, under /console

CSRF_COOKIE = "hakiki_console_reset"
SENT = "If the address belongs to a console user, a link to choose a password is on its way."
BASE_URL_SETTING = "HAKIKI_CONSOLE_BASE_URL"
NO_SMTP = (
    "This server sends no e-mail (no SMTP server is configured): ask an owner or admin of "
    "your organisation, or the operator, for a new password."
)
NO_BASE_URL = (
    "This server cannot e-mail links yet: its operator has not set its public address "
    f"({BASE_URL_SETTING}). Ask an owner or admin of your organisation, or the operator, for a "
    "new password."
)
NO_INVITE = (
    f"No invitation was e-mailed: the operator has not set this server's public address "
    f"({BASE_URL_SETTING}), and a link built from the address this request came to could be forged."
)


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


def link_base(runtime: Runtime, request: Request) -> str | None:
    """The base of mailed links, or None when none may be used (core.mail_links)."""
    return mail_links.link_base(runtime.settings.console_base_url, request)


def log_no_base(request: Request) -> None:
    logger.error("console: %s", mail_links.missing(BASE_URL_SETTING, request))


def unavailable(runtime: Runtime, base: str | None) -> str | None:
    """Why no link can be e-mailed to ``base`` (link_base's), or None when one can."""
    if not mail.configured(runtime.settings):
        return NO_SMTP
    return NO_BASE_URL if base is None else None


async def send_link(runtime: Runtime, base: str, user_id: str, email: str, purpose: str) -> None:
    token = await links.issue(runtime.db, runtime.vault, user_id, purpose)
    url = f"{base}/console/reset/{token}"
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


def log_unsent(purpose: str, error: Exception) -> None:
    """Log a failed send without the address: an SMTP error's text often quotes it."""
    code = getattr(error, "smtp_code", None)
    logger.error(
        "console: the %s e-mail could not be sent: %s%s",
        purpose,
        type(error).__name__,
        f" (SMTP {code})" if code is not None else "",
    )


async def _mail_reset(runtime: Runtime, base: str, email: str) -> None:
    """Run after the answer went out, for every address asked about: the look-up, and the
    link and mail when the address is a user's."""
    try:
        user = await users.find_by_email(runtime.db, runtime.vault, email)
        if user is not None and user["disabled_at"] is None:
            await send_link(runtime, base, user["id"], email, "reset")
    except Exception as error:  # after the answer: nobody else to tell
        log_unsent("password-reset", error)


@router.get("/reset")
async def reset_form(request: Request) -> Response:
    runtime = runtime_of(request)
    why = unavailable(runtime, link_base(runtime, request))
    return _form(request, "reset_request.html", unavailable=why, sent=None)


@router.post("/reset")
async def reset_request(request: Request) -> Response:
    form = await _checked_form(request)
    runtime = runtime_of(request)
    base = link_base(runtime, request)
    why = unavailable(runtime, base)
    if why is not None or base is None:
        if why == NO_BASE_URL:
            log_no_base(request)
        return _form(request, "reset_request.html", 503, unavailable=why, sent=None)
    email = form.get("email", "").strip().lower()[:254]
    client = request.client.host if request.client else "unknown"
    throttle = runtime.part(ResetThrottle)
    account = users.email_hash(runtime.vault, email)
    wait = await throttle.retry_after(account, client)
    if wait is not None:
        response = _form(
            request,
            "reset_request.html",
            429,
            unavailable=None,
            sent=None,
            error=f"Too many requests; try again in {wait} s.",
        )
        response.headers["Retry-After"] = str(wait)
        return response
    await throttle.failed(account, client)
    response = _form(request, "reset_request.html", unavailable=None, sent=SENT)
    response.background = BackgroundTask(_mail_reset, runtime, base, email)
    return response


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
