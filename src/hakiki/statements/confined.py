"""Statement files read in a process of their own, under limits the file cannot skip.

A PDF is parsed by pypdf and PDFium, which trust the file's own account of itself: an inflate
bomb behind encryption or a filter chain, or an xref stream claiming 10^8 entries, once took
the server's memory or a worker thread for hours. So the upload check and the analysis each
run in a child process (forked from a ``forkserver`` that has the statement engine imported,
so a child starts in about 10 ms) with:

- an address-space limit (``RLIMIT_AS``, ``HAKIKI_STATEMENT_READER_MEMORY_MB``): an allocation
  past it fails in the child, never in the server;
- a wall-clock limit (``HAKIKI_STATEMENT_READER_CHECK_SECONDS`` for the upload check,
  ``HAKIKI_STATEMENT_READER_ANALYSIS_SECONDS`` for the job) after which the child is killed, and
  ``RLIMIT_CPU`` a second past it as a backstop should the server die first;
- a bounded number of children per kind of work (``HAKIKI_STATEMENT_READER_WORKERS``): upload
  checks and analyses each have a pool of their own, so neither can starve the other or the
  server's shared thread pool.

Each child has its own PDFium, so no lock is shared by two organisations' files. A child past
a limit ends the work as ``Refused("too_large")`` naming the limit; pages read are reported to
the parent as they are read."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from types import ModuleType
from typing import Any

from hakiki.core.settings import Settings
from hakiki.engines.statements import Analysis, Declared, Refused, analyse, precheck
from hakiki.engines.statements.analyse import Progress
from hakiki.engines.statements.tabular import Limits

logger = logging.getLogger("hakiki.statements")

_CONTEXT = multiprocessing.get_context("forkserver")
_PRELOADED = threading.Lock()
_preloaded = False


def _preload() -> None:
    """Before the forkserver starts: what it imports once for every child. Each child runs
    the main module again (the forkserver's own preloading of ``__main__`` does nothing on
    Python 3.11: it looks for a key the preparation data does not have), so what the main
    module imports (the hakiki command: ``hakiki.cli``) is imported here, and re-running it
    costs nothing; the statement engine and pypdf (which the engine imports when first used)
    likewise. Run at the first file, not at import: the main module is whole by then."""
    global _preloaded
    with _PRELOADED:
        if _preloaded:
            return
        main = vars(sys.modules["__main__"]).values()
        names = {
            value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", "")
            for value in main
        }
        # Only what this process imported without trouble: the forkserver stops at any error
        # but an ImportError.
        names = {name for name in names if isinstance(name, str) and name in sys.modules}
        names -= {"__main__", "__mp_main__"}
        _CONTEXT.set_forkserver_preload([*sorted(names), "hakiki.statements.confined", "pypdf"])
        _preloaded = True


@dataclass(frozen=True)
class Confinement:
    """The limits of one child: its address space and its wall-clock time."""

    memory_bytes: int
    seconds: float

    def too_much_memory(self) -> Refused:
        return Refused(
            "too_large",
            f"file: reading it needs more than the {self.memory_bytes // 2**20:,} MB a "
            "statement may take; refused.",
        )

    def too_slow(self) -> Refused:
        return Refused(
            "too_large",
            f"file: reading it takes longer than the {self.seconds:g} s a statement may take; "
            "refused.",
        )


def check_limits(settings: Settings) -> Confinement:
    return Confinement(
        settings.statement_reader_memory_mb * 2**20, settings.statement_reader_check_seconds
    )


def analysis_limits(settings: Settings) -> Confinement:
    return Confinement(
        settings.statement_reader_memory_mb * 2**20, settings.statement_reader_analysis_seconds
    )


async def check(
    settings: Settings, data: bytes, statement_type: str, password: str | None, limits: Limits
) -> str:
    """``precheck`` of the statement engine, confined: the file format, or Refused."""
    work = partial(_check, data, statement_type, password, limits)
    result: str = await _run("check", settings, work, check_limits(settings), None)
    return result


async def analysis(
    settings: Settings,
    data: bytes,
    *,
    statement_type: str,
    password: str | None,
    declared: Declared,
    limits: Limits,
    progress: Progress | None,
) -> Analysis:
    """``analyse`` of the statement engine, confined; ``progress`` is called in a thread of
    the pool as pages are read."""
    work = partial(
        analyse,
        data,
        statement_type=statement_type,
        password=password,
        declared=declared,
        limits=limits,
    )
    found: Analysis = await _run("analysis", settings, work, analysis_limits(settings), progress)
    return found


def _check(
    data: bytes,
    statement_type: str,
    password: str | None,
    limits: Limits,
    progress: Progress,
) -> str:
    return precheck(data, statement_type, password, limits)


_POOLS: dict[tuple[str, int], ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(kind: str, workers: int) -> ThreadPoolExecutor:
    """The threads that watch the children of one kind of work: as many as may run at once."""
    with _POOLS_LOCK:
        pool = _POOLS.get((kind, workers))
        if pool is None:
            pool = ThreadPoolExecutor(workers, thread_name_prefix=f"statement-{kind}")
            _POOLS[(kind, workers)] = pool
        return pool


async def _run(
    kind: str,
    settings: Settings,
    work: Callable[..., Any],
    limits: Confinement,
    progress: Progress | None,
) -> Any:
    pool = _pool(kind, settings.statement_reader_workers)
    loop = asyncio.get_running_loop()
    abandoned = threading.Event()
    try:
        return await loop.run_in_executor(pool, _supervise, work, limits, progress, abandoned)
    except asyncio.CancelledError:  # a job given back at shutdown: its child is killed
        abandoned.set()
        raise


def _supervise(
    work: Callable[..., Any],
    limits: Confinement,
    progress: Progress | None,
    abandoned: threading.Event,
) -> Any:
    """Run ``work`` in a child under ``limits``; its answer, or the Refused it ends with (the
    child killed within half a second once ``abandoned`` is set)."""
    _preload()
    receiver, sender = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_child, args=(sender, work, limits), daemon=True)
    try:
        child.start()
        sender.close()  # the child's end: EOF here once the child is gone
        deadline = time.monotonic() + limits.seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise limits.too_slow()
            if abandoned.is_set():
                raise Refused("unreadable", "file: the reading was abandoned.")
            if not receiver.poll(min(left, 0.5)):
                continue
            try:
                message = receiver.recv()
            except EOFError:  # the child died without an answer: killed by a limit
                child.join()
                raise _death(child.exitcode, limits) from None
            kind, *values = message
            if kind == "progress":
                if progress is not None:
                    progress(*values)
                continue
            return _answer(kind, values, limits)
    finally:
        sender.close()
        if child.is_alive():
            child.kill()
        receiver.close()
        if child.pid is not None:  # started
            child.join()
            child.close()


def _answer(kind: str, values: list[Any], limits: Confinement) -> Any:
    if kind == "done":
        return values[0]
    if kind == "refused":
        raise Refused(*values)
    if kind == "memory":
        raise limits.too_much_memory()
    logger.error("statement reader failed: %s", values[0])
    raise Refused("unreadable", "file: not a readable PDF (the reader failed on it).")


def _death(exitcode: int | None, limits: Confinement) -> Refused:
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return limits.too_slow()
    # PDFium ends the process when an allocation fails (SIGSEGV or SIGTRAP by design).
    logger.warning("statement reader ended by exit code %s", exitcode)
    return limits.too_much_memory()


def _child(conn: Connection, work: Callable[..., Any], limits: Confinement) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    cpu = int(limits.seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    logging.getLogger("pypdf").setLevel(logging.ERROR)

    def report(pages: int, total: int) -> None:
        conn.send(("progress", pages, total))

    try:
        conn.send(("done", work(progress=report)))
    except Refused as refused:
        conn.send(("refused", refused.code, refused.message, refused.field))
    except MemoryError:
        conn.send(("memory",))
    except Exception as error:
        conn.send(("failed", f"{type(error).__name__}: {error}"))
    finally:
        conn.close()
