"""bench/scaled_netns.py in small: three API processes and two workers, each in a network
namespace of its own, on one PostgreSQL and one wallet; the money adds up exactly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import IN_CI, POSTGRES_URL, REDIS_URL, require_postgres, require_redis

# Network namespaces and a fixed-rate load: alone.
pytestmark = [pytest.mark.alone, pytest.mark.processes]

ROOT = Path(__file__).resolve().parent.parent


def require_namespaces() -> None:
    """Skip locally, fail under CI=true (CI runs as root), without root or ``ip``."""
    missing = "root" if os.geteuid() != 0 else "`ip`" if not shutil.which("ip") else None
    if missing is None:
        return
    if IN_CI:
        pytest.fail(f"CI=true but {missing} is missing: network namespaces cannot be made")
    pytest.skip(f"network namespaces need {missing}")


@pytest.mark.postgresql
def test_three_servers_two_workers_in_namespaces_charge_each_call_once(tmp_path: Path) -> None:
    require_namespaces()
    require_postgres()
    require_redis()
    out = tmp_path / "scaled_netns.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    env |= {"HAKIKI_TEST_POSTGRES_URL": POSTGRES_URL, "HAKIKI_TEST_REDIS_URL": REDIS_URL}
    command = [sys.executable, "bench/scaled_netns.py", "--duration", "2", "--connections", "2"]
    command += ["--requests", "120", "--replays", "3", "--no-ceiling", "--output", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    live = result["live_aml_with_id_3_servers"]
    book = result["ledger"]
    assert result["checks"] == dict.fromkeys(result["checks"], True), result
    assert live["statuses"] == {"200": live["requests"]}
    assert live["requests"] == live["fresh_charged"] + live["replayed"]
    assert live["replayed"] > 0  # the client's retries were answered, not charged again
    assert book["debits"] == live["fresh_charged"] > 0
    assert book["credits"] + book["debited"] == book["balance"]
    assert book["debited"] == -book["debits"] * 5000  # 50.00 KES per combined screening
    assert result["replayed_on_other_servers"] == {"replayed": 3 * 3 * 2}
    # Nothing the run made is left behind.
    spaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert result["namespaces"]
    assert not set(result["namespaces"]) & set(spaces.split())
