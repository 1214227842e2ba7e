"""Invitations and password resets by e-mail: a one-use link, the same answer for unknown
addresses, sessions ended when the password changes; without SMTP, the form says so."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from hakiki.console.tables import console_links
from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from tests.background.conftest import Sink
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, csrf_of, sign_in, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

LINK = re.compile(r"(http://hakiki\.test/console/reset/[A-Za-z0-9_-]{43})")
NEW = "a brand new console password"


def _link(sink: Sink, address: str) -> str:
    messages = sink.to(address)
    assert len(messages) == 1, [m["Subject"] for m in sink.messages]
    found = LINK.search(Sink.text(messages[0]))
    assert found, Sink.text(messages[0])
    return found.group(1).removeprefix("http://hakiki.test")


async def _choose(http, path: str, password: str, repeat: str | None = None):  # type: ignore[no-untyped-def]
    form = await http.get(path)
    assert form.status_code == 200, form.text
    return await http.post(
        path, data={"csrf": csrf_of(form.text), "password": password, "repeat": repeat or password}
    )


async def test_an_invited_user_chooses_a_password_through_the_link(
    app: FastAPI, make_user: UserFactory, smtp: Sink
) -> None:
    owner = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        added = await http.post(
            "/console/users",
            data={"csrf": csrf, "email": "invited@lender.example", "role": "analyst"},
        )
    assert 'id="invited"' in added.text and "new-password" not in added.text
    path = _link(smtp, "invited@lender.example")
    async with browser(app) as http:
        assert (await sign_in(http, "invited@lender.example", NEW)).status_code == 401
        mismatch = await _choose(http, path, NEW, "something else entirely")
        assert mismatch.status_code == 400 and "same twice" in mismatch.text
        short = await _choose(http, path, "short")
        assert short.status_code == 400 and "at least 12" in short.text
        chosen = await _choose(http, path, NEW)
        assert chosen.status_code == 303 and chosen.headers["location"] == "/console/login"
        assert (await http.get(path)).status_code == 404  # spent
        assert (await sign_in(http, "invited@lender.example", NEW)).status_code == 303


async def test_a_reset_link_changes_the_password_and_ends_every_session(
    app: FastAPI, make_user: UserFactory, smtp: Sink
) -> None:
    user = await make_user("developer")
    async with browser(app) as old:
        await signed_in(old, user)
        async with browser(app) as http:
            page = await http.get("/console/reset")
            for address in (user.email, "nobody-here@lender.example"):
                answer = await http.post(
                    "/console/reset", data={"csrf": csrf_of(page.text), "email": address}
                )
                assert answer.status_code == 200
                page = answer  # each form carries a new token
                assert "If the address belongs to a console user" in answer.text
            assert smtp.to("nobody-here@lender.example") == []
            chosen = await _choose(http, _link(smtp, user.email), NEW)
            assert chosen.status_code == 303
        assert (await old.get("/console/")).status_code == 303  # signed out everywhere
        assert (await old.get("/v3/account/wallet")).status_code == 401
    async with browser(app) as http:
        assert (await sign_in(http, user.email, user.password)).status_code == 401
        assert (await sign_in(http, user.email, NEW)).status_code == 303


async def test_an_expired_or_forged_link_does_nothing(
    app: FastAPI, db: Database, make_user: UserFactory, smtp: Sink
) -> None:
    user = await make_user("viewer")
    async with browser(app) as http:
        form = await http.get("/console/reset")
        await http.post("/console/reset", data={"csrf": csrf_of(form.text), "email": user.email})
        no_csrf = await http.post("/console/reset", data={"email": user.email})
        assert no_csrf.status_code == 403
        path = _link(smtp, user.email)
        async with transaction(db) as conn:
            await conn.execute(
                update(console_links)
                .where(console_links.c.used_at.is_(None), console_links.c.purpose == "reset")
                .values(expires_at=utcnow() - timedelta(seconds=1))
            )
        assert (await http.get(path)).status_code == 404
        assert (await http.get("/console/reset/" + "A" * 43)).status_code == 404
        assert (await http.get("/console/reset/x")).status_code == 404


async def test_without_smtp_the_reset_form_says_no_mail_is_sent(app: FastAPI) -> None:
    async with browser(app) as http:
        form = await http.get("/console/reset")
        assert "sends no e-mail" in form.text
        answer = await http.post(
            "/console/reset",
            data={"csrf": http.cookies["hakiki_console_reset"], "email": "a@lender.example"},
        )
    assert answer.status_code == 503
