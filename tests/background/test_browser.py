"""A candidate fills the invitation form in a real headless Chromium (Playwright), against
`hakiki serve` as a process (the worker's shared server, tests/support/served.py): the page,
the consent, a typed date, a file chosen from disk, the submit; the API then says the request
is in progress with the document stored.

Skipped only when Chromium is absent outside CI; under CI=true it must run (.ci/run installs
Debian's chromium when it is missing)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import httpx
import pytest

from tests.background.helpers import PDF
from tests.support.consent import CONSENT
from tests.support.served import Served

pytestmark = pytest.mark.processes

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

if not CHROMIUM.exists() and not IN_CI:
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


async def _fill_in_chromium(url: str, document: Path) -> str:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            page = await browser.new_page()
            await page.goto(url)
            assert "Background check" in await page.title()
            await page.fill("#id_number", "20000000")
            await page.fill("#date_of_birth", "1990-08-23")
            await page.fill("#referees", "Achieng Otieno +254711000000")
            await page.set_input_files("#police_clearance", str(document))
            await page.click("#submit")  # without consent: the form comes back with the error
            await page.wait_for_selector("#consent-error")
            await page.set_input_files("#police_clearance", str(document))
            await page.check("#consent")
            await page.click("#submit")
            await page.wait_for_selector("#done")
            return await page.inner_text("#done")
        finally:
            await browser.close()


def test_a_candidate_fills_the_form_in_chromium(served: Served, tmp_path: Path) -> None:
    document = tmp_path / "good-conduct.pdf"
    document.write_bytes(PDF)
    served.organisation("Background browser test")
    headers = served.key("Background browser test", "sandbox")
    base = served.url
    made = httpx.post(
        f"{base}/v3/background/candidates",
        json={
            "package_id": "spk_ke_driver",
            "consent": CONSENT,
            "candidates": [
                {"first_name": "Wanjiru", "last_name": "Kamau", "email": "w@example.com"}
            ],
        },
        headers=headers,
        timeout=10,
    )
    assert made.status_code == 201, made.text
    request = made.json()["data"]["requests"][0]
    assert request["invitation_url"].startswith(base + "/invitations/")
    said = asyncio.run(_fill_in_chromium(request["invitation_url"], document))
    assert "Your information has been sent" in said
    deadline = time.monotonic() + 30
    while True:
        got = httpx.get(
            f"{base}/v3/background/candidates/{request['reference']}",
            headers=headers,
            timeout=10,
        ).json()["data"]
        checks = {c["code"]: c for c in got["checks"]}
        if checks["identity"]["status"] == "completed":
            break
        assert time.monotonic() < deadline, got
        time.sleep(0.2)
    assert got["state"] == "in_progress"
    assert checks["identity"]["result"] == "clear"
    assert checks["criminal_record"]["status"] == "awaiting_analyst"
