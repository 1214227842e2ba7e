"""Sign-in and sign-out: the form's CSRF token, the cookie's flags, one answer for a wrong
e-mail or password, throttling per account and per client, server-side end, idle and absolute
expiry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from hakiki.console.sessions import token_hash
from hakiki.console.tables import console_sessions
from hakiki.console.throttle import LoginThrottle
from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.rate_limit import RateLimiter
from hakiki.core.settings import Settings
from tests.conftest import REDIS_URL, require_redis, unique
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, csrf_of, sign_in, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_page_without_a_session_sends_to_the_sign_in_form(app: FastAPI) -> None:
    async with browser(app) as http:
        for path in ("/console/", "/console/keys", "/console/wallet", "/console/requests"):
            answer = await http.get(path)
            assert answer.status_code == 303
            assert answer.headers["location"] == "/console/login"
        form = await http.get("/console/login")
    assert form.status_code == 200
    assert "script-src 'self'" in form.headers["content-security-policy"]
    assert form.headers["x-frame-options"] == "DENY"
    assert csrf_of(form.text) == form.cookies["hakiki_console_login"]


async def test_sign_in_sets_a_http_only_lax_session_cookie(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        answer = await sign_in(http, user.email.upper(), user.password)  # any case
        assert answer.status_code == 303
        assert answer.headers["location"] == "/console/"
        cookie = answer.headers["set-cookie"]
        assert "hakiki_session=" in cookie
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # plain http (tests): a Secure cookie would not be sent
        page = await http.get("/console/")
    assert page.status_code == 200
    assert user.email in page.text and user.org_name in page.text


async def test_behind_https_the_cookie_is_secure(app: FastAPI, make_user: UserFactory) -> None:
    user = await make_user("viewer")
    async with browser(app, "https://hakiki.test") as http:
        answer = await sign_in(http, user.email, user.password)
    assert answer.status_code == 303
    assert "Secure" in answer.headers["set-cookie"]


async def test_a_wrong_password_or_email_signs_nobody_in_and_says_the_same(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        wrong_password = await sign_in(http, user.email, "not the password at all")
        unknown_email = await sign_in(http, "nobody@example.com", user.password)
        assert "hakiki_session" not in http.cookies
        assert (await http.get("/console/")).status_code == 303
    for answer in (wrong_password, unknown_email):
        assert answer.status_code == 401
        assert "The e-mail address, password or authentication code is not right." in answer.text
        assert "set-cookie" not in answer.headers or "hakiki_session" not in str(
            answer.headers.get_list("set-cookie")
        )


async def test_a_sign_in_without_the_forms_csrf_token_is_refused(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        answer = await http.post(
            "/console/login", data={"email": user.email, "password": user.password}
        )
        http.cookies.set("hakiki_console_login", "y" * 32)
        forged = await http.post(
            "/console/login",
            data={"csrf": "x" * 32, "email": user.email, "password": user.password},
        )
    assert answer.status_code == forged.status_code == 403
    assert "hakiki_session" not in str(answer.headers.get_list("set-cookie"))


async def test_repeated_failures_are_throttled_per_account(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        for _ in range(5):
            assert (await sign_in(http, user.email, "wrong password!!")).status_code == 401
        throttled = await sign_in(http, user.email, user.password)  # even the right one
    assert throttled.status_code == 429
    assert int(throttled.headers["retry-after"]) > 0
    async with browser(app) as other_client:  # the account, from anywhere
        assert (await sign_in(other_client, user.email, user.password)).status_code == 429


async def test_repeated_failures_are_throttled_per_client(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        for n in range(20):
            answer = await sign_in(http, f"guess{n}@example.com", "wrong password!!")
            assert answer.status_code == 401
        throttled = await sign_in(http, user.email, user.password)
    assert throttled.status_code == 429
    async with browser(app) as other_client:  # the same account from elsewhere signs in
        assert (await sign_in(other_client, user.email, user.password)).status_code == 303


async def test_sign_out_ends_the_session_on_the_server(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        token = http.cookies["hakiki_session"]
        assert (await http.post("/console/logout", data={})).status_code == 403  # no CSRF
        answer = await http.post("/console/logout", data={"csrf": csrf})
        assert answer.status_code == 303
        assert answer.headers["location"] == "/console/login"
    async with browser(app) as replay:  # the old cookie, kept by an attacker
        replay.cookies.set("hakiki_session", token)
        assert (await replay.get("/console/")).status_code == 303
        assert (await replay.get("/v3/account/wallet")).status_code == 401


@pytest.mark.parametrize("column", ["last_seen_at", "expires_at"])
async def test_sessions_expire_when_idle_and_at_their_absolute_end(
    app: FastAPI, db: Database, make_user: UserFactory, column: str
) -> None:
    user = await make_user("owner")
    vault = app.state.runtime.vault
    async with browser(app) as http:
        await signed_in(http, user)
        assert (await http.get("/v3/account/wallet")).status_code == 200
        ago = {"last_seen_at": timedelta(minutes=31), "expires_at": timedelta(seconds=1)}[column]
        async with transaction(db) as conn:
            await conn.execute(
                update(console_sessions)
                .where(
                    console_sessions.c.token_hash
                    == token_hash(vault, http.cookies["hakiki_session"])
                )
                .values({column: utcnow() - ago})
            )
        assert (await http.get("/console/")).status_code == 303
        assert (await http.get("/v3/account/wallet")).status_code == 401


async def test_housekeeping_deletes_ended_sessions(
    app: FastAPI, db: Database, make_user: UserFactory
) -> None:
    from sqlalchemy import func, select

    from hakiki.console.sessions import purge_expired

    user = await make_user("viewer")
    vault = app.state.runtime.vault
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        mine = console_sessions.c.token_hash == token_hash(vault, http.cookies["hakiki_session"])
        await http.post("/console/logout", data={"csrf": csrf})
    count = select(func.count()).select_from(console_sessions).where(mine)
    async with db.reader.connect() as conn:
        assert (await conn.execute(count)).scalar_one() == 1
    assert await purge_expired(db) >= 1
    async with db.reader.connect() as conn:
        assert (await conn.execute(count)).scalar_one() == 0


async def test_with_redis_every_process_counts_the_same_failures(settings: Settings) -> None:
    """Two server processes (two throttles, each with its own Redis connections) see one
    count; an unreachable store throttles nobody and fails nothing."""
    require_redis()
    account, client = unique("address-hash-"), unique("10.0.0.")  # the throttle sees hashes
    shared = settings.model_copy(
        update={"redis_url": REDIS_URL, "console_login_limit_account": "2 per 15 minutes"}
    )
    first = LoginThrottle.from_settings(shared, RateLimiter.from_settings(shared).storage)
    second = LoginThrottle.from_settings(shared, RateLimiter.from_settings(shared).storage)
    await first.failed(account, client)
    assert await second.retry_after(account, client) is None
    await second.failed(account, client)
    wait = await first.retry_after(account, client)
    assert wait is not None and 0 < wait <= 15 * 60
    down = settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/0"})
    unreachable = LoginThrottle.from_settings(down, RateLimiter.from_settings(down).storage)
    await unreachable.failed(account, client)
    assert await unreachable.retry_after(account, client) is None
