"""The alert queue through a console session: the roles' scopes decide who reads and who acts
(issue 34), and the history names the signed-in user."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

ALERTS = "/v3/screening/alerts"


async def test_a_developer_reads_the_queue_an_analyst_resolves_a_viewer_sees_nothing(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    developer = await make_user("developer", org=analyst)
    viewer = await make_user("viewer", org=analyst)
    body = {"decision": "false_positive", "reason": "Different date of birth."}

    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        screened = await http.post(
            "/v3/screening/sanction",
            json={"name": "Sandbox Sanction Person"},
            headers={"X-CSRF-Token": csrf},
        )
        assert screened.status_code == 200, screened.text
        [alert] = (await http.get(ALERTS)).json()["data"]
    url = f"{ALERTS}/{alert['id']}/resolve"

    async with browser(app) as http:
        csrf = await signed_in(http, developer)
        assert (await http.get(f"{ALERTS}/{alert['id']}")).status_code == 200
        refused = await http.post(url, json=body, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 403 and refused.json()["error"] == "insufficient_scope"

    async with browser(app) as http:
        await signed_in(http, viewer)
        listed = await http.get(ALERTS)
    assert listed.status_code == 403 and listed.json()["error"] == "insufficient_scope"

    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        resolved = await http.post(url, json=body, headers={"X-CSRF-Token": csrf})
    assert resolved.status_code == 200, resolved.text
    assert resolved.json()["history"][-1]["actor"] == analyst.email
