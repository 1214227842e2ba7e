"""The reading limits in a real ``hakiki serve`` process (its job worker in it): files are read
in children of the server's forkserver, a bomb is refused naming the limit and the server does
not take the memory, a file that keeps the parser busy is cut off at the time limit without
pypdf's warning per entry in the server's log, and a statement is still analysed to the end."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest

from tests.statements import documents as d
from tests.statements import hostile
from tests.support.cli import free_port, hakiki_env, start_serve, stop_serve
from tests.support.consent import CONSENT_FORM

pytestmark = pytest.mark.processes


def resident_peak(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    assert found, status
    return int(found.group(1)) * 1024


def test_hakiki_serve_reads_statements_in_confined_children(tmp_path: Path) -> None:
    env = {
        **hakiki_env(tmp_path / "data"),
        "HAKIKI_STATEMENT_READER_MEMORY_MB": "256",
        "HAKIKI_STATEMENT_READER_CHECK_SECONDS": "3",
    }
    port = free_port()
    log = start_serve(env, "--port", str(port))
    try:
        log.wait_for("Hakiki is answering on", timeout=60)
        client_id = re.search(r"client_id: (\S+)", log.text)
        secret = re.search(r"secret:\s+(\S+)", log.text)
        assert client_id and secret, log.text
        headers = {"Authorization": f"Bearer {client_id.group(1)}:{secret.group(1)}"}
        url = f"http://127.0.0.1:{port}/v3/statements"

        def upload(data: bytes) -> httpx.Response:
            files = {"file": ("s.pdf", data, "application/pdf")}
            form = {"consent": CONSENT_FORM}
            return httpx.post(f"{url}/analyze", files=files, data=form, headers=headers, timeout=60)

        started = upload(d.mpesa_pdf(d.mpesa_rows(40)))
        assert started.status_code == 202, started.text
        before = resident_peak(log.process.pid)
        for bomb in (hostile.chained_bomb(400 * 2**20), hostile.xref_bomb()):
            refused = upload(bomb)
            assert refused.status_code == 400, refused.text
            assert refused.json()["details"][0] == {"field": "file", "problem": "too_large"}
        assert resident_peak(log.process.pid) < before + 100 * 2**20  # not the 400 MB
        slow = upload(hostile.xref_bomb(150_000))  # under the object limit, walked for 6 s
        assert "longer than the 3 s" in slow.json()["message"], slow.text
        assert "not defined" not in log.text  # pypdf's warning per entry, 877k lines in 7 min
        analysis_id = started.json()["data"]["analysis_id"]
        deadline = time.monotonic() + 60
        while (done := httpx.get(f"{url}/{analysis_id}", headers=headers).json()["data"])[
            "state"
        ] not in (
            "completed",
            "failed",
        ):
            assert time.monotonic() < deadline, done
            time.sleep(0.1)
        assert done["state"] == "completed" and done["progress"] == 100, done
    finally:
        stop_serve(log)
