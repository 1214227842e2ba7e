"""Issue 36's remaining result pages, in process on SQLite and PostgreSQL: a document
verification's result (the fields read, the unsure ones, every check with its status, not_run
shown as such, the face match) reached from the documents list and from the request log; bulk
face scans' pages (the list filtered to face scans, a scan's progress, each row's face links)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from functools import partial
from html import unescape
from pathlib import Path

import pytest
from fastapi import FastAPI
from PIL import Image

from hakiki.documents.sandbox import solid_png
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in
from tests.fraud.bulk.conftest import changed, csv_bytes
from tests.fraud.bulk.test_face_bulk import Quiet
from tests.fraud.test_face_scan import FACES
from tests.support.fake_server import serve_handler_in_thread

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def faces_server(tmp_path: Path) -> Iterator[str]:
    Image.open(FACES / "astronaut.png").convert("RGB").save(tmp_path / "a.jpg", quality=90)
    Image.new("RGB", (300, 300), (200, 180, 160)).save(tmp_path / "wall.png")
    with serve_handler_in_thread(partial(Quiet, directory=str(tmp_path)), "faces") as url:
        yield url


async def test_a_document_verification_has_a_result_page(
    app: FastAPI, make_user: UserFactory
) -> None:
    analyst = await make_user("analyst")
    viewer = await make_user("viewer", org=analyst)
    stranger = await make_user("analyst")
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        headers = {"X-CSRF-Token": csrf}
        yellow = await http.post(
            "/v3/documents/verify",
            json={
                "document_type": "passport",
                "country_code": "KE",
                "front_image": solid_png((230, 220, 40)),
                "selfie_image": solid_png((200, 200, 200)),
            },
            headers=headers,
        )
        licence = await http.post(
            "/v3/documents/verify",
            json={"document_type": "drivers_license", "front_image": solid_png((250, 250, 250))},
            headers=headers,
        )
        assert yellow.status_code == licence.status_code == 200, yellow.text
        reference = yellow.json()["reference"]
        listed = await http.get("/console/documents")
        page = await http.get(f"/console/documents/{reference}")
        other = await http.get(f"/console/documents/{licence.json()['reference']}")
        log = await http.get("/console/requests", params={"endpoint": "/v3/documents/verify"})
    async with browser(app) as http:
        await signed_in(http, viewer)
        barred = await http.get("/console/documents")
        barred_one = await http.get(f"/console/documents/{reference}")
    async with browser(app) as http:
        await signed_in(http, stranger)
        foreign = await http.get(f"/console/documents/{reference}")
        empty = await http.get("/console/documents")
    assert listed.status_code == 200
    assert listed.text.count('href="/console/documents/doc_') == 2
    assert "2 verifications" in listed.text
    text = unescape(page.text)
    assert page.status_code == 200
    assert 'id="verdict">attention<' in text
    assert "KAMAU" in text and "WANJIRU" in text  # the sandbox's holder, read from the zone
    assert "Adobe Photoshop 25.0" in text and 'class="badge check-attention"' in text
    assert "same person" in text and "distance 0.380" in text
    licence_text = unescape(other.text)
    assert 'class="badge check-not_run">not run<' in licence_text  # never shown as passed
    assert "No selfie was sent" in licence_text and "No machine-readable zone read" in licence_text
    assert f'href="/console/documents/{reference}"' in log.text  # from the request log
    assert barred.status_code == 403 and 'id="no-documents"' in barred.text
    assert barred_one.status_code == 403
    assert foreign.status_code == 404 and "0 verifications" in empty.text


async def test_face_scans_have_a_list_page_and_a_page_per_scan(
    app: FastAPI, make_user: UserFactory, faces_server: str
) -> None:
    analyst = await make_user("analyst")
    sheet = [
        ["image_url", "identity_numbers", "reference"],
        [f"{faces_server}/a.jpg", "22100000011", "with-face"],
        [f"{faces_server}/wall.png", "", "no-face"],
    ]
    async with browser(app) as http:
        csrf = await signed_in(http, analyst)
        headers = {"X-CSRF-Token": csrf}
        listing = await http.get("/console/face-scans")
        with changed(app.state.runtime.settings, bulk_fetch_allow_private=True):
            started = await http.post(
                "/v3/fraud/bulk-scan/upload",
                data={"scan_type": "face"},
                files={"file": ("faces.csv", csv_bytes(sheet))},
                headers=headers,
            )
            assert started.status_code == 202, started.text
            bulk_id = started.json()["reference"]
            running = await http.get(f"/console/face-scans/{bulk_id}")
            deadline = time.monotonic() + 60
            while (await http.get(f"/v3/fraud/bulk-scan/{bulk_id}")).json()["status"] != (
                "COMPLETED"
            ):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
        done = await http.get(f"/console/face-scans/{bulk_id}")
        faces_only = await http.get("/v3/fraud/bulk-scan", params={"scan_type": "face"})
    assert listing.status_code == 200 and 'data-scan-type="face"' in listing.text
    assert 'name="scan_type" value="face"' in listing.text and 'id="bulk-type"' not in listing.text
    assert [s["bulk_id"] for s in faces_only.json()["data"]] == [bulk_id]
    assert running.status_code == 200 and 'id="progress-bar"' in running.text
    if "completed" not in running.text.split('id="progress"')[0]:
        assert 'http-equiv="refresh"' in running.text  # follows the scan while it runs
    text = unescape(done.text)
    assert 'http-equiv="refresh"' not in text and 'href="/console/face-scans"' in text
    assert re.search(r'<progress id="progress-bar" max="2" value="2">', text)
    assert "Face links" in text and "other identities: 0" in text
    assert "no_face" in text  # the refused row, with its reason
