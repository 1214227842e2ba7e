"""A background check invitation made in the console records the candidate's consent as the
API's does (docs/privacy.md#consent): the user ticks the attestation (a required checkbox with
the endpoint catalogue's text), and the call stores it as a consent record (source console,
the text as shown, the user who attested) in its own settlement, named by the answer. Without
the tick the form is refused and nothing is created. In process, on both databases."""

from __future__ import annotations

from html import unescape
from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from hakiki.background.endpoints import CANDIDATES_ATTESTATION
from hakiki.background.tables import background_requests
from hakiki.console.tables import console_users
from hakiki.core.database import Database
from hakiki.core.privacy.tables import consent_records
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

INVITE = {
    "package_id": "spk_ke_driver",
    "first_name": "Wanjiru",
    "last_name": "Kamau",
    "email": "wanjiru.consent@example.com",
}


async def _consents(db: Database, org_id: str) -> list[dict[str, Any]]:
    async with db.reader.connect() as conn:
        rows = await conn.execute(select(consent_records).where(consent_records.c.org_id == org_id))
        return [dict(r._mapping) for r in rows]


async def _requests(db: Database, org_id: str) -> list[str]:
    async with db.reader.connect() as conn:
        rows = await conn.execute(
            select(background_requests.c.reference).where(background_requests.c.org_id == org_id)
        )
        return [r[0] for r in rows]


async def test_a_console_invitation_records_the_attested_consent(
    app: FastAPI, db: Database, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    vault = app.state.runtime.vault
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        form = await http.get("/console/background")
        refused = await http.post("/console/background", data={"csrf": csrf, **INVITE})
        after_refusal = (await _consents(db, analyst.org_id), await _requests(db, analyst.org_id))
        invited = await http.post(
            "/console/background", data={"csrf": csrf, **INVITE, "consent_given": "yes"}
        )
    assert 'id="invite-consent"' in form.text and 'name="consent_given"' in form.text
    assert CANDIDATES_ATTESTATION in unescape(form.text)
    assert refused.status_code == 400 and 'id="invite-error"' in refused.text
    assert "consent_given" in unescape(refused.text)
    assert after_refusal == ([], [])

    assert invited.status_code == 200, invited.text
    (reference,) = await _requests(db, analyst.org_id)
    (record,) = await _consents(db, analyst.org_id)
    assert f'id="invite-consent-id">{record["id"]}<' in invited.text
    assert (record["source"], record["endpoint"]) == ("console", "background.candidates.create")
    assert record["reference"] == reference and record["environment"] == "sandbox"
    body = orjson.loads(vault.decrypt(record["consent_encrypted"]))
    async with db.reader.connect() as conn:
        user_id = (
            await conn.execute(
                select(console_users.c.id).where(console_users.c.org_id == analyst.org_id)
            )
        ).scalar_one()
    assert body["notice_text"] == CANDIDATES_ATTESTATION
    assert body["notice_version"].startswith("console-attestation-")
    assert (body["method"], body["purposes"], body["language"]) == (
        "attested",
        ["background_check"],
        "en",
    )
    assert body["attested_by"] == user_id and body["obtained_at"]
