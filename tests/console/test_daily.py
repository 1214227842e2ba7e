"""The console as an analyst's and operator's daily tool (issue 36), in process: the alert queue
fed by API screenings, one alert's case page and its actions (singly and in bulk), the request
log filtered and paginated with the errors' messages, keys with names and last use, users'
roles and removal, webhooks added, tested and disabled; each as the roles allow."""

from __future__ import annotations

import asyncio
import base64
import re
import time
from html import unescape

import httpx
import pytest
from fastapi import FastAPI

from hakiki.console import users
from hakiki.core.test_values import all_entries
from tests.console.conftest import UserFactory
from tests.console.helpers import ConsoleUser, browser, csrf_of, sign_in, signed_in
from tests.statements.conftest import sandbox_analysis
from tests.webhooks.receiver import run_receiver

pytestmark = pytest.mark.asyncio(loop_scope="session")

ALERT_LINK = re.compile(r'href="/console/alerts/(alrt_[a-z0-9]+)"')


def _queue(page: httpx.Response) -> str:
    """The queue's table (the audit trail below it names alerts too)."""
    return page.text.split('id="trail"')[0]


async def _key(http: httpx.AsyncClient, csrf: str, name: str) -> dict[str, str]:
    made = await http.post(
        "/console/keys", data={"csrf": csrf, "environment": "sandbox", "name": name}
    )
    assert made.status_code == 200, made.text
    client_id = re.search(r'id="client-id">([^<]+)<', made.text)
    secret = re.search(r'id="secret">([^<]+)<', made.text)
    assert client_id and secret
    return {"Authorization": f"Bearer {client_id.group(1)}:{secret.group(1)}"}


async def _screen(http: httpx.AsyncClient, key: dict[str, str], name: str) -> None:
    answer = await http.post("/v3/screening/sanction", json={"name": name}, headers=key)
    assert answer.status_code == 200, answer.text


async def test_api_hits_reach_the_queue_and_an_analyst_works_the_case(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    admin = await make_user("admin", org=analyst)
    async with browser(app) as http:
        key = await _key(http, await signed_in(http, admin), "onboarding service")
        await _screen(http, key, "Sandbox Sanction Person")  # an API call, not the console

    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        overview = await http.get("/console/")
        queue = await http.get("/console/alerts")
        [alert_id] = ALERT_LINK.findall(queue.text)[:1]
        page = await http.get(f"/console/alerts/{alert_id}")
        no_reason = await http.post(
            f"/console/alerts/{alert_id}",
            data={"csrf": csrf, "action": "resolve", "decision": "false_positive", "reason": ""},
        )
        assigned = await http.post(
            f"/console/alerts/{alert_id}", data={"csrf": csrf, "action": "assign", "assignee": "me"}
        )
        mine = await http.get("/console/alerts", params={"assignee": "me"})
        nobody = await http.get("/console/alerts", params={"assignee": "none"})
        await http.post(
            f"/console/alerts/{alert_id}",
            data={"csrf": csrf, "action": "comment", "comment": "Asked for the passport."},
        )
        resolved = await http.post(
            f"/console/alerts/{alert_id}",
            data={
                "csrf": csrf,
                "action": "resolve",
                "decision": "false_positive",
                "reason": "Born 1994 in Kano; the entry is older.",
            },
        )
        after = await http.get(f"/console/alerts/{alert_id}")
        still_open = await http.get("/console/alerts")
        trail = await http.get("/console/alerts", params={"status": "resolved"})

    assert re.search(r'id="count-open">1<', overview.text), "the overview counts the queue"
    assert "Sandbox Sanction Person" in queue.text and "sandbox_sanction" in queue.text
    # the hit beside the list entry, with its programmes and the score's explanation
    assert 'id="entry"' in page.text and "SANDBOX" in page.text
    assert "1970-01-01" in page.text and ">NG<" in page.text  # the entry's birth date, country
    assert 'id="explanation"' in page.text and "list-name parts matched" in unescape(page.text)
    assert no_reason.status_code == 400 and 'id="alert-error"' in no_reason.text
    assert assigned.status_code == 303
    assert alert_id in _queue(mine) and alert_id not in _queue(nobody)
    assert resolved.status_code == 303
    shown = unescape(after.text)
    assert "resolved: false positive" in shown
    for said in ("Asked for the passport.", "Born 1994 in Kano", f"by {analyst.email}"):
        assert said in shown, said
    assert alert_id not in _queue(still_open)  # the default view is the open alerts
    assert analyst.email in trail.text and "Sandbox Sanction Person" in trail.text


async def test_bulk_actions_need_a_reason_to_resolve_and_roles_decide(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    developer = await make_user("developer", org=analyst)
    viewer = await make_user("viewer", org=analyst)
    async with browser(app) as http:
        key = await _key(http, await signed_in(http, developer), "monitoring")
        await _screen(http, key, "Sandbox Sanction Person")
        await _screen(http, key, "Sandbox Politically Exposed")
        queue = await http.get("/console/alerts")  # a developer reads the queue
        ids = ALERT_LINK.findall(_queue(queue))
        refused = await http.post(
            "/console/alerts",
            data={
                "csrf": csrf_of(queue.text),
                "action": "assign",
                "assignee": "me",
                "pick-1": ids[0],
            },
        )
    assert len(set(ids)) >= 1 and refused.status_code == 403
    assert "bulk-submit" not in queue.text

    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        picks = {f"pick-{n}": alert for n, alert in enumerate(sorted(set(ids)), 1)}
        unreasoned = await http.post(
            "/console/alerts",
            data={"csrf": csrf, "action": "resolve", "decision": "true_match", **picks},
            follow_redirects=True,
        )
        done = await http.post(
            "/console/alerts",
            data={
                "csrf": csrf,
                "action": "resolve",
                "decision": "true_match",
                "reason": "Same person: passport seen.",
                **picks,
            },
            follow_redirects=True,
        )
    assert "0 of" in unescape(unreasoned.text) and "reason" in unreasoned.text
    assert f"{len(picks)} of {len(picks)} alerts updated" in unescape(done.text)
    assert not ALERT_LINK.search(_queue(done))  # none left open

    async with browser(app) as http:
        await signed_in(http, viewer)
        hidden = await http.get("/console/alerts")
        overview = await http.get("/console/")
    assert hidden.status_code == 403 and "Sandbox Sanction Person" not in hidden.text
    assert 'id="queue-counts"' not in overview.text


async def test_the_request_log_filters_pages_and_shows_why_a_call_failed(
    app: FastAPI, make_user: UserFactory
) -> None:
    owner = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        key = await _key(http, csrf, "loans")
        refused = await http.post("/v3/screening/sanction", json={}, headers=key)
        for n in range(26):
            await _screen(http, key, f"Person Number {n}")
        await http.get("/v3/screening/alerts")  # a read the console itself makes
        await app.state.runtime.request_log.flush()
        errors = await http.get("/console/requests", params={"status": "4xx"})
        first = await http.get("/console/requests")
        second = await http.get("/console/requests", params={"page": "2"})
        by_path = await http.get("/console/requests", params={"endpoint": "/v3/screening/alerts"})
        keys = await http.get("/console/keys")
    assert refused.status_code == 400
    assert refused.headers["x-request-id"] in errors.text
    assert "invalid_request: " in unescape(errors.text)  # the error's message, not just 400
    assert "29 calls" not in first.text and "27 calls" in first.text  # no console read
    assert "page 1 of 2" in first.text and 'id="log-next"' in first.text
    assert "page 2 of 2" in second.text
    assert "No call matches." in by_path.text
    row = next(r for r in keys.text.split("<tr>") if "loans" in r)
    assert "never" not in row and " UTC" in row  # last used, in the one format


async def test_an_admin_changes_a_role_and_removes_a_user(
    app: FastAPI, make_user: UserFactory
) -> None:
    owner = await make_user("owner")
    admin = await make_user("admin", org=owner)
    analyst = await make_user("analyst", org=owner)
    runtime = app.state.runtime

    async def user_id(user: ConsoleUser) -> str:
        found = await users.find_by_email(runtime.db, runtime.vault, user.email)
        assert found
        return str(found["id"])

    async with browser(app) as http:
        csrf = await signed_in(http, admin)
        listing = await http.get("/console/users")
        target = await user_id(analyst)
        to_viewer = await http.post(
            f"/console/users/{target}/role", data={"csrf": csrf, "role": "viewer"}
        )
        removed = await http.post(f"/console/users/{target}/remove", data={"csrf": csrf})
        listed = await http.get("/console/users")
        on_owner = await http.post(
            f"/console/users/{await user_id(owner)}/remove", data={"csrf": csrf}
        )
        on_self = await http.post(
            f"/console/users/{await user_id(admin)}/role", data={"csrf": csrf, "role": "viewer"}
        )
    owner_row = next(r for r in listing.text.split("<tr>") if owner.email in r)
    assert "Remove" not in owner_row, "an admin is offered no change to an owner"
    assert to_viewer.status_code == removed.status_code == 303
    row = next(r for r in listed.text.split("<tr>") if analyst.email in r)
    assert "viewer" in row and "removed" in row
    assert on_owner.status_code == 403 and on_self.status_code == 409
    async with browser(app) as http:
        answer = await sign_in(http, analyst.email, analyst.password)
    assert answer.status_code == 401


async def test_webhooks_are_added_tested_and_disabled_by_an_operator_only(
    app: FastAPI, make_user: UserFactory
) -> None:
    admin = await make_user("admin")
    analyst = await make_user("analyst", org=admin)
    with run_receiver() as receiver:
        async with browser(app) as http:
            csrf = await signed_in(http, admin)
            added = await http.post(
                "/console/webhooks",
                data={
                    "csrf": csrf,
                    "url": receiver.url,
                    "description": "Onboarding service",
                    "event-screening.alert_opened": "on",
                },
            )
            secret = re.search(r'id="webhook-secret">([^<]+)<', added.text)
            assert secret, added.text
            receiver.secrets = [secret.group(1)]
            endpoint = re.search(r"/console/webhooks/(whe_[a-z0-9]+)/test", added.text)
            assert endpoint
            tested = await http.post(
                f"/console/webhooks/{endpoint.group(1)}/test",
                data={"csrf": csrf},
                follow_redirects=True,
            )
            bad = await http.post(
                "/console/webhooks", data={"csrf": csrf, "url": "ftp://example.com/x"}
            )
            disabled = await http.post(
                f"/console/webhooks/{endpoint.group(1)}/disable",
                data={"csrf": csrf},
                follow_redirects=True,
            )
    assert "Onboarding service" in added.text and "screening.alert_opened" in added.text
    assert "The test event was taken (HTTP 200)" in unescape(tested.text)
    assert [m.json["type"] for m in receiver.accepted()] == ["webhook.test"]
    assert bad.status_code == 400 and 'id="webhook-error"' in bad.text
    assert receiver.url not in disabled.text

    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        page = await http.get("/console/webhooks")
        refused = await http.post(
            "/console/webhooks", data={"csrf": csrf, "url": "https://example.com/h"}
        )
    assert "add-webhook" not in page.text and refused.status_code == 403


async def test_a_statement_result_page_has_its_verdict_charts_and_paged_transactions(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)  # the session uploads, as the old page's script
        done = await sandbox_analysis(http, {"X-CSRF-Token": csrf}, "mpesa-tampered.pdf")
        listing = await http.get("/console/statements")
        page = await http.get(f"/console/statements/{done['analysis_id']}")
        second = await http.get(f"/console/statements/{done['analysis_id']}", params={"page": 2})
        other = await http.get("/console/statements/sta_nothere")
    assert done["analysis_id"] in listing.text and 'class="verdict tampered"' in listing.text
    text = unescape(page.text)
    assert 'id="verdict"' in text and "tampered" in text
    assert "balance_break" in text  # a signal, with its evidence and page
    assert '<svg class="chart"' in text and 'id="flows"' in text and 'id="balance"' in text
    assert 'class="inflow"' in text and 'class="balance"' in text and "closing balance" in text
    total = done["pagination"]["total_items"]
    assert f"{total} transactions · page 1 of" in text
    if total > 25:
        assert "page 2 of" in unescape(second.text) and 'id="tx-next"' in text
    assert other.status_code == 404


async def test_live_shows_the_price_of_a_screen_before_the_click(
    app: FastAPI, make_user: UserFactory
) -> None:
    owner = await make_user("owner", balance=10_000)
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        sandbox = await http.get("/console/screening")
        await http.post(
            "/console/environment",
            data={"csrf": csrf, "environment": "live", "next": "/console/screening"},
        )
        live = await http.get("/console/screening")
    price = app.state.runtime.price("screening.aml")
    assert 'id="screen-price"' not in sandbox.text and "SANDBOX" in sandbox.text
    assert 'id="screen-price"' in live.text and "LIVE" in live.text
    assert f"{price / 100:.2f} KES" in live.text
    assert 'class="environment-live"' in live.text  # the header itself changes colour


async def test_a_bulk_scan_has_a_page_of_its_own_with_counts_by_risk_level(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    entry = next(
        e
        for e in all_entries()
        if e["path"] == "/v3/fraud/bulk-scan/upload"
        and e["multipart"]["fields"] == {"scan_type": "id"}
    )
    upload = entry["multipart"]["files"]["file"]
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        started = await http.post(
            "/v3/fraud/bulk-scan/upload",
            data={"scan_type": "id"},
            files={"file": (upload["filename"], base64.b64decode(upload["content_base64"]))},
            headers={"X-CSRF-Token": csrf},
        )
        assert started.status_code == 202, started.text
        bulk_id = started.json()["reference"]
        deadline = time.monotonic() + 60
        while (await http.get(f"/v3/fraud/bulk-scan/{bulk_id}")).json()["status"] != "COMPLETED":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        page = await http.get(f"/console/bulk-scans/{bulk_id}")
        refused = await http.get(f"/console/bulk-scans/{bulk_id}", params={"status": "error"})
        missing = await http.get("/console/bulk-scans/blk_nothere")
    assert page.status_code == 200 and 'id="levels"' in page.text
    counts = [int(n) for n in re.findall(r'class="level-[a-z]+">(\d+)<', page.text)]
    rows = re.search(r"(\d+) rows · page 1", page.text)
    assert rows and sum(counts) == int(rows.group(1)) > 0
    assert "format=csv" in page.text and 'id="rows"' in page.text
    assert refused.status_code == 200 and missing.status_code == 404


async def test_candidates_are_invited_and_a_request_has_a_page_with_each_check(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    viewer = await make_user("viewer", org=analyst)
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        form = await http.get("/console/background")
        invited = await http.post(
            "/console/background",
            data={
                "csrf": csrf,
                "package_id": "spk_ke_driver",
                "first_name": "Wanjiru",
                "last_name": "Kamau",
                "email": "wanjiru@example.com",
                "consent_given": "yes",
            },
        )
        bad = await http.post(
            "/console/background",
            data={"csrf": csrf, "package_id": "spk_ke_driver", "first_name": "W",
                  "last_name": "K", "email": "not an address", "consent_given": "yes"},
        )  # fmt: skip
        reference = re.search(r'href="/console/background/(bgc_[a-z0-9]+)"', invited.text)
        assert reference, invited.text
        page = await http.get(f"/console/background/{reference.group(1)}")
        early = await http.post(
            f"/console/background/{reference.group(1)}/reinitiate", data={"csrf": csrf}
        )
    assert 'id="invite-package"' in form.text
    assert 'id="invitation-url"' in invited.text
    assert bad.status_code == 400 and 'id="invite-error"' in bad.text
    assert 'id="checks"' in page.text and "criminal" in page.text.lower()
    assert 'id="request-status"' in page.text and 'id="reinitiate"' not in page.text  # pending
    assert early.status_code == 400 and "only a stalled or expired" in unescape(early.text)
    async with browser(app) as http:
        csrf = await signed_in(http, viewer)
        shown = await http.get(f"/console/background/{reference.group(1)}")
        refused = await http.post(
            "/console/background",
            data={"csrf": csrf, "package_id": "spk_ke_driver", "first_name": "A",
                  "last_name": "B", "email": "a@example.com", "consent_given": "yes"},
        )  # fmt: skip
    assert shown.status_code == 403 and refused.status_code == 403
