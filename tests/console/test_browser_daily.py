"""The console as a daily tool (issue 36) in a real headless Chromium (Debian's, driven by
Playwright; never a downloaded browser) against `hakiki serve` as a process (the worker's
shared server, tests/support/served.py): the analyst works the alert queue that API screenings
fed (a case page, assign, comment, resolve, a bulk resolution), the operator (an admin) makes a
named key, changes a user's role, adds, tests and disables a webhook; the viewer reads only.
Every page is photographed at desktop width and at 390 px (docs/console/*.png and
*-390.png, shown in docs/console.md), checked for unlabelled controls, for a sign-out button
on screen and for no page wider than the phone.

Skipped only when Chromium is absent outside CI; under CI=true it must run."""

from __future__ import annotations

import asyncio
import base64
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hakiki import statements
from hakiki.core.test_values import all_entries
from hakiki.documents.sandbox import solid_png
from tests.background.test_browser import CHROMIUM, CHROMIUM_ARGS, IN_CI
from tests.console.accessibility import unlabelled
from tests.support.consent import CONSENT_FORM
from tests.support.served import Served
from tests.webhooks.receiver import Receiver, run_receiver

pytestmark = pytest.mark.processes

if not CHROMIUM.exists() and not IN_CI:
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

SHOTS = Path(os.environ.get("HAKIKI_SCREENSHOTS", Path(__file__).parents[2] / "docs" / "console"))
STATEMENT = Path(statements.__file__).parent / "sandbox_data" / "mpesa-tampered.pdf"
ORGANISATION = "Kilimo Credit"
PASSWORD = "a daily-tool password"
ANALYST = "analyst@kilimo.example"
OPERATOR = "operator@kilimo.example"
VIEWER = "viewer@kilimo.example"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Every page of the navigation, photographed at both widths as the operator.
PAGES = (
    ("", "overview"),
    ("alerts", "alerts"),
    ("screening", "screening"),
    ("requests", "requests"),
    ("keys", "keys"),
    ("wallet", "wallet"),
    ("bulk-scans", "bulk-scans"),
    ("face-scans", "face-scans"),
    ("documents", "documents"),
    ("fraud-reports", "fraud-reports"),
    ("background", "background"),
    ("statements", "statements"),
    ("credit-models", "credit-models"),
    ("webhooks", "webhooks"),
    ("lists", "lists"),
    ("playground", "playground"),
    ("users", "users"),
    ("security", "security"),
)


async def _feed_the_queue(base: str, key: dict[str, str]) -> tuple[str, str, str, str]:
    """Onboarding through the API: two name screenings and an AML-with-ID whose identity is
    listed (the sandbox's golden BVN), each hit an alert; one refused call for the log; a
    statement analysed and a bulk ID scan run (their ids)."""
    async with httpx.AsyncClient(base_url=base, headers=key, timeout=30) as api:
        upload = next(
            e
            for e in all_entries()
            if e["path"] == "/v3/fraud/bulk-scan/upload"
            and e["multipart"]["fields"] == {"scan_type": "id"}
        )["multipart"]["files"]["file"]
        scan = await api.post(
            "/v3/fraud/bulk-scan/upload",
            data={"scan_type": "id"},
            files={"file": (upload["filename"], base64.b64decode(upload["content_base64"]))},
        )
        assert scan.status_code == 202, scan.text
        started = await api.post(
            "/v3/statements/analyze",
            files={"file": ("statement.pdf", STATEMENT.read_bytes(), "application/pdf")},
            data={"statement_type": "mpesa", "consent": CONSENT_FORM},
        )
        assert started.status_code == 202, started.text
        analysis = started.json()["reference"]
        for name in ("Sandbox Sanction Person", "Sandbox Politically Exposed"):
            answer = await api.post("/v3/screening/individual", json={"name": name})
            assert answer.status_code == 200, answer.text
        answer = await api.post(
            "/v3/screening/aml-with-id", json={"channel": "bvn", "number": "22222222220"}
        )
        assert answer.status_code == 200, answer.text
        refused = await api.post("/v3/screening/individual", json={})
        assert refused.status_code == 400
        deadline = time.monotonic() + 60
        while (await api.get(f"/v3/statements/{analysis}")).json()["status"] != "COMPLETED":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
        bulk_id = scan.json()["reference"]
        while (await api.get(f"/v3/fraud/bulk-scan/{bulk_id}")).json()["status"] != "COMPLETED":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
        verified = await api.post(
            "/v3/documents/verify",
            json={
                "document_type": "passport",
                "country_code": "KE",
                "front_image": solid_png((230, 220, 40)),  # the sandbox's attention
                "selfie_image": solid_png((200, 200, 200)),
            },
        )
        assert verified.status_code == 200, verified.text
        # A face scan whose URLs the server refuses (loopback): each row shown with why.
        faces = "image_url,reference\nhttp://127.0.0.1:9/a.jpg,applicant-1\n"
        face_scan = await api.post(
            "/v3/fraud/bulk-scan/upload",
            data={"scan_type": "face"},
            files={"file": ("faces.csv", faces.encode())},
        )
        assert face_scan.status_code == 202, face_scan.text
        face_id = face_scan.json()["reference"]
        while (await api.get(f"/v3/fraud/bulk-scan/{face_id}")).json()["status"] != "COMPLETED":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
    return analysis, bulk_id, verified.json()["reference"], face_id


async def _drive(base: str, fed: tuple[str, str, str, str], receiver: Receiver) -> list[str]:
    from playwright.async_api import Page, async_playwright

    shot: list[str] = []
    analysis, bulk_id, document, face_id = fed

    async def check(page: Page, name: str, *, phone: bool = True) -> None:
        """Labels, then a screenshot at desktop width and (``phone``) at 390 px, where the
        sign-out stays on screen and the page does not scroll sideways."""
        html = await page.content()
        assert unlabelled(html) == [], (name, unlabelled(html))
        await page.set_viewport_size(DESKTOP)
        await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        shot.append(name)
        if phone:
            await page.set_viewport_size(PHONE)
            await page.screenshot(path=str(SHOTS / f"{name}-390.png"), full_page=True)
            wide = await page.evaluate("document.documentElement.scrollWidth")
            assert wide <= PHONE["width"] + 1, (name, wide)
            if await page.locator("#sign-out").count():
                out = await page.locator("#sign-out").bounding_box()
                assert out is not None and out["x"] + out["width"] <= PHONE["width"], (name, out)
            await page.set_viewport_size(DESKTOP)

    async def sign_in(page: Page, email: str) -> None:
        await page.goto(base + "/console/login")
        await page.fill("#email", email)
        await page.fill("#password", PASSWORD)
        await page.click("#sign-in")
        await page.wait_for_url(base + "/console/")

    async def sign_out(page: Page) -> None:
        await page.click("#sign-out")
        await page.wait_for_url(base + "/console/login")

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            page = await browser.new_page(viewport=DESKTOP)
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

            # The analyst: the queue the API fed, one case worked, the rest in bulk.
            await sign_in(page, ANALYST)
            assert await page.inner_text("#count-open") == "3"
            await page.click("nav >> text=Alert queue")
            await page.wait_for_selector("#queue tbody tr")
            await check(page, "alerts")
            await page.click("#queue >> text=Sandbox Sanction Person")
            await page.wait_for_selector("#entry")
            assert "SANDBOX" in await page.inner_text("#entry")
            await page.select_option("#assignee", "me")
            await page.click("#assign")
            await page.fill("#comment", "Asked the customer for a copy of the passport.")
            await page.click("#add-comment")
            await page.click("#resolve")  # no reason: the browser refuses the empty field
            assert await page.locator("#history li").count() == 3
            await page.fill("#reason", "Different person: born 1994 in Kano.")
            await page.select_option("#decision", "false_positive")
            await page.click("#resolve")
            await page.wait_for_selector("#history li:has-text('resolved')")
            assert ANALYST in await page.inner_text("#history")
            await check(page, "alert")
            await page.goto(base + "/console/alerts")
            await page.check("#pick-1")
            await page.select_option("#bulk-action", "resolve")
            await page.select_option("#bulk-decision", "true_match")
            await page.fill("#bulk-reason", "Same person: ID seen at the branch.")
            await page.click("#bulk-submit")
            await page.wait_for_selector("#queue-notice:has-text('1 of 1 alerts updated')")
            await page.goto(f"{base}/console/statements/{analysis}")
            assert await page.inner_text("#verdict") == "tampered"
            await check(page, "statement")
            await page.goto(base + "/console/background")
            await page.click("summary:has-text('Invite a candidate')")
            await page.select_option("#invite-package", "spk_ke_driver")
            await page.fill("#invite-first", "Wanjiru")
            await page.fill("#invite-last", "Kamau")
            await page.fill("#invite-email", "wanjiru@example.com")
            await page.check("#invite-consent")
            await page.click("#invite")
            await page.click("#invited a")
            await page.wait_for_selector("#checks")
            await check(page, "background-request")
            await page.goto(f"{base}/console/bulk-scans/{bulk_id}")
            await page.wait_for_selector("#levels")
            await check(page, "bulk-scan")
            await page.goto(f"{base}/console/documents")
            await page.click(f"#documents a[href='/console/documents/{document}']")
            await page.wait_for_selector("#checks-forensics")
            assert await page.inner_text("#verdict") == "attention"
            await check(page, "document")
            await page.goto(f"{base}/console/face-scans/{face_id}")
            await page.wait_for_selector("#progress-bar")
            assert "url_refused" in await page.inner_text("#rows")
            await check(page, "face-scan")
            await page.goto(base + "/console/requests?status=4xx")
            assert "invalid_request" in await page.inner_text("#entries")
            await check(page, "requests-errors", phone=False)
            await sign_out(page)

            # The operator: a named key, a user's role, a webhook added, tested, disabled.
            await sign_in(page, OPERATOR)
            await page.goto(base + "/console/keys")
            await page.fill("#key-name", "loan origination")
            await page.click("#create-key")
            assert (await page.inner_text("#secret")).startswith("hks_")
            await check(page, "key-created")
            await page.goto(base + "/console/users")
            await page.select_option(f"select[aria-label='New role of {VIEWER}']", "developer")
            await page.click(f"button[aria-label='Change the role of {VIEWER}']")
            await page.wait_for_selector(f"#users tr:has-text('{VIEWER}'):has-text('developer')")
            await page.select_option(f"select[aria-label='New role of {VIEWER}']", "viewer")
            await page.click(f"button[aria-label='Change the role of {VIEWER}']")
            await page.wait_for_selector(f"#users tr:has-text('{VIEWER}'):has-text('viewer')")
            await page.goto(base + "/console/webhooks")
            await page.fill("#webhook-url", receiver.url)
            await page.fill("#webhook-description", "Loan origination service")
            await page.check("#event-screening\\.alert_opened")
            await page.click("#add-webhook")
            receiver.secrets = [await page.inner_text("#webhook-secret")]
            await check(page, "webhook-added", phone=False)
            await page.click("#endpoints button:has-text('Test')")
            await page.wait_for_selector("#webhook-notice:has-text('taken (HTTP 200)')")
            await check(page, "webhook-tested", phone=False)
            for path, name in PAGES:  # every page, at both widths
                await page.goto(f"{base}/console/{path}")
                await page.wait_for_load_state("networkidle")  # the script pages' API reads
                await check(page, name)
            await page.goto(base + "/console/webhooks")
            await page.click("#endpoints button:has-text('Disable')")
            await page.wait_for_selector("#webhook-notice:has-text('Disabled')")
            await sign_out(page)

            # The viewer: reads, acts on nothing.
            await sign_in(page, VIEWER)
            for path in ("keys", "users", "webhooks", "requests"):
                await page.goto(f"{base}/console/{path}")
                assert await page.locator("main form[method=post]").count() == 0, path
            await page.goto(base + "/console/alerts")
            await page.wait_for_selector("#no-queue")
            await check(page, "viewer-alerts")
            await sign_out(page)
            await check(page, "login")
            assert errors == [] or all("403" in e for e in errors), errors
        finally:
            await browser.close()
    return shot


def _people(served: Served) -> str:
    org_id = served.organisation(ORGANISATION, credit=100_000)
    for email, role in ((ANALYST, "analyst"), (OPERATOR, "admin"), (VIEWER, "viewer")):
        served.console_user(org_id, email, PASSWORD, role)
    return org_id


def test_the_console_as_a_daily_tool_in_chromium(served: Served) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    _people(served)
    fed = asyncio.run(_feed_the_queue(served.url, served.key(ORGANISATION)))
    with run_receiver() as receiver:
        shot: Any = asyncio.run(_drive(served.url, fed, receiver))
    assert [m.json["type"] for m in receiver.accepted()] == ["webhook.test"]
    assert len(shot) == len(PAGES) + 13
    for name in shot:
        assert (SHOTS / f"{name}.png").stat().st_size > 5_000
