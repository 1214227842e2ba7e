"""The console's pages (/console/...): sign-in and sign-out, overview, keys, wallet, request
log, users, the environment switch and the playground. Each page shows only the signed-in
user's organisation; the role decides what is shown and allowed (roles.py)."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from datetime import timedelta
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console import (
    admin,
    alerts,
    credit,
    documents,
    records,
    recovery,
    results,
    security,
    sessions,
    totp,
    users,
)
from hakiki.console.roles import MANAGE_KEYS, MANAGE_USERS, ROLES, key_scopes
from hakiki.console.throttle import LoginThrottle
from hakiki.console.web import (
    HEADERS,
    LOGIN_CSRF_COOKIE,
    new_login_csrf,
    posted,
    read_form,
    render,
    see_other,
    signed_in,
    static_file,
    to_login,
)
from hakiki.core import mail
from hakiki.core.auth import SESSION_COOKIE
from hakiki.core.calls import runtime_of
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.errors import ApiError
from hakiki.core.pagination import parse_day
from hakiki.core.providers.live import LiveProviders
from hakiki.core.wallet import repository as wallet_repository
from hakiki.core.wallet.service import wallet_summary

router = APIRouter(prefix="/console", include_in_schema=False)
router.include_router(recovery.router)
router.include_router(security.router)
router.include_router(alerts.router)
router.include_router(admin.router)
router.include_router(results.router)
router.include_router(documents.router)
router.include_router(credit.router)

REQUEST_LOG_ROWS = 25
ENVIRONMENTS = ("sandbox", "live")
TRANSACTION_ROWS = 50
REFERENCE_LENGTH = 40
WRONG = "The e-mail address, password or authentication code is not right."


def _forbidden(what: str) -> ApiError:
    return ApiError(403, "insufficient_scope", f"Your role cannot {what}.")


@router.get("/static/{name}")
async def static(name: str) -> Response:
    return static_file(name)


@router.get("/login")
async def login_form(request: Request) -> Response:
    if await signed_in(request) is not None:
        return see_other("/console/")
    return _login_page(request)


def _login_page(request: Request, error: str | None = None, status: int = 200) -> Response:
    token = new_login_csrf()
    response = render(request, "login.html", None, status, login_csrf=token, error=error)
    response.set_cookie(
        LOGIN_CSRF_COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/console/login",
    )
    return response


@router.post("/login")
async def login(request: Request) -> Response:
    form = await read_form(request)
    sent = form.get("csrf", "")
    if not sent or sent != request.cookies.get(LOGIN_CSRF_COOKIE):
        return _login_page(request, "The form expired; please sign in again.", 403)
    runtime = runtime_of(request)
    throttle = runtime.part(LoginThrottle)
    email = form.get("email", "").strip().lower()[:254]
    account = users.email_hash(runtime.vault, email)
    client = request.client.host if request.client else "unknown"
    wait = await throttle.retry_after(account, client)
    if wait is not None:
        response = _login_page(request, f"Too many failed sign-ins; try again in {wait} s.", 429)
        response.headers["Retry-After"] = str(wait)
        return response
    password = form.get("password", "")
    user = await users.check_password(runtime.db, runtime.vault, email, password[:1024])
    code = form.get("code", "")[:16]
    if user is not None and not await totp.second_factor_ok(runtime.db, runtime.vault, user, code):
        user = None
    if user is None:
        await throttle.failed(account, client)
        return _login_page(request, WRONG, 401)
    token = await sessions.start(runtime, user)
    response = see_other("/console/")
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(runtime.settings.console_session_hours * 3600),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/console/login")
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    session, _ = await posted(request)
    if session is not None:
        await sessions.end(runtime_of(request), session.id)
    response = to_login()
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/environment")
async def environment(request: Request) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    chosen = form.get("environment")
    if chosen not in ("sandbox", "live"):
        raise ApiError(400, "invalid_request", "environment must be sandbox or live.")
    if chosen == "live" and not session.approved:
        raise ApiError(
            403, "account_not_approved", "Live works once an operator approved the organisation."
        )
    await sessions.choose_environment(runtime_of(request), session, chosen)
    return see_other(
        form.get("next", "/console/")
        if form.get("next", "").startswith("/console/")
        else "/console/"
    )


@router.get("/")
async def overview(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    async with read(runtime_of(request).db) as conn:
        days = await records.activity(conn, session.org_id, session.environment)
        wallet = await wallet_summary(conn, session.org_id)
    peak = max([1, *(d["calls"] for d in days), *(d["errors"] for d in days)])
    queue = await alerts.queue_counts(request, session)
    return render(
        request,
        "overview.html",
        session,
        days=days,
        peak=peak,
        ticks=_ticks(peak),
        wallet=wallet,
        queue=queue,
    )


def _ticks(peak: int) -> list[int]:
    """Round values for the chart's y axis, from 0 to at least ``peak``."""
    step, scale = 1, 1
    while peak / step > 5:
        for factor in (2, 5, 10):
            step = factor * scale
            if peak / step <= 5:
                break
        else:
            scale *= 10
            continue
        break
    return list(range(0, peak + step, step))


@router.get("/keys")
async def keys(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    async with read(runtime.db) as conn:
        rows = await records.keys_of(conn, session.org_id)
        used = await records.last_used(conn, session.org_id, [r["id"] for r in rows])
    makers = await users.emails_by_id(runtime.db, runtime.vault, session.org_id)
    for row in rows:
        row["last_used"] = used.get(row["id"])
        row["creator"] = makers.get(row["created_by"] or "", "the operator (command line)")
    return render(request, "keys.html", session, keys=rows, new_scopes=key_scopes(session.role))


@router.post("/keys")
async def create_key(request: Request) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    if not session.may(MANAGE_KEYS):
        raise _forbidden("create keys")
    environment = form.get("environment")
    if environment not in ("sandbox", "live"):
        raise ApiError(400, "invalid_request", "environment must be sandbox or live.")
    if environment == "live" and not session.approved:
        raise ApiError(
            403,
            "account_not_approved",
            "Live keys come once an operator approved the organisation.",
        )
    scopes = key_scopes(session.role)
    name = form.get("name", "").strip()[:80] or None
    async with transaction(runtime_of(request).db) as conn:
        client_id, secret = await records.create_key(
            conn,
            session.org_id,
            environment,
            scopes=scopes,
            created_by=session.user_id,
            name=name,
        )
    # The secret is in this page only: it is not stored, and the page is not cached.
    return render(
        request,
        "key_created.html",
        session,
        client_id=client_id,
        name=name,
        secret=secret,
        environment=environment,
        scopes=scopes,
    )


@router.post("/keys/{key_id}/revoke")
async def revoke_key(request: Request, key_id: str) -> Response:
    session, _ = await posted(request)
    if session is None:
        return to_login()
    if not session.may(MANAGE_KEYS):
        raise _forbidden("revoke keys")
    async with transaction(runtime_of(request).db) as conn:
        if len(key_id) > REFERENCE_LENGTH or not await records.revoke_key(
            conn, session.org_id, key_id
        ):
            raise ApiError(404, "not_found", "Your organisation has no active key with this id.")
    return see_other("/console/keys")


@router.get("/wallet")
async def wallet(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    async with read(runtime_of(request).db) as conn:
        summary = await wallet_summary(conn, session.org_id)
        rows = await wallet_repository.list_transactions(
            conn, session.org_id, offset=0, limit=TRANSACTION_ROWS
        )
    return render(request, "wallet.html", session, wallet=summary, transactions=rows)


@router.get("/requests")
async def request_log(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    query = request.query_params
    if len(query.get("reference", "").strip()) > REFERENCE_LENGTH:
        raise ApiError(400, "invalid_request", "reference is a request id (X-Request-Id).")
    chosen = {
        name: query.get(name, "").strip()[:REFERENCE_LENGTH]
        for name in ("reference", "status", "endpoint", "key", "since", "until", "environment")
    }
    if "\x00" in "".join(chosen.values()):
        raise ApiError(400, "invalid_request", "A filter holds a NUL character.")
    chosen["endpoint"] = query.get("endpoint", "").strip()[:200]
    filters: dict[str, object] = {
        "reference": chosen["reference"] or None,
        "endpoint": chosen["endpoint"] or None,
        "environment": chosen["environment"] if chosen["environment"] in ENVIRONMENTS else None,
    }
    status = chosen["status"]
    if status in records.STATUS_CLASSES or (status.isdigit() and len(status) == 3):
        filters["status"] = status
    filters["since"] = parse_day(chosen["since"] or None, "since")
    until = parse_day(chosen["until"] or None, "until")
    if until is not None and len(chosen["until"]) == 10:  # a day: through its end
        until += timedelta(days=1)
    filters["until"] = until
    runtime = runtime_of(request)
    async with read(runtime.db) as conn:
        keys_rows = await records.keys_of(conn, session.org_id)
        names = {k["id"]: k["name"] or k["client_id"] for k in keys_rows}
        people = await users.emails_by_id(runtime.db, runtime.vault, session.org_id)
        if chosen["key"]:
            filters["key_id"] = chosen["key"]
        page = _page_number(query.get("page"))
        rows, total = await records.request_log_page(
            conn,
            session.org_id,
            filters,
            offset=(page - 1) * REQUEST_LOG_ROWS,
            limit=REQUEST_LOG_ROWS,
        )
        paths = await records.endpoints_logged(conn, session.org_id)
    for row in rows:
        key = row["api_key_id"] or ""
        row["caller"] = names.get(key) or people.get(key) or key
    pages = max(1, (total + REQUEST_LOG_ROWS - 1) // REQUEST_LOG_ROWS)
    return render(
        request,
        "requests.html",
        session,
        entries=rows,
        chosen=chosen,
        total=total,
        page=page,
        pages=pages,
        keys=keys_rows,
        people=people,
        paths=paths,
        statuses=list(records.STATUS_CLASSES),
        filter_query=urlencode({k: v for k, v in chosen.items() if v}),
    )


def _page_number(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 100_000))
    except ValueError:
        return 1


@router.get("/users")
async def user_list(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    rows = await users.list_users(runtime.db, runtime.vault, session.org_id)
    return render(request, "users.html", session, users=rows, roles=ROLES, created=None)


@router.post("/users")
async def add_user(request: Request) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    if not session.may(MANAGE_USERS):
        raise _forbidden("add users")
    role = form.get("role", "")
    if role == "owner" and session.role != "owner":
        raise _forbidden("add an owner")
    runtime = runtime_of(request)
    base = recovery.link_base(runtime, request)
    invited = mail.configured(runtime.settings) and base is not None
    notice = None
    if mail.configured(runtime.settings) and base is None:
        recovery.log_no_base(request)  # the new user gets a generated password instead
        notice = recovery.NO_INVITE
    email = form.get("email", "")
    created = await users.create_user(
        runtime.db, runtime.vault, org_id=session.org_id, email=email, role=role, invited=invited
    )
    if invited and base is not None:
        try:
            await recovery.send_link(runtime, base, created.id, created.email, "invite")
        except Exception as error:
            recovery.log_unsent("invitation", error)
            raise ApiError(
                503,
                "service_unavailable",
                "The user was added but the invitation could not be sent; "
                "they can ask for a link on the sign-in page's Forgotten password.",
            ) from None
    rows = await users.list_users(runtime.db, runtime.vault, session.org_id)
    return render(
        request, "users.html", session, users=rows, roles=ROLES, created=created, notice=notice
    )


# Pages whose data the browser reads from the API with the session (static/console.js): the
# console adds no second way to reach another domain's records.
API_PAGES = {
    "bulk-scans": "bulk.html",
    "fraud-reports": "reports.html",
    "audit-log": "audit.html",  # the audit log (docs/privacy.md), owners and admins
    "lists": "lists.html",
    "playground": "playground.html",
}


def _api_page(template: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        session = await signed_in(request)
        if session is None:
            return to_login()
        return render(request, template, session)

    return page


@router.get("/providers")
async def providers_page(request: Request) -> Response:
    """Every live channel's providers in order and their circuit breakers, as this process
    holds them (docs/providers.md). Any console user may look: nothing here is secret."""
    session = await signed_in(request)
    if session is None:
        return to_login()
    now = utcnow()
    channels = runtime_of(request).part(LiveProviders).channels()
    for channel in channels:
        for provider in channel["providers"]:
            ago = provider.get("opened_seconds_ago")
            left = provider.get("retry_in_seconds")
            provider["opened_at"] = now - timedelta(seconds=ago) if ago is not None else None
            provider["next_trial"] = now + timedelta(seconds=left) if left is not None else None
    return render(request, "providers.html", session, channels=channels, now=now, pid=os.getpid())


@router.get("/screening")
async def screening_page(request: Request) -> Response:
    """Screen a name (the JS sends /v3/screening/aml): in live, the price of one click is
    shown before it is made."""
    session = await signed_in(request)
    if session is None:
        return to_login()
    price = runtime_of(request).price(SCREEN_ENDPOINT)
    return render(request, "screening.html", session, price=price)


SCREEN_ENDPOINT = "screening.aml"


for _path, _template in API_PAGES.items():
    router.add_api_route(f"/{_path}", _api_page(_template), methods=["GET"])


__all__ = ["HEADERS", "router"]
