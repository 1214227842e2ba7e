"""The data directory is owner-only: created 0700 with every file 0600 (the SQLite database, its
WAL and shared memory, the generated secret key), and tightened on start when found wider."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hakiki.account import service as accounts
from hakiki.core.data_dir import secure_data_dir
from hakiki.core.migrate import upgrade_async
from hakiki.core.settings import Settings
from hakiki.runtime import started


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def modes(data_dir: Path) -> dict[str, int]:
    """Every path under ``data_dir`` (and itself, as "."), with its permission bits."""
    found = {".": mode(data_dir)}
    for path in data_dir.rglob("*"):
        found[str(path.relative_to(data_dir))] = mode(path)
    return found


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The common umask, 022: left to it, files would be created 0644 and folders 0755."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


async def test_a_new_data_directory_is_owner_only(tmp_path: Path) -> None:
    data_dir = tmp_path / "new" / "hakiki-data"
    settings = Settings(data_dir=data_dir)  # SQLite, and a key generated into secret.key
    await upgrade_async(settings)
    async with started(settings, run_jobs=False) as runtime:
        await accounts.create_org(runtime.db, "private", currency="KES")
        while_running = modes(data_dir)
    assert {"hakiki.db", "hakiki.db-wal", "hakiki.db-shm", "secret.key"} <= set(while_running)
    assert while_running.pop(".") == 0o700
    assert while_running == dict.fromkeys(while_running, 0o600)
    after = modes(data_dir)  # stopped: the WAL checkpointed and removed
    assert after.pop(".") == 0o700 and after == dict.fromkeys(after, 0o600)


async def test_wider_modes_are_tightened_on_start_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A data directory left wide by another tool or an older release (0755, files 0644)."""
    data_dir = tmp_path / "hakiki-data"
    data_dir.mkdir(mode=0o755)
    (data_dir / "secret.key").write_text("an-older-release-wrote-this-key-0123456789")
    settings = Settings(data_dir=data_dir)
    await upgrade_async(settings)
    database = data_dir / "hakiki.db"
    os.chmod(database, 0o644)
    snapshot = data_dir / "lists" / "un_sc_consolidated" / "2024-01-01"
    snapshot.mkdir(parents=True)
    (snapshot / "xml.gz").write_bytes(b"\x1f\x8b")
    os.chmod(snapshot / "xml.gz", 0o755)  # executable too
    assert mode(data_dir) == 0o755 and mode(database) == mode(data_dir / "secret.key") == 0o644

    with caplog.at_level(logging.WARNING, logger="hakiki.data_dir"):
        async with started(settings, run_jobs=False) as runtime:
            await accounts.create_org(runtime.db, "tightened", currency="KES")
            found = modes(data_dir)
    directories = {".", "lists", "lists/un_sc_consolidated", "lists/un_sc_consolidated/2024-01-01"}
    assert {name: found[name] for name in directories} == dict.fromkeys(directories, 0o700)
    files = {name: bits for name, bits in found.items() if name not in directories}
    assert {"hakiki.db", "hakiki.db-wal", "hakiki.db-shm", "secret.key"} <= set(files)
    assert files == dict.fromkeys(files, 0o600)
    [message] = [r.getMessage() for r in caplog.records if r.name == "hakiki.data_dir"]
    assert "tightened the permissions of 7 path(s)" in message, message
    assert "secret.key" in message and "hakiki.db" in message

    assert secure_data_dir(data_dir) == []  # nothing left to tighten, nothing logged again


def test_links_are_not_followed_out_of_the_data_directory(tmp_path: Path) -> None:
    outside = tmp_path / "shared.txt"
    outside.write_text("not ours")
    os.chmod(outside, 0o644)
    data_dir = tmp_path / "hakiki-data"
    data_dir.mkdir(mode=0o700)
    (data_dir / "link").symlink_to(outside)
    assert secure_data_dir(data_dir) == []
    assert mode(outside) == 0o644


def test_a_missing_data_directory_is_not_created_by_the_check(tmp_path: Path) -> None:
    """With PostgreSQL and a configured key nothing is written there, so none is made."""
    assert secure_data_dir(tmp_path / "absent") == []
    assert not (tmp_path / "absent").exists()
