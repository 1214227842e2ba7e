"""The console's accounts under attack (issue 30): links in mail only to the configured address,
reset requests that lock nobody out, racing submissions of one invitation, the reset answer
sent before any look-up or mail, argon2 off the event loop, a second factor that a session
alone cannot replace, and staff addresses kept out of the throttle's store and the logs."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from types import FrameType
from typing import Any
from urllib.parse import urlencode

import httpx
import pyotp
import pytest
import redis.asyncio as redis
from fastapi import FastAPI
from sqlalchemy import func, literal_column, select, text

from hakiki.console.throttle import LoginThrottle
from hakiki.core.rate_limit import RateLimiter
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings
from tests.background.conftest import Sink
from tests.conftest import REDIS_URL, require_redis
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, csrf_of, sign_in, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

LINK = re.compile(r"(https?://[^/\s]+)(/console/reset/[A-Za-z0-9_-]{43})")
SECRET = re.compile(r'<code id="totp-secret">([A-Z2-7]{32})</code>')


def _link(sink: Sink, address: str) -> tuple[str, str]:
    """(base, path) of the one link mailed to ``address``."""
    [message] = sink.to(address)
    found = LINK.search(Sink.text(message))
    assert found, Sink.text(message)
    return found.group(1), found.group(2)


async def _ask_reset(http: httpx.AsyncClient, address: str) -> httpx.Response:
    form = await http.get("/console/reset")
    csrf = http.cookies.get("hakiki_console_reset") or csrf_of(form.text)
    return await http.post("/console/reset", data={"csrf": csrf, "email": address})


async def test_a_reset_asked_through_a_forged_host_mails_no_link(
    app: FastAPI,
    runtime: Runtime,
    make_user: UserFactory,
    smtp: Sink,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(runtime.settings, "console_base_url", None)
    user = await make_user("owner")
    caplog.set_level(logging.ERROR, logger="hakiki.console")
    async with browser(app, "http://evil.example") as http:
        form = await http.get("/console/reset")
        assert "HAKIKI_CONSOLE_BASE_URL" in form.text and 'id="reset-email"' not in form.text
        answer = await _ask_reset(http, user.email)
    assert answer.status_code == 503 and "HAKIKI_CONSOLE_BASE_URL" in answer.text
    assert smtp.to(user.email) == []
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "HAKIKI_CONSOLE_BASE_URL is not set" in logged and "'evil.example'" in logged


@pytest.mark.parametrize(
    ("configured", "host", "base"),
    [
        (
            "https://console.lender.example/",
            "http://evil.example",
            "https://console.lender.example",
        ),
        (None, "http://localhost:8000", "http://localhost:8000"),
        (None, "http://127.0.0.1:8000", "http://127.0.0.1:8000"),
    ],
)
async def test_mailed_links_point_at_the_configured_or_loopback_address(
    app: FastAPI,
    runtime: Runtime,
    make_user: UserFactory,
    smtp: Sink,
    monkeypatch: pytest.MonkeyPatch,
    configured: str | None,
    host: str,
    base: str,
) -> None:
    monkeypatch.setattr(runtime.settings, "console_base_url", configured)
    user = await make_user("viewer")
    async with browser(app, host) as http:
        assert (await _ask_reset(http, user.email)).status_code == 200
    assert _link(smtp, user.email)[0] == base


async def test_an_invitation_through_a_forged_host_is_not_mailed(
    app: FastAPI,
    runtime: Runtime,
    make_user: UserFactory,
    smtp: Sink,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "console_base_url", None)
    owner = await make_user("owner")
    address = f"invitee-{owner.org_id}@lender.example"
    async with browser(app, "http://evil.example") as http:
        csrf = await signed_in(http, owner)
        added = await http.post(
            "/console/users", data={"csrf": csrf, "email": address, "role": "analyst"}
        )
    assert added.status_code == 200, added.text
    assert 'id="no-invite"' in added.text and "HAKIKI_CONSOLE_BASE_URL" in added.text
    assert 'id="new-password"' in added.text  # shown once to the owner instead
    assert smtp.to(address) == []


async def test_reset_requests_are_throttled_but_lock_nobody_out(
    app: FastAPI, make_user: UserFactory, smtp: Sink
) -> None:
    user = await make_user("analyst")
    async with browser(app) as http:
        answers = [(await _ask_reset(http, user.email)).status_code for _ in range(6)]
    assert answers == [200] * 5 + [429]
    assert len(smtp.to(user.email)) == 5
    async with browser(app) as http:
        assert (await sign_in(http, user.email, user.password)).status_code == 303


async def test_racing_submissions_of_one_invitation_set_one_password(
    app: FastAPI, make_user: UserFactory, smtp: Sink
) -> None:
    owner = await make_user("owner")
    address = f"racer-{owner.org_id}@lender.example"
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        data = {"csrf": csrf, "email": address, "role": "analyst"}
        assert (await http.post("/console/users", data=data)).status_code == 200
    path = _link(smtp, address)[1]
    clients = [browser(app) for _ in range(4)]
    forms = [await http.get(path) for http in clients]
    chosen = [f"racing password number {n}" for n in range(4)]

    async def submit(http: httpx.AsyncClient, form: httpx.Response, password: str) -> Any:
        data = {"csrf": csrf_of(form.text), "password": password, "repeat": password}
        return await http.post(path, data=data)

    answers = await asyncio.gather(*map(submit, clients, forms, chosen))
    for http in clients:
        await http.aclose()
    assert sorted(a.status_code for a in answers) == [303, 404, 404, 404]
    [winner] = [p for p, a in zip(chosen, answers, strict=True) if a.status_code == 303]
    async with browser(app) as http:
        assert (await sign_in(http, address, winner)).status_code == 303


async def _post_raw(app: FastAPI, path: str, form: dict[str, str], cookie: str, sink: Sink) -> Any:
    """POST ``form`` to the app as a server would hand it over; how many messages the SMTP
    sink had received when the answer's last byte was sent, the status, and the body."""
    body = urlencode(form).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"hakiki.test"),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
            (b"cookie", cookie.encode()),
        ],
        "client": ("10.99.0.1", 40000),
        "server": ("hakiki.test", 80),
    }
    sent = False
    seen: dict[str, Any] = {"body": b""}
    before = len(sink.messages)

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            seen["status"] = message["status"]
        elif message["type"] == "http.response.body":
            seen["body"] += message.get("body", b"")
            if not message.get("more_body") and "mails" not in seen:
                seen["mails"] = len(sink.messages) - before

    await app(scope, receive, send)
    return seen


async def test_the_reset_answer_goes_out_before_any_look_up_or_mail(
    app: FastAPI, make_user: UserFactory, smtp: Sink
) -> None:
    user = await make_user("developer")
    answers = []
    for address in (user.email, "nobody-at-all@lender.example"):
        async with browser(app) as http:
            await http.get("/console/reset")
            csrf = http.cookies["hakiki_console_reset"]
        cookie = f"hakiki_console_reset={csrf}"
        answers.append(
            await _post_raw(app, "/console/reset", {"csrf": csrf, "email": address}, cookie, smtp)
        )
    assert [a["status"] for a in answers] == [200, 200]
    assert [a["mails"] for a in answers] == [0, 0]  # nothing mailed when the answer was sent
    assert len(smtp.to(user.email)) == 1  # afterwards, the user's link
    assert smtp.to("nobody-at-all@lender.example") == []


def _argon2_on_this_thread(calls: list[str]) -> Any:
    def profile(frame: FrameType, event: str, _arg: object) -> None:
        code = frame.f_code
        if event == "call" and "argon2" in code.co_filename:
            calls.append(code.co_name)

    return profile


async def test_passwords_are_hashed_and_checked_off_the_event_loop(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("analyst")  # hashed before the watch begins
    on_loop: list[str] = []
    sys.setprofile(_argon2_on_this_thread(on_loop))  # this thread runs the app's event loop
    try:
        async with browser(app) as http:
            signing_in = asyncio.create_task(sign_in(http, user.email, user.password))
            unknown = asyncio.create_task(sign_in(http, "nobody@lender.example", user.password))
            meanwhile = await http.get("/healthz")
            assert (await signing_in).status_code == 303  # verified: in another thread
            assert (await unknown).status_code == 401  # the dummy hash, also elsewhere
    finally:
        sys.setprofile(None)
    assert meanwhile.status_code == 200
    assert on_loop == []


async def test_a_session_alone_cannot_replace_the_second_factor(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        started = await http.post("/console/security/totp", data={"csrf": csrf})
        first = SECRET.search(started.text)
        assert first
        code = pyotp.TOTP(first.group(1)).now()
        data = {"csrf": csrf, "secret": first.group(1), "code": code}
        assert (await http.post("/console/security/totp/confirm", data=data)).status_code == 303
        # Whoever holds the session (a stolen cookie) tries to put their own app in its place.
        again = await http.post("/console/security/totp", data={"csrf": csrf})
        assert again.status_code == 409 and "turn it off first" in again.text
        theirs = pyotp.random_base32()
        swap = {"csrf": csrf, "secret": theirs, "code": pyotp.TOTP(theirs).now()}
        replaced = await http.post("/console/security/totp/confirm", data=swap)
        assert replaced.status_code == 409 and "turn it off first" in replaced.text
    async with browser(app) as http:
        form = await http.get("/console/login")
        data = {"csrf": csrf_of(form.text), "email": user.email, "password": user.password}
        theirs_code = await http.post("/console/login", data={**data, "code": swap["code"]})
        assert theirs_code.status_code == 401


async def _stored_in_clear(runtime: Runtime, value: str) -> list[str]:
    """Where ``value`` is stored as it is: the SQLite files of the data folder, or every text
    column of every PostgreSQL table."""
    needle = value.lower()
    if runtime.settings.is_sqlite:
        files = [p for p in runtime.settings.data_dir.rglob("hakiki.db*") if p.is_file()]
        assert files
        return [p.name for p in files if needle.encode() in p.read_bytes().lower()]
    found = []
    async with runtime.db.reader.connect() as conn:
        columns = await conn.execute(
            text(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = 'public' AND data_type IN"
                " ('text', 'character varying', 'json', 'jsonb')"
            )
        )
        for table, column in columns.all():
            hit = (
                select(literal_column("1"))
                .select_from(text(f'"{table}"'))
                .where(func.lower(literal_column(f'"{column}"::text')).contains(needle))
            )
            if (await conn.execute(hit.limit(1))).first():
                found.append(f"{table}.{column}")
    return found


async def test_staff_addresses_are_stored_hashed_and_stay_out_of_the_logs(
    app: FastAPI,
    runtime: Runtime,
    settings: Settings,
    make_user: UserFactory,
    smtp: Sink,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    require_redis()
    shared = settings.model_copy(update={"redis_url": REDIS_URL})
    storage = RateLimiter.from_settings(shared).storage
    for kind in [k for k in runtime.parts if isinstance(k, type) and issubclass(k, LoginThrottle)]:
        monkeypatch.setitem(runtime.parts, kind, kind.from_settings(shared, storage))
    user = await make_user("owner")
    bounced = await make_user("viewer", org=user)
    invited = f"invited-{user.org_id}@lender.example"
    smtp.refused.add(bounced.email)
    caplog.set_level(logging.INFO)
    async with browser(app) as http:
        assert (await sign_in(http, user.email, "not the password at all")).status_code == 401
        assert (await _ask_reset(http, user.email)).status_code == 200
        assert (await _ask_reset(http, bounced.email)).status_code == 200
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        data = {"csrf": csrf, "email": invited, "role": "analyst"}
        assert (await http.post("/console/users", data=data)).status_code == 200
    assert len(smtp.to(user.email)) == 1 and len(smtp.to(invited)) == 1
    assert await _stored_in_clear(runtime, user.org_name)  # the scan sees what is in clear
    for address in (user.email, bounced.email, invited):  # every table, the files too
        assert await _stored_in_clear(runtime, address) == [], address
    ours = "\n".join(  # the app's records, tracebacks included (not the SMTP sink's)
        caplog.handler.format(r) for r in caplog.records if r.name.startswith("hakiki")
    )
    assert "could not be sent: SMTPRecipientsRefused" in ours  # logged, unnamed
    assert bounced.email not in ours and user.email not in ours
    store = redis.from_url(REDIS_URL)
    try:
        keys = [key.decode() async for key in store.scan_iter(match="*console-*")]
    finally:
        await store.aclose()
    assert any("console-login" in k for k in keys) and any("console-reset" in k for k in keys)
    assert not [k for k in keys if user.email in k or bounced.email in k]
