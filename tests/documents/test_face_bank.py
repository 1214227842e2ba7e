"""A selfie whose face is in the fraud face bank rejects the document. On an app and database of
this test's own (SQLite and PostgreSQL): the bank is shared by every organisation of an
environment, and the session's other tests count on what it holds."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.wallet import service as wallet
from tests.documents.specimens import TD1_KENYA, render_card
from tests.support.databases import isolated_settings

FACES = Path(__file__).resolve().parents[1] / "engines" / "face" / "data"
URL = "/v3/documents/verify"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.fixture(params=["sqlite", "postgresql"])
async def own_app(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[FastAPI]:
    settings = await isolated_settings(request.param, tmp_path, "documents_bank")
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def live_headers(app: FastAPI, name: str, balance: int = 0) -> dict[str, str]:
    db = app.state.runtime.db
    org = await accounts.create_org(db, name, approved=True, currency="KES")
    key = await accounts.create_key(db, name, "live", None)
    if balance:
        await wallet.credit(db, org.id, balance, "test top-up")
    return {"Authorization": f"Bearer {key.client_id}:{key.secret}"}


async def test_a_selfie_in_the_fraud_face_bank_rejects(own_app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=own_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as client:
        lender = await live_headers(own_app, "Lender", balance=10_000)
        reporter = await live_headers(own_app, "Reporter")
        card = render_card(TD1_KENYA, visual=True, portrait=(FACES / "biden2.jpg").read_bytes())
        selfie = (FACES / "biden.jpg").read_bytes()
        body = {
            "document_type": "national_id",
            "front_image": b64(card),
            "selfie_image": b64(selfie),
        }

        def bank(result: dict[str, Any]) -> dict[str, Any]:
            found: dict[str, Any] = next(
                c for c in result["data"]["checks"] if c["name"] == "face_bank"
            )
            return found

        before = (await client.post(URL, json=body, headers=lender)).json()
        assert before["data"]["face"]["match"] is True
        assert bank(before)["status"] == "passed" and before["data"]["verdict"] == "clear"
        report = {
            "subject": {"last_name": "Doe", "face_image_base64": b64(selfie)},
            "incident": {"category": "identity_theft", "date": "2026-10-10",
                         "description": "Account opened with this photo."},
        }  # fmt: skip
        created = await client.post("/v3/fraud/reports", json=report, headers=reporter)
        assert created.status_code == 201 and created.json()["data"]["face_enrolled"] is True
        after = (await client.post(URL, json=body, headers=lender)).json()
        assert bank(after)["status"] == "failed" and bank(after)["signals"]["reports"] == 1
        assert after["data"]["verdict"] == "rejected"
        assert "the face is in 1 fraud report(s)" in after["data"]["reasons"]
