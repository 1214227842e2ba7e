"""The console's audit-log page (issue 40, docs/privacy.md#audit-log): an owner's session
reads the log through the API as its page does, its own reads recorded as the user's (by user
id, never the e-mail address); an analyst's session is refused the log."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from hakiki.core.privacy.audit import AuditWriter
from hakiki.core.runtime import Runtime
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in


@pytest.mark.asyncio(loop_scope="session")
async def test_the_owners_page_reads_the_log_and_an_analyst_is_refused(
    app: FastAPI, make_user: UserFactory, runtime: Runtime
) -> None:
    owner = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        page = await http.get("/console/audit-log")
        assert page.status_code == 200 and 'id="audit-table"' in page.text
        assert 'href="/console/audit-log" aria-current="page"' in page.text
        first = await http.get("/v3/privacy/audit-log", headers={"X-CSRF-Token": csrf})
        assert first.status_code == 200, first.text
        await runtime.part(AuditWriter).flush()
        second = await http.get("/v3/privacy/audit-log", headers={"X-CSRF-Token": csrf})
        rows = second.json()["data"]
        exported = await http.get("/v3/privacy/audit-log", params={"format": "csv"})
    assert [(r["actor_type"], r["action"], r["endpoint"]) for r in rows] == [
        ("user", "read", "privacy.audit_log")
    ]
    assert rows[0]["actor_id"].startswith("usr_") and "@" not in second.text
    assert exported.status_code == 200 and exported.text.startswith("id,actor_type,")
    analyst = await make_user("analyst", org=owner)
    async with browser(app) as http:
        await signed_in(http, analyst)
        refused = await http.get("/v3/privacy/audit-log")
    assert refused.status_code == 403, refused.text
