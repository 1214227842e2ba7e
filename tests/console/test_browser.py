"""The console in a real headless Chromium (Playwright) against `hakiki serve` as a process
(the worker's shared server, tests/support/served.py, with an organisation and a console user
of this test's): sign in, create a key, run the playground, review a screening hit, follow a
bulk scan to completion, sign out; a screenshot of each page (docs/console/*.png, shown in
docs/console.md) and the accessibility check on each.

Skipped only when Chromium is absent outside CI; under CI=true it must run (.ci/run installs
Debian's chromium when it is missing)."""

from __future__ import annotations

import asyncio
import base64
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pyotp
import pytest

from hakiki import statements
from hakiki.core.test_values import all_entries
from tests.background.helpers import PDF
from tests.background.test_browser import CHROMIUM, CHROMIUM_ARGS, IN_CI, _fill_in_chromium
from tests.console.accessibility import unlabelled
from tests.support.consent import CONSENT
from tests.support.served import Served

pytestmark = pytest.mark.processes

if not CHROMIUM.exists() and not IN_CI:
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

SHOTS = Path(os.environ.get("HAKIKI_SCREENSHOTS", Path(__file__).parents[2] / "docs" / "console"))
STATEMENT = Path(statements.__file__).parent / "sandbox_data" / "mpesa-tampered.pdf"
# Names shown on the screenshots; this test alone uses them on the shared server.
ORGANISATION = "Acme Lending"
EMAIL = "ops@acme.example"
PASSWORD = "a browser-tested password"


def _bulk_file(directory: Path) -> Path:
    """The documented sandbox bulk ID scan's file (GET /v3/sandbox/test-values)."""
    entry = next(
        e
        for e in all_entries()
        if e["path"] == "/v3/fraud/bulk-scan/upload"
        and e["multipart"]["fields"] == {"scan_type": "id"}
    )
    file = entry["multipart"]["files"]["file"]
    path = directory / file["filename"]
    path.write_bytes(base64.b64decode(file["content_base64"]))
    return path


async def _analyst_records_a_manual_check(
    page: Any, base: str, key: dict[str, str], document: Path
) -> None:
    """A candidate fills the invitation (as tests/background do); the analyst then records
    the criminal-record check, which waits for them, in the console's form."""
    async with httpx.AsyncClient(base_url=base, headers=key, timeout=60) as api:
        made = await api.post(
            "/v3/background/candidates",
            json={
                "package_id": "spk_ke_driver",
                "consent": CONSENT,
                "candidates": [
                    {"first_name": "Wanjiru", "last_name": "Kamau", "email": "w@example.com"}
                ],
            },
        )
        assert made.status_code == 201, made.text
        request = made.json()["data"]["requests"][0]
        said = await _fill_in_chromium(request["invitation_url"], document)
        assert "Your information has been sent" in said
        deadline = time.monotonic() + 30
        while True:
            got = (await api.get(f"/v3/background/candidates/{request['reference']}")).json()[
                "data"
            ]
            checks = {c["code"]: c["status"] for c in got["checks"]}
            if checks["criminal_record"] == "awaiting_analyst":
                break
            assert time.monotonic() < deadline, got
            await asyncio.sleep(0.2)
    await page.goto(base + "/console/background")
    await page.click(f"button:has-text('{request['reference']}')")
    await page.wait_for_selector("#timeline li")
    await page.select_option("#bg-criminal_record-result", "clear")
    await page.fill("#bg-criminal_record-notes", "Certificate DCI-2026-001234 seen; genuine.")
    await page.click("#candidate-detail form button")
    await page.wait_for_selector("#background-status:has-text('Recorded criminal_record')")
    await page.wait_for_selector(f"#candidate-detail td:has-text('{EMAIL}')")


async def _drive(base: str, bulk_file: Path, document: Path) -> list[str]:
    from playwright.async_api import Page, async_playwright

    seen: list[str] = []

    async def check(page: Page, name: str) -> None:
        html = await page.content()
        assert unlabelled(html) == [], (name, unlabelled(html))
        await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        seen.append(name)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            await page.goto(base + "/console/")
            assert page.url.endswith("/console/login")
            await page.fill("#email", EMAIL)
            await page.fill("#password", "not the password")
            await page.click("#sign-in")
            await page.wait_for_selector("#login-error")
            await check(page, "login")
            await page.fill("#email", EMAIL)
            await page.fill("#password", PASSWORD)
            await page.click("#sign-in")
            await page.wait_for_url(base + "/console/")
            errors.clear()  # the wrong password's 401 is the only one expected
            await check(page, "overview")

            await page.click("text=Keys")
            await page.click("#create-key")
            secret = await page.inner_text("#secret")
            assert secret.startswith("hks_")
            key = {"Authorization": f"Bearer {await page.inner_text('#client-id')}:{secret}"}
            await check(page, "key-created")
            await page.goto(base + "/console/keys")
            assert secret not in await page.content()
            await check(page, "keys")

            await page.goto(base + "/console/playground")
            await page.wait_for_selector("#playground[data-ready=yes]")
            await page.select_option("#pg-endpoint", "POST /v3/screening/aml-with-id")
            await page.click("#pg-send")
            await page.wait_for_selector("#pg-status:has-text('→ 200')")
            assert '"response_code"' in await page.inner_text("#pg-response")
            await check(page, "playground")

            await page.goto(base + "/console/screening")
            await page.fill("#screen-name", "Sandbox Every List")
            await page.click("#screen-submit")
            await page.wait_for_selector("#hits tbody tr")
            await page.fill("#reason-0", "Different date of birth on the list entry")
            await page.click("#hits tbody tr:first-child button")
            await page.wait_for_selector("#screen-status:has-text('Review recorded')")
            await page.wait_for_selector("#reviews tbody tr")
            assert EMAIL in await page.inner_text("#reviews")
            assert "fresh" in await page.inner_text("#screened-lists")
            await check(page, "screening")
            # A check that could not run is shown as such, never as clear.
            await page.fill("#screen-name", "Sandbox No PEP List")
            await page.click("#screen-submit")
            await page.wait_for_selector("#screen-status:has-text('INCOMPLETE')")
            await page.wait_for_selector("#outcomes tbody tr:has-text('not performed')")
            assert "No pep list is loaded" in await page.inner_text("#outcomes")

            await page.goto(base + "/console/bulk-scans")
            await page.set_input_files("#bulk-file", str(bulk_file))
            await page.click("#bulk-submit")
            await page.wait_for_selector("#bulk-status:has-text('started')")
            await page.wait_for_selector("#scans tbody tr:has-text('completed')", timeout=60_000)
            link = await page.get_attribute("#scans tbody tr:first-child a", "href")
            assert link and "format=csv" in link
            download = await page.request.get(base + link)
            assert download.status == 200 and b"loan-0" in await download.body()
            await check(page, "bulk-scans")

            await page.goto(base + "/console/statements")
            await page.set_input_files("#statement-file", str(STATEMENT))
            await page.select_option("#statement-type", "mpesa")
            await page.fill("#statement-notice", "privacy-notice-2026-09")
            await page.check("#statement-consent")
            await page.click("#statement-submit")
            await page.wait_for_selector("#statement-status:has-text('started')")
            await page.wait_for_selector(
                "#statement-result:has-text('completed (100%)')", timeout=60_000
            )
            shown = await page.inner_text("#statement-result")
            assert "tampered" in shown and "balance_break" in shown, shown
            await check(page, "statements")

            await _analyst_records_a_manual_check(page, base, key, document)
            await check(page, "background")

            report = next(
                e
                for e in all_entries()
                if e["path"] == "/v3/fraud/reports"
                and e["method"] == "POST"
                and e["expect"]["http_status"] == 201
            )
            async with httpx.AsyncClient(base_url=base, headers=key, timeout=60) as api:
                made = await api.post("/v3/fraud/reports", json=report["body"])
                assert made.status_code == 201, made.text
            for name in (
                "wallet",
                "requests",
                "users",
                "webhooks",
                "lists",
                "providers",
                "fraud-reports",
                "",
            ):
                await page.goto(f"{base}/console/{name}")
                await page.wait_for_load_state("networkidle")  # the script's API calls
                if name == "fraud-reports":
                    await page.wait_for_selector("#report-table tbody tr")
                await check(page, name or "overview")  # the overview again, with the calls

            await page.goto(base + "/console/security")
            await page.click("#totp-start")
            await check(page, "security")
            totp = pyotp.TOTP(await page.inner_text("#totp-secret"))
            await page.fill("#confirm-code", totp.now())
            await page.click("#totp-confirm")
            await page.wait_for_selector("#totp-state:has-text('On')")

            await page.click("#sign-out")
            await page.wait_for_url(base + "/console/login")
            await page.goto(base + "/console/keys")
            assert page.url.endswith("/console/login")
            await page.fill("#email", EMAIL)
            await page.fill("#password", PASSWORD)
            await page.fill("#code", totp.now())
            await page.click("#sign-in")
            await page.wait_for_url(base + "/console/")
            await page.click("#sign-out")
            await page.wait_for_url(base + "/console/login")
            await page.goto(base + "/console/reset")
            await check(page, "reset")
            assert errors == [], errors  # no script error, no CSP violation
        finally:
            await browser.close()
    return seen


def test_the_console_in_chromium(served: Served, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    org_id = served.organisation(ORGANISATION, credit=250000)
    served.console_user(org_id, EMAIL, PASSWORD)
    document = tmp_path / "good-conduct.pdf"
    document.write_bytes(PDF)
    seen = asyncio.run(_drive(served.url, _bulk_file(tmp_path), document))
    assert len(set(seen)) == 18
    for name in seen:
        assert (SHOTS / f"{name}.png").stat().st_size > 5_000
