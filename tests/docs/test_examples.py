"""Every example in README.md and docs/*.md runs, and prints what the page says it prints.

What a newcomer copies from the documentation must work, so this module runs the documentation
the way a newcomer does: the README's start command as a real `hakiki serve` on a fresh data
folder, then every example against it, with the real `curl` and the real `hakiki` command.

The rules (tests/docs/examples.py finds the blocks and matches outputs):

- An **example** is a fenced ```` ```bash ```` (or ``sh``) block with at least one command that
  runs ``curl`` or ``hakiki`` (directly, through ``uv run``, after a pipe or ``&&``). Other
  shell blocks (the test suite, benchmarks, environment settings) are not examples.
- An HTML comment on the line before a block, ``<!-- example: not run: REASON -->``, keeps it
  from running; it is reported as skipped with its reason, and a reason is required.
  ``<!-- example: server -->`` marks the README block that starts the server: this module runs
  that block as the server every other example calls.
- An example runs as one ``bash`` script (``set -euo pipefail``) in one working directory shared
  by every example, in document order (README.md, then docs/*.md by name), where:

  - setup commands (``pip install ...``, ``apt-get install ...``) are dropped: the test's
    environment already has what they install;
  - ``uv run [--frozen] X`` runs ``X`` from the project's environment (``uv`` is a shell
    function; the commands are the installed ``hakiki`` entry point);
  - ``http://127.0.0.1:8000`` becomes the test server's address (a free port);
  - ``hk_test_...:hks_...`` is the sandbox key the server printed on its first start, and
    ``hk_live_...:hks_...`` a live key of an approved organisation with a credited wallet
    (made with the command line); ``HAKIKI_AUTH`` is exported with the sandbox key, as the
    README's walkthrough has the reader do;
  - the repository's ``examples/`` folder (the sample files the commands use: a statement, a
    document, a selfie, a bulk CSV...) is the working directory's ``examples/``, as in the
    repository's root, where a reader pastes the commands (tests/docs/test_example_files.py:
    every file a command reads is there or written by an earlier example).

- The script must exit 0, and every ``curl`` call must answer 2xx (``curl`` is wrapped to
  report each status on stderr), except when the output shown is an error envelope
  (``{"error": ...}``): then the last call must answer that error's status.
- **Outputs.** A ```` ```json ```` or ```` ```text ```` block that follows an example with no
  other fenced block in between is that example's output and must match its standard output:

  - JSON: every document printed, in order (curl prints them back to back). An object matches
    when every key shown is there with a matching value: pages abridge objects, so keys not
    shown are allowed. A list matches item by item, with the same length, except that a
    ``...`` item stands for any number of items. ``"..."`` is any value, a string with ``...``
    in it any string with that text around it; a bare ``...`` (``[...]``, ``{"a": 1, ...}``)
    reads as ``"..."``. Numbers compare as numbers.
  - What changes on every call or deployment is compared by type only: the values of the keys
    in ``examples.VOLATILE`` (ids, request ids, transaction ids, keyed hashes, timestamps,
    durations). A page writes other changing values with ``...`` (``"reference": "scr_..."``;
    sandbox references are fixed and shown whole). Anything else a page shows must be what the
    server answers.
  - text: line by line, ``...`` inside a line stands for any text, a line ``...`` for any lines.

- A ```` ```json ```` or ```` ```text ```` block that follows no example (an event body, an
  excerpt) must be marked ``not run`` with its reason.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import IN_CI
from tests.docs.examples import (
    ROOT,
    Block,
    Example,
    examples,
    match_json,
    match_text,
    setup_stripped,
    shown_json,
)

pytestmark = pytest.mark.processes

EXAMPLES, ORPHAN_OUTPUTS = examples()
DOC_BASE_URL = "http://127.0.0.1:8000"
SANDBOX_PLACEHOLDER = "hk_test_...:hks_..."
LIVE_PLACEHOLDER = "hk_live_...:hks_..."
LIVE_ORG = "Docs examples live organisation"

# The sample files the commands use, as in the repository's root.
EXAMPLE_FILES = ROOT / "examples"

# The HTTP status of each error code of the envelope (docs/api.md, Conventions).
ERROR_STATUS = {
    "invalid_request": 400,
    "unauthorized": 401,
    "insufficient_funds": 402,
    "insufficient_scope": 403,
    "account_not_approved": 403,
    "csrf_failed": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "idempotency_conflict": 409,
    "conflict": 409,
    "rate_limited": 429,
    "channel_unavailable": 503,
    "service_unavailable": 503,
}

PRELUDE = r"""
set -euo pipefail
uv() {
  if [ "${1-}" != run ]; then echo "uv: only 'uv run' is emulated here" >&2; return 2; fi
  shift
  if [ "${1-}" = --frozen ]; then shift; fi
  "$@"
}
curl() { command curl --write-out '%{stderr}\n@@HTTP %{http_code}@@\n' "$@"; }
"""
HTTP_STATUS = re.compile(r"@@HTTP (\d{3})@@")
CURL = re.compile(r"(?m)(?:^|[|;&]|\$\()\s*curl\b")


@dataclass(frozen=True)
class Newcomer:
    """The server a newcomer started with the README, and what they have at hand."""

    workdir: Path
    base_url: str
    env: dict[str, str]
    sandbox_key: str
    live_key: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _script(text: str, newcomer: Newcomer | None = None) -> str:
    text = setup_stripped(text)
    if newcomer is not None:
        text = text.replace(DOC_BASE_URL, newcomer.base_url)
        text = text.replace(SANDBOX_PLACEHOLDER, newcomer.sandbox_key)
        text = text.replace(LIVE_PLACEHOLDER, newcomer.live_key)
    return PRELUDE + text


def _bash(script: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", script], env=env, cwd=cwd, capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip


def _server_block() -> Block:
    [server] = [example.block for example in EXAMPLES if example.block.marker == "server"]
    return server


def _hakiki_json(env: dict[str, str], cwd: Path, *args: str) -> dict[str, object]:
    done = subprocess.run(
        ["hakiki", *args, "--json"], env=env, cwd=cwd, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


# Not the worker's shared server (tests/support/served.py): this server is the README's start
# command run as a reader runs it (a fresh folder, default settings, the first start's banner and
# its pasted curl), and the examples' `hakiki` commands work on its ./hakiki-data; the shared
# server's settings (no rate limit, fake Prembly) would change what the examples show.
@pytest.fixture(scope="module")
def newcomer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Newcomer]:
    if shutil.which("curl") is None:
        message = "the documentation's examples use curl: install it (apt-get install curl)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    workdir = tmp_path_factory.mktemp("newcomer")
    shutil.copytree(EXAMPLE_FILES, workdir / "examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    port = _free_port()
    server = subprocess.Popen(
        ["bash", "-c", _script(_server_block().text)],
        env={**env, "HAKIKI_PORT": str(port)},
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # bash and the server it starts: one process group to stop
    )
    try:
        assert server.stdout is not None
        printed = ""
        deadline = time.monotonic() + 120
        while "Hakiki is answering on" not in printed:
            assert time.monotonic() < deadline, printed
            line = server.stdout.readline()
            assert line or server.poll() is None, printed
            printed += line
        # The README: the first start creates ./hakiki-data and prints a sandbox key with a
        # ready-to-paste curl, which works.
        assert (workdir / "hakiki-data" / "hakiki.db").exists(), printed
        client_id = re.search(r"client_id: (hk_test_\S+)", printed)
        secret = re.search(r"secret:\s+(hks_\S+)", printed)
        pasted = re.search(r"^ *(curl -s .*?)\n\n", printed, re.MULTILINE | re.DOTALL)
        assert client_id and secret and pasted, printed
        # Keep draining the server's output: a full pipe would block it on its access log.
        threading.Thread(target=server.stdout.read, daemon=True).start()
        # uvicorn says "startup complete" before it binds the socket: on a loaded machine the
        # pasted curl could otherwise knock before anyone listens (curl exit 7, HTTP 000).
        _wait_until_listening(port, server)
        sandbox_key = f"{client_id.group(1)}:{secret.group(1)}"
        env["HAKIKI_AUTH"] = f"Authorization: Bearer {sandbox_key}"
        demo = _bash(PRELUDE + pasted.group(1), env, workdir)
        assert demo.returncode == 0 and HTTP_STATUS.findall(demo.stderr) == ["200"], demo
        assert json.loads(demo.stdout)["status"] == "VERIFIED", demo.stdout

        # A live key, as an operator makes one (README, Operator commands).
        _hakiki_json(env, workdir, "orgs", "create", LIVE_ORG, "--approved")
        live = _hakiki_json(env, workdir, "keys", "create", "--org", LIVE_ORG, "--env", "live")
        _hakiki_json(env, workdir, "wallet", "credit", "--org", LIVE_ORG, "--amount", "1000000")
        yield Newcomer(
            workdir=workdir,
            base_url=f"http://127.0.0.1:{port}",
            env=env,
            sandbox_key=sandbox_key,
            live_key=f"{live['client_id']}:{live['secret']}",
        )
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _wait_until_listening(port: int, server: subprocess.Popen[str], within: float = 60) -> None:
    deadline = time.monotonic() + within
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert server.poll() is None, "the server exited before it listened"
            assert time.monotonic() < deadline, f"nothing listens on port {port}"
            time.sleep(0.05)


def _expected_statuses(example: Example, calls: int) -> list[int] | None:
    """None: every call 2xx; else the status each call must answer."""
    if example.output is None or example.output.lang != "json":
        return None
    shown = shown_json(example.output.text)
    if len(shown) == 1 and isinstance(shown[0], dict) and "error" in shown[0]:
        return [200] * (calls - 1) + [ERROR_STATUS[shown[0]["error"]]]
    return None


def _id(example: Example) -> str:
    return example.block.where


@pytest.mark.parametrize("example", EXAMPLES, ids=_id)
def test_example(example: Example, newcomer: Newcomer) -> None:
    block = example.block
    if block.marker == "server":
        return  # it is running: the newcomer fixture started it and called it
    if block.marker is not None:
        reason = block.not_run
        assert reason, f"{block.where}: unknown marker {block.marker!r} (or no reason given)"
        pytest.skip(f"{block.where}: not run: {reason}")
    done = _bash(_script(block.text, newcomer), newcomer.env, newcomer.workdir)
    context = f"{block.where}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    assert done.returncode == 0, context
    statuses = [int(status) for status in HTTP_STATUS.findall(done.stderr)]
    if CURL.search(block.text):
        assert statuses, context
    expected = _expected_statuses(example, len(statuses))
    if expected is None:
        assert all(200 <= status < 300 for status in statuses), (statuses, context)
    else:
        assert statuses[-1] == expected[-1], (statuses, context)
        assert all(200 <= status < 300 for status in statuses[:-1]), (statuses, context)
    if example.output is not None:
        check = match_json if example.output.lang == "json" else match_text
        check(example.output.text, done.stdout)


def test_every_output_shown_is_checked_or_says_why_not() -> None:
    unexplained = [block.where for block in ORPHAN_OUTPUTS if not block.not_run]
    assert not unexplained, (
        "outputs that follow no example: put them right after the example that prints them, "
        f"or mark them <!-- example: not run: REASON -->: {unexplained}"
    )


def test_there_is_one_server_and_the_examples_are_found() -> None:
    assert _server_block().path.name == "README.md"
    names = {example.block.path.name for example in EXAMPLES}
    assert {"README.md", "api.md", "lists.md", "jobs.md", "adverse-media.md"} <= names
    shown = [example for example in EXAMPLES if example.output is not None]
    assert len(EXAMPLES) >= 20 and len(shown) >= 8
