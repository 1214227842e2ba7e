"""The SQLite write gate: writers of several processes queue at a lock file beside the
database instead of polling SQLite's write lock; the other process here is a real one."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from hakiki.core.database import Database, _write_gate, create_database, transaction
from hakiki.core.settings import Settings
from hakiki.core.write_gate import WriteGate

HOLDER = textwrap.dedent(
    """
    import fcntl, os, sys
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    print("held", flush=True)
    sys.stdin.readline()  # a line lets go; the end of stdin (or being killed) too
    """
)
COUNTER = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from sqlalchemy import text
    from hakiki.core.database import create_database, transaction
    from hakiki.core.settings import Settings

    async def main() -> None:
        db = create_database(Settings(data_dir=Path(sys.argv[1]), secret_key="k" * 40))
        async def add() -> None:
            for _ in range(100):
                async with transaction(db) as conn:
                    value = (await conn.execute(text("SELECT n FROM counter"))).scalar_one()
                    await asyncio.sleep(0)  # another writer of this process gets a turn
                    await conn.execute(text("UPDATE counter SET n = :n"), {"n": value + 1})
        await asyncio.gather(*(add() for _ in range(4)))
        await db.dispose()

    asyncio.run(main())
    """
)


def _database(tmp_path: Path) -> Database:
    return create_database(Settings(data_dir=tmp_path, secret_key="k" * 40))


def _lock_file(db: Database) -> Path:
    assert db.gate is not None
    return db.gate._lock_file


@contextmanager
def _held_elsewhere(lock_file: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the gate's lock until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock_file)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def _free_elsewhere(lock_file: Path) -> bool:
    """Whether another process could take the lock now."""
    probe = (
        "import fcntl, os, sys;"
        "fcntl.flock(os.open(sys.argv[1], os.O_RDWR), fcntl.LOCK_EX | fcntl.LOCK_NB)"
    )
    return subprocess.run([sys.executable, "-c", probe, str(lock_file)]).returncode == 0


async def _write(db: Database, value: str) -> None:
    async with transaction(db) as conn:
        await conn.execute(text("INSERT INTO t (v) VALUES (:v)"), {"v": value})


async def _table(db: Database) -> None:
    async with transaction(db) as conn:
        await conn.execute(text("CREATE TABLE t (v TEXT)"))


async def test_a_writer_waits_for_the_other_process_off_the_event_loop(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        await _table(db)
        lock_file = _lock_file(db)
        assert stat.S_IMODE(lock_file.stat().st_mode) == 0o600
        with _held_elsewhere(lock_file) as holder:
            writing = asyncio.create_task(_write(db, "after"))
            ticks = 0
            for _ in range(20):  # the loop stays free while the write waits
                await asyncio.sleep(0.01)
                ticks += 1
            assert not writing.done() and ticks == 20
            released = time.monotonic()
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.flush()
            await asyncio.wait_for(writing, 5)
            assert time.monotonic() - released < 1.0  # handed over, not found by polling
        assert _free_elsewhere(lock_file)  # let go once committed
        async with db.reader.connect() as conn:
            assert (await conn.execute(text("SELECT v FROM t"))).scalars().all() == ["after"]
    finally:
        await db.dispose()


async def test_a_holder_that_dies_lets_the_writers_through(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        await _table(db)
        with _held_elsewhere(_lock_file(db)) as holder:
            writing = asyncio.create_task(_write(db, "x"))
            await asyncio.sleep(0.1)
            assert not writing.done()
            holder.kill()
            await asyncio.wait_for(writing, 5)
    finally:
        await db.dispose()


async def test_a_wait_past_the_limit_fails_and_the_gate_recovers(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        await _table(db)
        lock_file = _lock_file(db)
        assert db.gate is not None
        db.gate._wait_seconds = 0.2
        with _held_elsewhere(lock_file):
            with pytest.raises(OperationalError, match="database is locked"):
                await _write(db, "late")
            queued = asyncio.create_task(_write(db, "queued"))  # behind the waiting thread
            await asyncio.sleep(0.05)
            assert not queued.done()
        await asyncio.wait_for(queued, 5)  # the thread got the lock, let go, the queue moved
        await _write(db, "next")
        assert _free_elsewhere(lock_file)
        async with db.reader.connect() as conn:
            rows = (await conn.execute(text("SELECT v FROM t"))).scalars().all()
        assert rows == ["queued", "next"]
    finally:
        await db.dispose()


async def test_a_writer_of_this_process_waits_its_turn_for_a_limited_time(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        await _table(db)
        assert db.gate is not None
        db.gate._wait_seconds = 0.2
        async with transaction(db) as conn:  # holds this process's turn
            await conn.execute(text("INSERT INTO t (v) VALUES ('first')"))
            with pytest.raises(OperationalError, match="database is locked"):
                await _write(db, "too late")  # a 503, not a hang
        await _write(db, "after")
        async with db.reader.connect() as conn:
            rows = (await conn.execute(text("SELECT v FROM t"))).scalars().all()
        assert rows == ["first", "after"]
    finally:
        await db.dispose()


async def test_a_cancelled_wait_leaves_nothing_held(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        await _table(db)
        lock_file = _lock_file(db)
        with _held_elsewhere(lock_file):
            writing = asyncio.create_task(_write(db, "cancelled"))
            await asyncio.sleep(0.1)
            writing.cancel()
            with pytest.raises(asyncio.CancelledError):
                await writing
        await asyncio.wait_for(_write(db, "then"), 5)
        assert _free_elsewhere(lock_file)
        async with db.reader.connect() as conn:
            assert (await conn.execute(text("SELECT v FROM t"))).scalars().all() == ["then"]
    finally:
        await db.dispose()


@pytest.mark.processes
async def test_two_processes_writing_one_file_lose_no_update(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        async with transaction(db) as conn:
            await conn.execute(text("CREATE TABLE counter (n INTEGER)"))
            await conn.execute(text("INSERT INTO counter VALUES (0)"))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        processes = [
            await asyncio.create_subprocess_exec(
                sys.executable, "-c", COUNTER, str(tmp_path), env=env
            )
            for _ in range(2)
        ]
        codes = await asyncio.wait_for(asyncio.gather(*(p.wait() for p in processes)), 120)
        assert codes == [0, 0]
        async with db.reader.connect() as conn:
            assert (await conn.execute(text("SELECT n FROM counter"))).scalar_one() == 800
    finally:
        await db.dispose()


async def test_closing_during_a_wait_closes_after_it(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        await _table(db)
        lock_file = _lock_file(db)
        assert db.gate is not None
        with _held_elsewhere(lock_file):
            writing = asyncio.create_task(_write(db, "x"))
            await asyncio.sleep(0.1)
            db.gate.close()  # the thread still waits on the descriptor: it stays open
            assert db.gate._opened is not None
        await asyncio.wait_for(writing, 5)
        await asyncio.sleep(0.01)  # the close that waited for the thread runs
        assert db.gate._opened is None
        assert _free_elsewhere(lock_file)
    finally:
        await db.dispose()


async def test_a_forked_child_queues_behind_its_parent(tmp_path: Path) -> None:
    gate = WriteGate(tmp_path / "x.write-lock", 5.0)
    async with gate.held():  # the parent holds the lock while it forks
        child = os.fork()
        if child == 0:  # pragma: no cover - the child's result is its exit status
            os._exit(0 if not gate._take_now() else 1)  # its own file: it must not get in
        _, status = await asyncio.to_thread(os.waitpid, child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    gate.close()


def test_databases_without_a_file_have_no_gate(tmp_path: Path) -> None:
    assert _write_gate(":memory:") is None and _write_gate("file:x?mode=memory") is None
    gate = WriteGate(tmp_path / "x.write-lock", 1.0)
    gate.close()  # never opened: nothing to close
    assert not (tmp_path / "x.write-lock").exists()


STOPPED_WHILE_WAITING = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from hakiki.core.write_gate import WriteGate

    async def main() -> None:
        gate = WriteGate(Path(sys.argv[1]), 60.0)
        async def write() -> None:
            async with gate.held():
                pass
        writing = asyncio.create_task(write())
        await asyncio.sleep(0.3)  # waiting in the gate's thread for the other process
        assert not writing.done()
        writing.cancel()  # as `hakiki worker` cancels its chores on SIGTERM
        try:
            await writing
        except asyncio.CancelledError:
            pass
        gate.close()
        print("cancelled", flush=True)

    asyncio.run(main())
    """
)


def test_a_process_stopped_while_its_write_waits_exits_at_once(tmp_path: Path) -> None:
    """A worker stopped (SIGTERM) while a write of its own waited at the gate took as long to
    exit as the other process kept the lock: the waiting thread was joined at exit."""
    lock_file = tmp_path / "x.write-lock"
    with _held_elsewhere(lock_file):  # held all along: the waiting thread never gets it
        child = subprocess.Popen(
            [sys.executable, "-c", STOPPED_WHILE_WAITING, str(lock_file)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            out, _ = child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            pytest.fail("the process did not exit while the other one held the gate")
        assert child.returncode == 0 and out == "cancelled\n"
