"""The console's Privacy page: the signed-in organisation's retention (its own policy shown as
set by it) and nobody else's; signed out, the login."""

from __future__ import annotations

from fastapi import FastAPI

from hakiki.account import service as accounts
from hakiki.core.database import Database
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in


async def test_the_page_shows_this_organisations_retention(
    app: FastAPI, db: Database, make_user: UserFactory
) -> None:
    user = await make_user("viewer")
    other = await make_user("viewer")
    key = await accounts.create_key(db, user.org_name, "sandbox")
    headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
    async with browser(app) as http:
        put = await http.put(
            "/v3/privacy/retention", json={"policies": {"webhooks": 17}}, headers=headers
        )
        assert put.status_code == 200, put.text
        await signed_in(http, user)
        page = await http.get("/console/privacy")
        assert page.status_code == 200
        assert "<td>webhooks</td><td>17</td><td>organisation</td>" in page.text
        assert "No purge of your data yet." in page.text
    async with browser(app) as http:
        await signed_in(http, other)
        page = await http.get("/console/privacy")
        assert "<td>webhooks</td><td>90</td><td>default</td>" in page.text
    async with browser(app) as http:
        assert (await http.get("/console/privacy")).status_code == 303
