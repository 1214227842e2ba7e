"""Issue 30's scope model, through real HTTP with real keys and console sessions: every role
against every scope-guarded endpoint, by session and by a key the role made on the Keys page;
keys never carry more than their creator's role does now; webhooks need webhook scopes; who
reviews or records a manual result is the caller, never the body, and is stored encrypted."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI
from sqlalchemy import String, Text, cast, or_, select, update
from sqlalchemy.types import JSON

from hakiki.account import service as accounts
from hakiki.console.roles import ROLES, SCOPES
from hakiki.console.tables import console_users
from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.endpoints import CATALOGUE, Endpoint
from hakiki.core.runtime import Runtime
from hakiki.core.scopes import ALL_SCOPES, DEFAULT_SCOPES
from hakiki.tables import metadata
from tests.background.helpers import candidate, open_form, post_form, status_becomes
from tests.background.test_personal_data import FORM, PDF
from tests.conftest import AccountFactory, unique
from tests.console.conftest import UserFactory
from tests.console.helpers import ConsoleUser, browser, signed_in
from tests.support.consent import CONSENT

REVIEWS = "/v3/account/screening-reviews"
WEBHOOKS = "/v3/account/webhooks"
UNKNOWN_RESULT = "/v3/background/candidates/bgr_unknown/checks/criminal_record/result"
CLIENT_ID = re.compile(r'id="client-id">([^<]+)<')
SECRET = re.compile(r'id="secret">([^<]+)<')
REVIEW = {
    "subject_key": "5" * 64,
    "list_code": "sandbox_sanction",
    "entity_id": "sbx-s-1",
    "entity_fingerprint": "sandbox",
    "decision": "false_positive",
    "reason": "Different date of birth",
}


def _guarded() -> list[Endpoint]:
    """One endpoint per scope (its first in the catalogue), unsafe methods first: the scope is
    checked before the body is read, so an empty body tells a 403 from anything else."""
    chosen: dict[str, Endpoint] = {}
    for endpoint in sorted(CATALOGUE.values(), key=lambda e: e.method == "GET"):
        if endpoint.scope is not None:
            chosen.setdefault(endpoint.scope, endpoint)
    return [chosen[scope] for scope in ALL_SCOPES if scope in chosen]


GUARDED = _guarded()


async def _call(http: httpx.AsyncClient, endpoint: Endpoint, headers: dict[str, str]) -> int:
    path = re.sub(r"\{[^}]+\}", "unknown", endpoint.path)
    body = None if endpoint.method in ("GET", "DELETE") else {}
    answer = await http.request(endpoint.method, path, json=body, headers=headers)
    if answer.status_code == 403:
        assert answer.json()["error"] == "insufficient_scope", answer.text
        assert endpoint.scope in answer.json()["message"] or "role" in answer.json()["message"]
    return answer.status_code


async def _key_of(http: httpx.AsyncClient, csrf: str) -> dict[str, str]:
    """A sandbox key made on the Keys page; its Authorization header."""
    made = await http.post("/console/keys", data={"csrf": csrf, "environment": "sandbox"})
    assert made.status_code == 200, made.text
    client_id = CLIENT_ID.search(made.text)
    secret = SECRET.search(made.text)
    assert client_id and secret, made.text
    return {"Authorization": f"Bearer {client_id.group(1)}:{secret.group(1)}"}


@pytest_asyncio.fixture
async def visitor(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as http:
        yield http


def test_every_scope_guards_an_endpoint() -> None:
    # account:admin too since issue 40: the consent records and the audit log.
    assert {e.scope for e in GUARDED} == set(ALL_SCOPES)


@pytest.mark.parametrize("role", ROLES)
async def test_role_matrix_by_session_and_by_the_roles_key(
    app: FastAPI, make_user: UserFactory, role: str
) -> None:
    """Each role's session, and a key the role made, against each scope: 403
    insufficient_scope exactly where the role (or the key it made) lacks the scope."""
    user = await make_user(role)
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        session = {"X-CSRF-Token": csrf}
        key = await _key_of(http, csrf) if role in ("owner", "admin", "developer") else None
        for endpoint in GUARDED:
            status = await _call(http, endpoint, session)
            runs_calls = role != "viewer" or endpoint.method == "GET"
            allowed = endpoint.scope in SCOPES[role] and runs_calls
            assert (status != 403) == allowed, (role, endpoint.key, status)
            if key is None:
                continue
            status = await _call(http, endpoint, key)
            # A key holds the default scopes its creator's role holds, never more.
            allowed = endpoint.scope in DEFAULT_SCOPES and endpoint.scope in SCOPES[role]
            assert (status != 403) == allowed, (role, "key", endpoint.key, status)


async def test_a_developers_key_cannot_review_or_record_results(
    app: FastAPI, client: httpx.AsyncClient, make_user: UserFactory
) -> None:
    """Finding 4: the developer's key made on the Keys page held screening:write and
    background:review (201 and 404 on main); now it holds the developer's scopes only."""
    developer = await make_user("developer")
    async with browser(app) as http:
        csrf = await signed_in(http, developer)
        key = await _key_of(http, csrf)
        page = await http.get("/console/keys")
    assert "screening:write" not in page.text and "background:review" not in page.text
    review = await client.post(REVIEWS, json=REVIEW, headers=key)
    result = await client.post(UNKNOWN_RESULT, json={"result": "clear"}, headers=key)
    for refused, scope in ((review, "screening:write"), (result, "background:review")):
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"] == "insufficient_scope"
        assert scope in refused.json()["message"]


async def test_a_key_follows_its_creators_role_and_dies_with_their_access(
    app: FastAPI, client: httpx.AsyncClient, db: Database, make_user: UserFactory
) -> None:
    """Lowered to developer, an owner's key stops reviewing; their account disabled, it is 401."""
    owner = await make_user("owner")
    async with browser(app) as http:
        key = await _key_of(http, await signed_in(http, owner))
    assert (await client.post(REVIEWS, json=REVIEW, headers=key)).status_code == 201
    await _set_user(db, owner, role="developer")
    lowered = await client.post(REVIEWS, json=REVIEW, headers=key)
    assert lowered.status_code == 403 and lowered.json()["error"] == "insufficient_scope"
    assert (await client.get("/v3/background/candidates", headers=key)).status_code == 200
    await _set_user(db, owner, disabled_at=utcnow())
    gone = await client.get("/v3/background/candidates", headers=key)
    assert gone.status_code == 401
    assert "creator no longer belongs" in gone.json()["message"]


async def _set_user(db: Database, user: ConsoleUser, **values: object) -> None:
    async with transaction(db) as conn:
        await conn.execute(
            update(console_users)
            .where(console_users.c.org_id == user.org_id)
            .values(**values)  # the organisation's only user
        )


async def test_a_read_only_key_cannot_manage_webhooks(
    client: httpx.AsyncClient, db: Database, make_account: AccountFactory
) -> None:
    """Finding 8: a background:read key created, rotated and deleted endpoints and got the new
    secret (201, 200, 204 on main)."""
    full = await make_account()
    made = await client.post(
        WEBHOOKS, json={"url": "https://hooks.example.com/h"}, headers=full.headers
    )
    assert made.status_code == 201, made.text  # a default key still manages them
    endpoint = made.json()["id"]
    narrow = await accounts.create_key(db, full.org_name, "sandbox", ["background:read"])
    reader = {"Authorization": f"Bearer {narrow.client_id}:{narrow.secret}"}
    for method, path, body in (
        ("POST", WEBHOOKS, {"url": "https://hooks.example.com/x"}),
        ("POST", f"{WEBHOOKS}/{endpoint}/rotate-secret", {}),
        ("DELETE", f"{WEBHOOKS}/{endpoint}", None),
        ("GET", WEBHOOKS, None),
    ):
        refused = await client.request(method, path, json=body, headers=reader)
        assert refused.status_code == 403, (method, path, refused.text)
        assert refused.json()["error"] == "insufficient_scope"
        assert "webhooks:" in refused.json()["message"]
    still = await client.get(f"{WEBHOOKS}/{endpoint}", headers=full.headers)
    assert still.status_code == 200 and "secret" not in still.json()


async def test_the_reviewer_is_the_caller_never_the_body(
    app: FastAPI, make_user: UserFactory, runtime: Runtime, db: Database
) -> None:
    """Finding 10: an analyst recorded a review as the owner (201 with the body's name on
    main); now the body's reviewer is a 400 and the review names the signed-in analyst."""
    owner = await make_user("owner")
    analyst = await make_user("analyst", org=owner)
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        headers = {"X-CSRF-Token": csrf}
        forged = await http.post(REVIEWS, json={**REVIEW, "reviewer": owner.email}, headers=headers)
        assert forged.status_code == 400
        assert forged.json()["details"][0]["field"] == "reviewer"
        assert "credentials" in forged.json()["message"]
        made = await http.post(REVIEWS, json=REVIEW, headers=headers)
        assert made.status_code == 201, made.text
        assert made.json()["reviewer"] == analyst.email
        listed = await http.get(REVIEWS, headers=headers)
    assert [r["reviewer"] for r in listed.json()["data"]] == [analyst.email]
    assert [r["reason"] for r in listed.json()["data"]] == [REVIEW["reason"]]
    # Finding 17: the reason and the reviewer's e-mail were in clear in screening_reviews.
    assert await stored_in_clear(runtime, db, [analyst.email, REVIEW["reason"]]) == []


async def test_a_manual_result_is_recorded_as_the_signed_in_analyst(
    app: FastAPI,
    make_user: UserFactory,
    visitor: httpx.AsyncClient,
    runtime: Runtime,
    db: Database,
) -> None:
    """Finding 10: the manual form's analyst came from the body; now it is the session's user
    (and a body naming one is a 400), stored encrypted, and left off the clear timeline."""
    owner = await make_user("owner")
    analyst = await make_user("analyst", org=owner)
    async with browser(app) as http:
        headers = {"X-CSRF-Token": await signed_in(http, analyst)}
        person = candidate(email=f"{unique('cand')}@example.com")
        made = await http.post(
            "/v3/background/candidates",
            json={"package_id": "spk_ke_driver", "consent": CONSENT, "candidates": [person]},
            headers=headers,
        )
        assert made.status_code == 201, made.text
        request = made.json()["data"]["requests"][0]
        _page, form_csrf = await open_form(visitor, request["invitation_url"])
        files = {"police_clearance": ("pcc.pdf", PDF, "application/pdf")}
        submitted = await post_form(visitor, request["invitation_url"], form_csrf, FORM, files)
        assert submitted.status_code == 200
        await status_becomes(http, headers, request["reference"], "in_progress")
        url = f"/v3/background/candidates/{request['reference']}/checks/criminal_record/result"
        verdict = {"result": "clear", "evidence": {"certificate": "DCI-1"}}
        forged = await http.post(url, json={**verdict, "analyst": owner.email}, headers=headers)
        assert forged.status_code == 400 and forged.json()["details"][0]["field"] == "analyst"
        recorded = await http.post(url, json=verdict, headers=headers)
    assert recorded.status_code == 200, recorded.text
    check = next(c for c in recorded.json()["data"]["checks"] if c["code"] == "criminal_record")
    assert check["recorded_by"] == analyst.email
    assert all(analyst.email not in e["detail"] for e in recorded.json()["data"]["timeline"])
    assert await stored_in_clear(runtime, db, [analyst.email]) == []


async def stored_in_clear(runtime: Runtime, db: Database, values: list[str]) -> list[str]:
    """Where each value appears in clear: the SQLite files (and WAL), or on PostgreSQL every
    text and JSON column of every table."""
    found: list[str] = []
    if runtime.settings.is_sqlite:
        base = Path(runtime.settings.resolved_database_url.split("///", 1)[1])
        for path in (base, Path(f"{base}-wal")):
            if path.exists():
                data = path.read_bytes()
                found += [f"{path.name}: {v}" for v in values if v.encode() in data]
        return found
    async with read(db) as conn:
        for table in metadata.sorted_tables:
            columns = [c for c in table.columns if isinstance(c.type, (String, Text, JSON))]
            for value in values:
                if not columns:
                    continue
                query = select(table).where(or_(*(cast(c, Text).contains(value) for c in columns)))
                if (await conn.execute(query.limit(1))).first():
                    found.append(f"{table.name}: {value}")
    return found
