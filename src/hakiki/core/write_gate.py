"""One writer at a time across every server process that shares a SQLite file.

SQLite lets one connection write at a time; a second process's ``BEGIN IMMEDIATE`` fails with
"database is locked" and can only try again later, so two processes on one file spent their
time polling for each other's lock (the fraud scans were slower with two processes than with
one, docs/benchmarks.md). The gate queues the writers instead: an ``asyncio.Lock`` within the
process, then an exclusive ``flock`` on a lock file beside the database, which the kernel hands
to the waiting process the moment the holder lets go (and releases if the holder dies). A
process waiting for another one waits in a thread of its own, never on the event loop. Each
wait, for the process's turn and for the lock, lasts at most ``wait_seconds``; then the write
fails as SQLite's own lock would fail it ("database is locked": the call answers 503).
The waiting thread is a daemon: a process stopped (SIGTERM) while it waits exits at once
instead of waiting for the other process to let go (it held `hakiki worker` up for as long as
the other process kept the lock).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy.exc import OperationalError

from hakiki.core.data_dir import private_file


class WriteGate:
    def __init__(self, lock_file: Path, wait_seconds: float) -> None:
        self._lock_file = lock_file
        self._opened: int | None = None
        self._opened_by = 0  # the process that opened it
        self._wait_seconds = wait_seconds
        self._queues: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}
        self._waiting: asyncio.Future[None] | None = None  # the thread's wait, while it lasts

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        queue = self._queue()
        try:
            async with asyncio.timeout(self._wait_seconds):
                await queue.acquire()  # cancelled in the wait, it takes nothing
        except TimeoutError as error:
            raise _locked() from error
        try:
            taken = self._take_now()
        except BaseException:
            queue.release()
            raise
        if not taken:
            await self._take_waiting(queue)
        try:
            yield
        finally:
            self._let_go(queue)

    def close(self) -> None:
        """Close the lock file (opened again by the next write); after the thread's wait, if
        one is under way (its descriptor must not be reused before it lets go)."""
        if self._waiting is not None and not self._waiting.done():
            self._waiting.add_done_callback(lambda _: self.close())
            return
        if self._opened is not None:
            os.close(self._opened)
            self._opened = None

    @property
    def _fd(self) -> int:
        """The lock file, opened by this process: a forked child shares its parent's open
        file, and with it the parent's lock, so it opens its own."""
        if self._opened is not None and self._opened_by != os.getpid():
            os.close(self._opened)  # the parent's copy stays open: its lock is not let go
            self._opened = None
        if self._opened is None:
            private_file(self._lock_file)
            self._opened = os.open(self._lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            self._opened_by = os.getpid()
        return self._opened

    def _take_now(self) -> bool:
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _queue(self) -> asyncio.Lock:
        """The process's queue of writers, one per event loop (a test may run several)."""
        loop = asyncio.get_running_loop()
        queue = self._queues.get(loop)
        if queue is None:
            self._queues = {k: v for k, v in self._queues.items() if not k.is_closed()}
            queue = self._queues[loop] = asyncio.Lock()
        return queue

    async def _take_waiting(self, queue: asyncio.Lock) -> None:
        """Wait in the gate's thread. When the wait ends first (after ``wait_seconds``, or the
        call was cancelled), the thread lets go of the lock once it has it, and of the
        process's queue only then, so no writer of this process runs without the lock."""
        waiting = self._waiting = _in_daemon_thread(self._fd)
        try:
            await asyncio.wait_for(asyncio.shield(waiting), self._wait_seconds)
        except BaseException as error:
            waiting.add_done_callback(lambda _: self._let_go_once_taken(waiting, queue))
            if isinstance(error, TimeoutError):
                raise _locked() from error
            raise

    def _let_go_once_taken(self, waiting: asyncio.Future[None], queue: asyncio.Lock) -> None:
        if not waiting.cancelled() and waiting.exception() is None:
            self._let_go(queue)
        else:
            queue.release()

    def _let_go(self, queue: asyncio.Lock) -> None:
        if self._opened is not None:  # closed: closing the file let go of the lock
            with contextlib.suppress(OSError):
                fcntl.flock(self._opened, fcntl.LOCK_UN)
        queue.release()


def _in_daemon_thread(fd: int) -> asyncio.Future[None]:
    """``flock(fd, LOCK_EX)`` in a daemon thread of its own (one wait at a time: the process's
    queue lets one writer through to it): a thread that never stops the process from exiting,
    as a ThreadPoolExecutor's would (they are joined at exit, while flock may wait for ever)."""
    loop = asyncio.get_running_loop()
    waiting: asyncio.Future[None] = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if waiting.done():
            return
        if error is None:
            waiting.set_result(None)
        else:
            waiting.set_exception(error)

    def wait() -> None:
        error: BaseException | None = None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException as raised:  # handed to the waiting coroutine
            error = raised
        with contextlib.suppress(RuntimeError):  # the loop closed: the process is ending
            loop.call_soon_threadsafe(settle, error)

    threading.Thread(target=wait, name="sqlite-write-gate", daemon=True).start()
    return waiting


def _locked() -> OperationalError:
    """What SQLite itself raises when its lock stays taken: the call answers 503."""
    return OperationalError("BEGIN IMMEDIATE", None, Exception("database is locked"))
