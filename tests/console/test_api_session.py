"""The API accepts a console session: the role's scopes, the environment chosen in the
console, and X-CSRF-Token on unsafe methods; API keys work as before."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from tests.conftest import AccountFactory
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCREEN = "/v3/screening/aml-with-id"
NOT_FOUND = {"channel": "bvn", "number": "22222222205"}  # sandbox: last digit 5, not found


async def test_the_session_cookie_authenticates_api_calls(
    app: FastAPI, make_user: UserFactory
) -> None:
    user = await make_user("developer", balance=1234)
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        wallet = await http.get("/v3/account/wallet")
        assert wallet.status_code == 200
        assert wallet.json()["balance"] == 1234
        assert "ratelimit-limit" in wallet.headers  # counted like a key's calls
        values = await http.get("/v3/sandbox/test-values")  # sandbox by default
        assert values.status_code == 200
        screened = await http.post(SCREEN, json=NOT_FOUND, headers={"X-CSRF-Token": csrf})
    assert screened.status_code == 200, screened.text
    assert screened.json()["status"] == "NOT_FOUND"


@pytest.mark.parametrize("token", [None, "", "0" * 64, "wrong"])
async def test_an_unsafe_call_without_the_csrf_token_is_refused(
    app: FastAPI, make_user: UserFactory, token: str | None
) -> None:
    user = await make_user("owner")
    headers = {} if token is None else {"X-CSRF-Token": token}
    async with browser(app) as http:
        await signed_in(http, user)
        answer = await http.post(SCREEN, json=NOT_FOUND, headers=headers)
    assert answer.status_code == 403
    assert answer.json()["error"] == "csrf_failed"


async def test_a_viewer_reads_but_makes_no_call(app: FastAPI, make_user: UserFactory) -> None:
    user = await make_user("viewer")
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        assert (await http.get("/v3/account/wallet")).status_code == 200
        answer = await http.post(SCREEN, json=NOT_FOUND, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 403
    assert answer.json()["error"] == "insufficient_scope"


async def test_a_garbage_or_unknown_cookie_is_a_401(app: FastAPI) -> None:
    async with browser(app) as http:
        for value in ("x", "A" * 43, "A" * 5000):
            http.cookies.set("hakiki_session", value)
            answer = await http.get("/v3/account/wallet")
            assert answer.status_code == 401
            assert answer.json()["error"] == "unauthorized"


async def test_an_api_key_wins_over_a_cookie(
    app: FastAPI, make_user: UserFactory, make_account: AccountFactory
) -> None:
    user = await make_user("owner", balance=5)
    account = await make_account(balance=77)
    async with browser(app) as http:
        await signed_in(http, user)
        answer = await http.get("/v3/account/wallet", headers=account.headers)
        # An unsafe call with a key needs no CSRF token: keys are not sent by browsers.
        screened = await http.post(SCREEN, json=NOT_FOUND, headers=account.headers)
    assert answer.json()["balance"] == 77
    assert screened.status_code == 200


async def test_live_only_for_an_approved_organisation(app: FastAPI, make_user: UserFactory) -> None:
    pending = await make_user("owner", approved=False)
    approved = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, pending)
        answer = await http.post("/console/environment", data={"csrf": csrf, "environment": "live"})
        assert answer.status_code == 403
        assert (await http.get("/v3/sandbox/test-values")).status_code == 200  # still sandbox
    async with browser(app) as http:
        csrf = await signed_in(http, approved)
        answer = await http.post(
            "/console/environment",
            data={"csrf": csrf, "environment": "live", "next": "/console/keys"},
        )
        assert answer.status_code == 303
        assert answer.headers["location"] == "/console/keys"
        # Test values are a sandbox thing: a live caller gets 404.
        assert (await http.get("/v3/sandbox/test-values")).status_code == 404
        elsewhere = await http.post(
            "/console/environment",
            data={"csrf": csrf, "environment": "sandbox", "next": "//evil.example/"},
        )
        assert elsewhere.headers["location"] == "/console/"


async def test_a_developer_cannot_review_hits_an_analyst_can(
    app: FastAPI, make_user: UserFactory
) -> None:
    review = {
        "subject_key": "5" * 64,
        "list_code": "sandbox_sanction",
        "entity_id": "sbx-s-1",
        "entity_fingerprint": "sandbox",
        "decision": "false_positive",
        "reason": "Different date of birth",
    }
    developer = await make_user("developer")
    analyst = await make_user("analyst", org=developer)
    answers = []
    for user in (developer, analyst):
        async with browser(app) as http:
            csrf = await signed_in(http, user)
            answers.append(
                await http.post(
                    "/v3/account/screening-reviews", json=review, headers={"X-CSRF-Token": csrf}
                )
            )
    assert answers[0].status_code == 403
    assert answers[0].json()["error"] == "insufficient_scope"
    assert answers[1].status_code == 201, answers[1].text


async def test_a_developer_cannot_record_a_manual_check_result_an_analyst_can(
    app: FastAPI, make_user: UserFactory
) -> None:
    """background:review, not background:write: the scope is checked before the reference is
    looked up, so the developer's 403 and the analyst's 404 (no such request) tell them apart."""
    result = {"result": "clear", "notes": "Certificate seen; genuine."}
    url = "/v3/background/candidates/bgr_unknown/checks/criminal_record/result"
    developer = await make_user("developer")
    analyst = await make_user("analyst", org=developer)
    answers = []
    for user in (developer, analyst):
        async with browser(app) as http:
            csrf = await signed_in(http, user)
            answers.append(await http.post(url, json=result, headers={"X-CSRF-Token": csrf}))
    assert answers[0].status_code == 403
    assert answers[0].json()["error"] == "insufficient_scope"
    assert answers[1].status_code in (400, 404), answers[1].text
    assert answers[1].json()["error"] != "insufficient_scope"
