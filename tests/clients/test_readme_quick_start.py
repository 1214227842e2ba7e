"""The README's quick start uses the Python client: its block, run as written (the sandbox key
and the server's address put in), against a real `hakiki serve`, prints what its comments say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import unique
from tests.support.served import Served

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]


def _quick_start() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Quick start with the Python client") :]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "no python block in the quick start"
    return match.group(1)


def test_the_readme_quick_start_runs_as_written(served: Served) -> None:
    code = _quick_start()
    organisation = unique("quick-start")
    served.organisation(organisation)
    bearer = served.key(organisation)["Authorization"].removeprefix("Bearer ")
    client_id, secret = bearer.split(":", 1)
    code = code.replace('"hk_test_..."', repr(client_id)).replace('"hks_..."', repr(secret))
    code = code.replace("http://127.0.0.1:8000", served.url)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "clients" / "python" / "src")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    promised = [m.strip() for m in re.findall(r"# (VERIFIED .*|400 .*)$", code, re.MULTILINE)]
    assert printed[0] == promised[0] and printed[2] == promised[1], printed
    assert re.fullmatch(r"5 of \d+ channels", printed[1]), printed
