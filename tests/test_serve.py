"""`hakiki serve`'s first start on a data directory, as one real process that the tests of this
file share: it creates a demo organisation and prints a curl that works; its access log shows no
query values (an identity number sent as `?identifier=`) nor the tokens of e-mailed links; and
its data directory, found with wide modes, is tightened on start to 0700 with every file 0600
(the database, its WAL and shared memory, the secret key, the screening index cache)."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.cli import free_port, hakiki_env, invoke, start_serve, stop_serve
from tests.support.process_output import Output

pytestmark = pytest.mark.processes

IDENTITY_NUMBER = "31415926"


@dataclass
class FirstStart:
    env: dict[str, str]
    data_dir: Path
    url: str
    log: Output

    def demo_headers(self) -> dict[str, str]:
        output = self.log.text
        client_id = re.search(r"client_id: (\S+)", output)
        secret = re.search(r"secret:\s+(\S+)", output)
        assert client_id and secret, output
        return {"Authorization": f"Bearer {client_id.group(1)}:{secret.group(1)}"}


def _left_wide_open(data_dir: Path) -> None:
    """A data directory and secret key as an older release left them: readable by all."""
    data_dir.mkdir(mode=0o755)
    os.chmod(data_dir, 0o755)
    key_file = data_dir / "secret.key"
    key_file.write_text("a-key-an-older-release-left-readable-0123456789")
    os.chmod(key_file, 0o644)


@pytest.fixture(scope="module")
def first_start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FirstStart]:
    data_dir = tmp_path_factory.mktemp("first-start") / "hakiki-data"
    _left_wide_open(data_dir)
    env = hakiki_env(data_dir)
    port = free_port()
    log = start_serve(env, "--port", str(port), umask=0o022)  # the usual umask: files 0644
    try:
        log.wait_for("Hakiki is answering on", timeout=60)  # the banner, once it answers
        yield FirstStart(env, data_dir, f"http://127.0.0.1:{port}", log)
    finally:
        stop_serve(log)


# First: the other test writes to the data directory from this process.
def test_serve_masks_query_values_and_keeps_its_data_private(first_start: FirstStart) -> None:
    response = httpx.get(
        f"{first_start.url}/v3/fraud/reports",
        params={"identifier": IDENTITY_NUMBER, "page": 1},
        headers=first_start.demo_headers(),
        timeout=10,
    )
    assert response.status_code == 200, response.text
    data_dir = first_start.data_dir
    running = {
        str(path.relative_to(data_dir)): stat.S_IMODE(path.stat().st_mode)
        for path in data_dir.rglob("*")
    }
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert {"hakiki.db", "hakiki.db-wal", "hakiki.db-shm", "secret.key"} <= set(running)
    # Files 0600, folders (the screening index cache's) 0700.
    assert running == {p: 0o700 if (data_dir / p).is_dir() else 0o600 for p in running}
    output = first_start.log.wait_for('"GET /v3/fraud/reports?identifier=*&page=* HTTP/1.1" 200')
    assert IDENTITY_NUMBER not in output, output
    assert "tightened the permissions of 2 path(s)" in output, output


def test_serve_masks_the_tokens_of_emailed_links(first_start: FirstStart) -> None:
    token = "Zk3-_" * 8 + "q7w"  # what secrets.token_urlsafe(32) gives: 43 characters
    for path in (f"/console/reset/{token}", f"/invitations/{token}"):
        answer = httpx.get(f"{first_start.url}{path}", timeout=10)
        assert answer.status_code in (404, 410), answer.text
    output = first_start.log.wait_for('"GET /invitations/* HTTP/1.1"')
    assert '"GET /console/reset/* HTTP/1.1" 404' in output, output
    assert token not in output, output


def test_serve_first_start_prints_a_working_demo_curl(first_start: FirstStart) -> None:
    assert "curl -s http://127.0.0.1:" in first_start.log.text
    response = httpx.post(
        f"{first_start.url}/v3/screening/aml-with-id",
        json={"channel": "bvn", "number": "22222222210"},
        headers=first_start.demo_headers(),
        timeout=10,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "VERIFIED" and body["live"] is False
    assert [h["check"] for h in body["data"]["aml"]["hits"]] == ["pep"]
    assert httpx.get(f"{first_start.url}/docs", timeout=10).status_code == 200
    # The demo organisation is stored: a later start finds it and creates no second one.
    second = invoke(first_start.env, "orgs", "create", "demo")
    assert second.exit_code == 1 and "exists" in second.stderr
