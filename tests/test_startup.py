"""What makes Hakiki start fast: cheap imports, a lazy command line, the schema check without
Alembic, no screening engine where nothing screens, and a banner printed once the server
answers (the timings themselves are measured by bench/startup.py)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from fastapi import FastAPI

import hakiki.runtime
from hakiki.cli import LAZY_SUBCOMMANDS, main
from hakiki.core import migrate
from hakiki.core.settings import Settings
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.sandbox import sandbox_snapshots
from tests.support.process_output import Output

HAKIKI = [sys.executable, "-m", "hakiki"]


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_version_and_help_import_no_command() -> None:
    loaded = _modules_after(
        "from hakiki.cli import main\n"
        "for args in (['--version'], ['--help']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass"
    )
    heavy = {"sqlalchemy", "fastapi", "pydantic", "alembic", "uvicorn", "hakiki.core.settings"}
    assert not heavy & loaded
    assert not {target.target.split(":")[0] for target in LAZY_SUBCOMMANDS.values()} & loaded


def test_help_lists_every_command_with_its_own_short_help() -> None:
    listed = CliRunner().invoke(main, ["--help"])
    assert listed.exit_code == 0, listed.output
    context = main.make_context("hakiki", ["--help"], resilient_parsing=True)
    for name, entry in LAZY_SUBCOMMANDS.items():
        command = main.get_command(context, name)
        assert command is not None and command.name == name
        # The table's help is what the command says of itself, so --help need not import it.
        assert command.get_short_help_str(limit=200) == entry.short_help
        assert re.search(rf"^  {name} +{re.escape(entry.short_help)}$", listed.output, re.M)
    for name in ("migrate", "serve", "orgs", "keys", "wallet", "lists", "screen", "worker"):
        assert re.search(rf"^  {name} ", listed.output, re.M), name


def test_a_lazy_subcommand_runs_its_own_help() -> None:
    result = CliRunner().invoke(main, ["users", "create", "--help"])
    assert result.exit_code == 0, result.output
    assert "--org" in result.output and "--role" in result.output


def test_the_app_import_leaves_what_only_some_calls_need_for_later() -> None:
    loaded = _modules_after("import hakiki.app")
    later = {"phonenumbers.geocoder", "phonenumbers.carrier", "redis", "aiohttp", "pypdf"}
    later |= {"rapidocr_onnxruntime", "onnxruntime", "cv2"}
    assert not later & loaded


# ---------------------------------------------------------------------------------------------
# The schema check


def test_the_newest_revision_is_alembics_head(tmp_path: Path) -> None:
    from alembic.script import ScriptDirectory

    config = migrate.alembic_config(Settings(data_dir=tmp_path))
    assert migrate.newest_revision() == ScriptDirectory.from_config(config).get_current_head()


def test_a_current_sqlite_file_skips_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(data_dir=tmp_path)
    upgrades: list[Settings] = []
    real_upgrade = migrate.upgrade

    def counted(chosen: Settings) -> None:
        upgrades.append(chosen)
        real_upgrade(chosen)

    monkeypatch.setattr(migrate, "upgrade", counted)
    migrate.upgrade_unless_current(settings)  # no file yet: Alembic creates the schema
    assert len(upgrades) == 1 and migrate.sqlite_revision(settings) == migrate.newest_revision()
    migrate.upgrade_unless_current(settings)
    assert len(upgrades) == 1
    monkeypatch.setattr(migrate, "newest_revision", lambda: "9999_a_newer_one")
    migrate.upgrade_unless_current(settings)  # behind: Alembic runs
    assert len(upgrades) == 2


# ---------------------------------------------------------------------------------------------
# The screening engine only where something screens


def _small_engine() -> ScreeningEngine:
    return ScreeningEngine(sandbox_snapshots())


async def test_a_lazy_live_engine_is_loaded_once_at_its_first_use() -> None:
    loads: list[ScreeningEngine] = []

    def load() -> ScreeningEngine:
        loads.append(_small_engine())
        return loads[-1]

    engines = ScreeningEngines.loading(load, _small_engine())
    assert not engines.live_loaded
    assert await engines.for_environment(False) is engines.sandbox and not loads
    first, second = await asyncio.gather(engines.for_environment(True), engines.load_live())
    assert first is second is loads[0] and len(loads) == 1 and engines.live is first


async def test_a_worker_never_loads_the_screening_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(data_dir=tmp_path)  # its own empty database: no one else's jobs
    await asyncio.to_thread(migrate.upgrade, settings)
    loads: list[Settings] = []
    monkeypatch.setattr(hakiki.runtime, "load_current_engine", lambda s, **_: loads.append(s))
    stop = asyncio.Event()
    await hakiki.runtime.work(settings, stop, stop.set)  # ready, then stopped at once
    assert loads == []


@pytest.mark.processes
async def test_the_server_loads_the_screening_engine_at_start(app: FastAPI) -> None:
    runtime = app.state.runtime
    assert runtime.part(ScreeningEngines).live_loaded


# ---------------------------------------------------------------------------------------------
# The banner


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.processes
def test_the_banner_is_printed_once_the_server_answers(cli_env: dict[str, str]) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [*HAKIKI, "serve", "--port", str(port), "--workers", "2"],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log = Output(process)
    try:
        output = log.wait_for("Hakiki is answering on", timeout=120)
        # At the moment the line is printed, its URL already answers: no retry, no wait.
        ready = re.search(r"Hakiki is answering on (\S+): the console at (\S+),", output)
        assert ready, output
        base_url, console_url = ready.groups()
        assert base_url == f"http://127.0.0.1:{port}" and console_url == f"{base_url}/console/"
        assert httpx.get(f"{base_url}/healthz", timeout=5).status_code == 200
        assert httpx.get(console_url, timeout=5).status_code < 400
        key = re.search(r"client_id: (\S+)\n\s+secret:\s+(\S+)", output)
        assert key, output
        curl = re.search(r"curl -s (\S+) ", output)
        assert curl and curl.group(1) == f"{base_url}/v3/screening/aml-with-id", output
        command = re.search(r"^\s+(hakiki users create .+)$", output, re.M)
        assert command, output
        log.wait_for("Application startup complete", timeout=120, count=2)  # both workers
        assert log.text.count("Hakiki is answering on") == 1
        assert log.text.count("client_id:") == 1
        # The command the banner shows works as printed.
        made = subprocess.run(
            [*HAKIKI, *command.group(1).split()[1:]],
            env=cli_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert made.returncode == 0, made.stderr
        assert "created owner you@example.com in demo" in made.stdout
    finally:
        process.terminate()
        process.wait(timeout=30)
