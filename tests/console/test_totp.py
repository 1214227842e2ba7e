"""The optional TOTP second factor: turned on with a code from the app, then asked at every
sign-in (a missing or wrong code is the same refusal as a wrong password), turned off with a
current code."""

from __future__ import annotations

import re

import pyotp
import pytest
from fastapi import FastAPI

from tests.console.conftest import UserFactory
from tests.console.helpers import browser, csrf_of, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

SECRET = re.compile(r'<code id="totp-secret">([A-Z2-7]{32})</code>')


async def _sign_in(http, user, code: str | None):  # type: ignore[no-untyped-def]
    form = await http.get("/console/login")
    data = {"csrf": csrf_of(form.text), "email": user.email, "password": user.password}
    if code is not None:
        data["code"] = code
    return await http.post("/console/login", data=data)


async def test_a_user_turns_on_totp_and_then_signs_in_with_a_code(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("analyst")
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        started = await http.post("/console/security/totp", data={"csrf": csrf})
        secret = SECRET.search(started.text)
        assert secret and "otpauth://totp/Hakiki:" in started.text
        wrong = await http.post(
            "/console/security/totp/confirm",
            data={"csrf": csrf, "secret": secret.group(1), "code": "000000"},
        )
        assert wrong.status_code == 400 and "does not match" in wrong.text
        forged = await http.post(
            "/console/security/totp/confirm",
            data={"csrf": csrf, "secret": "short", "code": "000000"},
        )
        assert forged.status_code == 400
        code = pyotp.TOTP(secret.group(1)).now()
        confirmed = await http.post(
            "/console/security/totp/confirm",
            data={"csrf": csrf, "secret": secret.group(1), "code": code},
        )
        assert confirmed.status_code == 303
        assert "On: signing in asks" in (await http.get("/console/security")).text
    totp = pyotp.TOTP(secret.group(1))
    async with browser(app) as http:
        assert (await _sign_in(http, user, None)).status_code == 401
        refused = await _sign_in(http, user, "123456" if totp.now() != "123456" else "654321")
        assert refused.status_code == 401
        assert "password or authentication code is not right" in refused.text
        assert (await _sign_in(http, user, totp.now())).status_code == 303
        csrf = csrf_of((await http.get("/console/security")).text)
        kept = await http.post("/console/security/totp/disable", data={"csrf": csrf, "code": "abc"})
        assert kept.status_code == 400
        off = await http.post(
            "/console/security/totp/disable", data={"csrf": csrf, "code": totp.now()}
        )
        assert off.status_code == 303
    async with browser(app) as http:
        assert (await _sign_in(http, user, None)).status_code == 303  # back to one factor


async def test_the_secret_is_stored_encrypted(app: FastAPI, make_user: UserFactory) -> None:
    from sqlalchemy import select

    from hakiki.console.tables import console_users

    user = await make_user("viewer")
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        secret = SECRET.search(
            (await http.post("/console/security/totp", data={"csrf": csrf})).text
        )
        assert secret
        code = pyotp.TOTP(secret.group(1)).now()
        await http.post(
            "/console/security/totp/confirm",
            data={"csrf": csrf, "secret": secret.group(1), "code": code},
        )
    async with app.state.runtime.db.reader.connect() as conn:
        rows = (await conn.execute(select(console_users.c.totp_encrypted))).scalars().all()
    assert all(secret.group(1) not in (r or "") for r in rows)
    assert any(r and r.startswith("v1.") for r in rows)


async def test_a_code_signs_in_once_and_an_earlier_one_never_after_it(
    app: FastAPI, make_user: UserFactory
) -> None:
    """Someone who saw a code (over a shoulder, in a phishing proxy) cannot sign in with it
    again, nor with the code before it, once a later code has signed in."""
    import time

    user = await make_user("analyst")
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        started = await http.post("/console/security/totp", data={"csrf": csrf})
        secret = SECRET.search(started.text)
        assert secret
        totp = pyotp.TOTP(secret.group(1))
        confirm = {"csrf": csrf, "secret": secret.group(1), "code": totp.now()}
        assert (await http.post("/console/security/totp/confirm", data=confirm)).status_code == 303
    now = time.time()
    current, following = totp.at(now), totp.at(now + totp.interval)
    async with browser(app) as http:
        assert (await _sign_in(http, user, current)).status_code == 303
    async with browser(app) as http:
        assert (await _sign_in(http, user, current)).status_code == 401  # replayed
    async with browser(app) as http:
        assert (await _sign_in(http, user, following)).status_code == 303  # the next step
    async with browser(app) as http:
        assert (await _sign_in(http, user, current)).status_code == 401  # earlier than used
