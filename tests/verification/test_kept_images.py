"""Keeping a session's images for review (issue 37), on both databases: off by default (a
submission keeps nothing), an owner's key opts in with a retention period through
PUT /v3/account/verification-settings, the next submission's document photo and liveness
frames are kept sealed, an analyst sees them on the console's sessions page (a viewer does
not, another organisation never), and housekeeping deletes them when the period ends."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from hakiki.account import service as accounts
from hakiki.core import clock
from hakiki.core.database import Database, read
from hakiki.verification import images
from hakiki.verification.tables import verification_images
from tests.conftest import AccountFactory
from tests.console.conftest import UserFactory
from tests.console.conftest import make_user as make_user  # the fixture
from tests.console.helpers import browser, signed_in
from tests.verification.helpers import create
from tests.verification.test_sessions import _run

SETTINGS = "/v3/account/verification-settings"


async def _kept(db: Database, session_id: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(verification_images).where(verification_images.c.session_id == session_id)
        )
        return [dict(r._mapping) for r in rows]


async def test_settings_default_off_and_need_an_admin_key(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    plain = await make_account()  # the default scopes: no account:admin
    shown = await client.get(SETTINGS, headers=plain.headers)
    assert shown.status_code == 200, shown.text
    assert shown.json()["keep_images"] is False and shown.json()["updated_at"] is None
    refused = await client.put(SETTINGS, json={"keep_images": True}, headers=plain.headers)
    assert refused.status_code == 403
    owner = await make_account(scopes=["account:admin", "verification:read"])
    for bad in ({"keep_images": True, "retention_days": 0}, {"keep_images": "yes"},
                {"keep_images": True, "retention_days": 366}, {"retention_days": 5}):  # fmt: skip
        answer = await client.put(SETTINGS, json=bad, headers=owner.headers)
        assert answer.status_code == 400, (bad, answer.text)
    made = await client.put(
        SETTINGS, json={"keep_images": True, "retention_days": 7}, headers=owner.headers
    )
    assert made.status_code == 200, made.text
    assert (made.json()["keep_images"], made.json()["retention_days"]) == (True, 7)
    assert made.json()["updated_by"] == owner.client_id
    again = await client.get(SETTINGS, headers=owner.headers)
    assert again.json() == made.json()
    # another organisation's setting is its own
    assert (await client.get(SETTINGS, headers=plain.headers)).json()["keep_images"] is False


async def test_images_are_kept_only_when_opted_in_shown_to_analysts_and_purged(
    app: FastAPI,
    db: Database,
    make_user: UserFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    analyst = await make_user("analyst")
    viewer = await make_user("viewer", org=analyst)
    stranger = await make_user("analyst")
    key = await accounts.create_key(
        db, analyst.org_name, "sandbox", ["verification:read", "verification:write"]
    )
    admin = await accounts.create_key(db, analyst.org_name, "sandbox", ["account:admin"])
    headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
    admin_headers = {"Authorization": f"Bearer {admin.client_id}:{admin.secret}"}
    async with browser(app) as http:
        before = await create(http, headers, "kept-cust-0")
        answer, _ = await _run(http, monkeypatch, before["url"])
        assert answer.status_code == 200, answer.text
        assert await _kept(db, before["id"]) == []  # off by default: nothing kept
        monkeypatch.undo()
        opted = await http.put(
            SETTINGS, json={"keep_images": True, "retention_days": 3}, headers=admin_headers
        )
        assert opted.status_code == 200, opted.text
        session = await create(http, headers, "kept-cust-1")
        answer, sent = await _run(http, monkeypatch, session["url"])
        assert answer.status_code == 200, answer.text
        monkeypatch.undo()
    kept = await _kept(db, session["id"])
    assert [k["kind"] for k in kept].count("document") == 1
    assert [k["kind"] for k in kept].count("frame") == len(sent["frames"])
    document = next(k for k in kept if k["kind"] == "document")
    assert b"PNG" not in document["image_sealed"][:64]  # sealed, not the image in clear
    due = clock.utcnow() + timedelta(days=3)
    assert all(abs((clock.as_utc(k["delete_after"]) - due).total_seconds()) < 120 for k in kept)

    async with browser(app) as http:
        await signed_in(http, analyst)
        page = await http.get("/console/verification-sessions")
    assert page.status_code == 200
    assert f"{len(kept)} image(s) kept until" in page.text
    assert 'alt="Document photo of ' + session["id"] in page.text
    assert page.text.count('src="data:image/') == len(kept)
    assert "keeps each session" in page.text and "for 3 days" in page.text
    async with browser(app) as http:
        await signed_in(http, viewer)
        assert "<img" not in (await http.get("/console/verification-sessions")).text
    async with browser(app) as http:
        await signed_in(http, stranger)
        assert session["id"] not in (await http.get("/console/verification-sessions")).text

    # Housekeeping deletes them once the period ends, not before.
    await images.purge_expired(db)
    assert len(await _kept(db, session["id"])) == len(kept)
    real = clock.utcnow
    monkeypatch.setattr(clock, "utcnow", lambda: real() + timedelta(days=3, minutes=5))
    assert await images.purge_expired(db) >= len(kept)
    monkeypatch.undo()
    assert await _kept(db, session["id"]) == []
    async with read(db) as conn:
        left = await conn.execute(
            select(func.count()).where(verification_images.c.session_id == session["id"])
        )
        assert left.scalar_one() == 0
