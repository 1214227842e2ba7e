"""`hakiki` commands for tests: in this process with click's runner (no interpreter to start,
no imports to repeat), or as a real process for the few smoke tests that prove the installed
command works end to end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner, Result

from hakiki.cli import main
from hakiki.core.settings import get_settings
from tests.support.process_output import Output

HAKIKI = [sys.executable, "-m", "hakiki"]


def hakiki_env(data_dir: Path) -> dict[str, str]:
    """This process's environment without its ``HAKIKI_`` settings, on ``data_dir``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    env["HAKIKI_DATA_DIR"] = str(data_dir)
    return env


def invoke(env: Mapping[str, str], *args: str, stdin: str | None = None) -> Result:
    """``hakiki ARGS`` in this process, seeing the ``HAKIKI_`` variables of ``env`` and no
    others, as a process started with ``env`` would; ``.exit_code``, ``.stdout``, ``.stderr``."""
    hidden: dict[str, str | None] = {n: None for n in os.environ if n.startswith("HAKIKI_")}
    get_settings.cache_clear()  # each command reads its settings afresh, as a new process does
    try:
        return CliRunner().invoke(
            main, list(args), input=stdin, env={**hidden, **env}, catch_exceptions=False
        )
    finally:
        get_settings.cache_clear()


def run(env: Mapping[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``hakiki ARGS`` as a real process."""
    return subprocess.run(
        [*HAKIKI, *args], env=env, input=stdin, capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip


def start_serve(env: Mapping[str, str], *args: str, umask: int = -1) -> Output:
    """``hakiki serve ARGS`` as a real process; its merged output, read on a thread."""
    process = subprocess.Popen(
        [*HAKIKI, "serve", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        umask=umask,
    )
    return Output(process)


def stop_serve(log: Output, timeout: float = 30) -> None:
    log.process.terminate()
    log.process.wait(timeout=timeout)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
