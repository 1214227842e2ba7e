"""The console's verification sessions page: the signed-in organisation's sessions with each
step's result and evidence, another organisation's never; no image on the page."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from hakiki.account import service as accounts
from hakiki.core.database import Database
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in
from tests.verification.helpers import create
from tests.verification.test_sessions import _run


async def test_the_page_shows_each_step_and_only_this_organisations_sessions(
    app: FastAPI, db: Database, make_user: UserFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = await make_user("viewer")
    other = await make_user("viewer")
    key = await accounts.create_key(db, user.org_name, "sandbox")
    headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
    async with browser(app) as http:
        session = await create(http, headers, "console-cust+liveness_fail")
        await _run(http, monkeypatch, session["url"])
        await signed_in(http, user)
        page = await http.get("/console/verification-sessions")
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert session["id"] in page.text and "console-cust+liveness_fail" in page.text
        assert "selfie_liveness</strong>: failed" in page.text
        assert "<img" not in page.text
    async with browser(app) as http:
        await signed_in(http, other)
        page = await http.get("/console/verification-sessions")
        assert session["id"] not in page.text
    async with browser(app) as http:
        assert (await http.get("/console/verification-sessions")).status_code == 303
