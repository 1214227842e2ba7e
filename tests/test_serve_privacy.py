"""`hakiki serve` as a real process: its access log shows no query values (an identity number
sent as `?identifier=`), and its data directory, found with wide modes, is tightened on start to
0700 with every file 0600 (the database, its WAL and shared memory, the secret key)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

import httpx

from tests.support.process_output import Output
from tests.test_cli import HAKIKI, _free_port

IDENTITY_NUMBER = "31415926"


def test_serve_masks_query_values_and_keeps_its_data_private(cli_env: dict[str, str]) -> None:
    data_dir = Path(cli_env["HAKIKI_DATA_DIR"])
    data_dir.mkdir(mode=0o755)
    os.chmod(data_dir, 0o755)
    key_file = data_dir / "secret.key"
    key_file.write_text("a-key-an-older-release-left-readable-0123456789")
    os.chmod(key_file, 0o644)
    port = _free_port()
    process = subprocess.Popen(
        [*HAKIKI, "serve", "--port", str(port)],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        umask=0o022,  # the usual one: left to it, files would be 0644
    )
    log = Output(process)
    try:
        output = log.wait_for("Hakiki is answering on", timeout=60)
        client_id = re.search(r"client_id: (\S+)", output)
        secret = re.search(r"secret:\s+(\S+)", output)
        assert client_id and secret, output
        headers = {"Authorization": f"Bearer {client_id.group(1)}:{secret.group(1)}"}
        response = httpx.get(
            f"http://127.0.0.1:{port}/v3/fraud/reports",
            params={"identifier": IDENTITY_NUMBER, "page": 1},
            headers=headers,
            timeout=10,
        )
        assert response.status_code == 200, response.text
        running = {
            str(path.relative_to(data_dir)): stat.S_IMODE(path.stat().st_mode)
            for path in data_dir.rglob("*")
        }
        directory = stat.S_IMODE(data_dir.stat().st_mode)
    finally:
        process.terminate()
        process.wait(timeout=30)
    output = log.rest()
    assert '"GET /v3/fraud/reports?identifier=*&page=* HTTP/1.1" 200' in output, output
    assert IDENTITY_NUMBER not in output, output
    assert "tightened the permissions of 2 path(s)" in output, output
    assert directory == 0o700
    assert {"hakiki.db", "hakiki.db-wal", "hakiki.db-shm", "secret.key"} <= set(running)
    # Files 0600, folders (the screening index cache's) 0700.
    assert running == {p: 0o700 if (data_dir / p).is_dir() else 0o600 for p in running}
