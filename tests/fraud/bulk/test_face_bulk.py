"""Face bulk scans: images fetched by URL from a local image server (allowed for the test),
one face behind several numbers found within one file, per-row errors not charged, and URLs
on private or loopback addresses, or off the operator's host list, refused by default."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image, ImageOps

from hakiki.fraud.bulk.fetch import host_allowed
from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import changed, csv_bytes, finished, upload
from tests.fraud.test_face_scan import FACES
from tests.support.fake_server import serve_handler_in_thread

FACE_PRICE = 1000


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/moved.jpg":
            self.send_response(302)
            self.send_header("Location", "/a.jpg")
            self.end_headers()
            return
        super().do_GET()


@pytest.fixture
def image_server(tmp_path: Path) -> Iterator[str]:
    # Faces no other live test uses (the fraud database is shared by the whole session): the
    # astronaut, the same photo mirrored (one face presented twice), and Tom Hanks.
    astronaut = Image.open(FACES / "astronaut.png").convert("RGB")
    astronaut.save(tmp_path / "a.jpg", quality=90)
    ImageOps.mirror(astronaut).save(tmp_path / "a-mirrored.jpg", quality=90)
    (tmp_path / "t.png").write_bytes((FACES / "Tom_Hanks_54745.png").read_bytes())
    Image.new("RGB", (300, 300), (200, 180, 160)).save(tmp_path / "wall.png")
    with serve_handler_in_thread(partial(Quiet, directory=str(tmp_path)), "image-server") as url:
        yield url


async def test_faces_by_url_with_errors_per_row(
    client: httpx.AsyncClient, make_account: AccountFactory, app: FastAPI, image_server: str
) -> None:
    lender = await make_account("live", balance=10 * FACE_PRICE)
    sheet = [
        ["image_url", "identity_numbers", "reference"],
        [f"{image_server}/a.jpg", "22100000001", "a"],
        [f"{image_server}/a-mirrored.jpg", "22100000002;22100000003", "b"],  # same face
        [f"{image_server}/t.png", "22100000004", "c"],
        [f"{image_server}/missing.jpg", "", "d"],
        [f"{image_server}/wall.png", "", "e"],
        [f"{image_server}/moved.jpg", "", "f"],
    ]
    with changed(app.state.runtime.settings, bulk_fetch_allow_private=True):
        started = await upload(client, lender.headers, csv_bytes(sheet), "face")
        done = await finished(client, lender.headers, started["bulk_id"], within=120)
    assert (done["success_count"], done["error_count"]) == (3, 3)
    assert done["charged_amount"] == 3 * FACE_PRICE  # rows in error are not charged
    by_reference = {r["reference"]: r for r in done["results"]}
    assert by_reference["a"]["findings"]["links"]["other_identities"] == 0
    assert by_reference["b"]["findings"]["links"]["other_identities"] == 1
    assert "face_with_other_identities" in [s["code"] for s in by_reference["b"]["risk"]["signals"]]
    assert by_reference["c"]["findings"]["links"]["other_identities"] == 0
    errors = {
        k: (r["error"]["code"], r["transaction_id"]) for k, r in by_reference.items() if r["error"]
    }
    assert errors == {
        "d": ("fetch_failed", None), "e": ("no_face", None), "f": ("fetch_failed", None),
    }  # fmt: skip
    assert "404" in by_reference["d"]["error"]["message"]
    assert "redirects are not followed" in by_reference["f"]["error"]["message"]
    money = (await client.get("/v3/account/wallet", headers=lender.headers)).json()
    assert (money["balance"], money["reserved"]) == (7 * FACE_PRICE, 0)

    errors_only = await client.get(
        f"/v3/fraud/bulk-scan/{started['bulk_id']}",
        params={"row_status": "error"},
        headers=lender.headers,
    )
    assert [r["reference"] for r in errors_only.json()["data"]["results"]] == ["d", "e", "f"]


async def test_private_addresses_and_unlisted_hosts_are_refused(
    client: httpx.AsyncClient, make_account: AccountFactory, app: FastAPI, image_server: str
) -> None:
    account = await make_account("sandbox")
    sheet = csv_bytes([["image_url"], [f"{image_server}/t.png"], ["http://10.1.2.3/a.jpg"]])
    started = await upload(client, account.headers, sheet, "face")
    done = await finished(client, account.headers, started["bulk_id"])
    assert [r["error"]["code"] for r in done["results"]] == ["url_refused", "url_refused"]
    assert "HAKIKI_BULK_FETCH_ALLOW_PRIVATE" in done["results"][0]["error"]["message"]

    settings = app.state.runtime.settings
    with changed(
        settings, bulk_fetch_allow_private=True, bulk_fetch_allowed_hosts=[".example.com"]
    ):
        started = await upload(client, account.headers, sheet, "face")
        done = await finished(client, account.headers, started["bulk_id"])
    assert "not in HAKIKI_BULK_FETCH_ALLOWED_HOSTS" in done["results"][0]["error"]["message"]
    with changed(settings, bulk_fetch_allow_private=True, bulk_fetch_allowed_hosts=["127.0.0.1"]):
        started = await upload(client, account.headers, sheet, "face")
        done = await finished(client, account.headers, started["bulk_id"], within=60)
    assert done["results"][0]["status"] == "success"  # the sandbox embeds for real
    assert done["results"][0]["risk"]["level"] == "LOW"


async def test_image_urls_on_ipv6_forms_of_private_addresses_are_refused(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """IPv4-compatible, NAT64, 6to4 and Teredo forms are judged by the IPv4 address they carry
    (tests/webhooks/test_urls.py): each row is refused, nothing is fetched or charged."""
    account = await make_account("live", balance=10 * FACE_PRICE)
    hosts = ["[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[::ffff:0:a9fe:a9fe]",
             "[2001:0:4136:e378:8000:63bf:3fff:fdd2]"]  # fmt: skip
    sheet = csv_bytes([["image_url"], *[[f"http://{host}/a.jpg"] for host in hosts]])
    started = await upload(client, account.headers, sheet, "face")
    done = await finished(client, account.headers, started["bulk_id"])
    assert [r["error"]["code"] for r in done["results"]] == ["url_refused"] * len(hosts)
    assert all("HAKIKI_BULK_FETCH_ALLOW_PRIVATE" in r["error"]["message"] for r in done["results"])
    assert done["charged_amount"] == 0


def test_host_lists() -> None:
    assert host_allowed("img.example.com", [".example.com"])
    assert host_allowed("example.com", [".example.com"])
    assert not host_allowed("badexample.com", [".example.com"])
    assert host_allowed("Images.Example.com.", ["images.example.com"])
    assert not host_allowed("images.example.com.evil.io", ["images.example.com"])
