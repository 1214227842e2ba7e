"""Tasks by name: what a job runs, how often it may try, how long it waits between tries."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from hakiki.core.runtime import Runtime

# Seconds before the 2nd, 3rd, ... attempt; the last delay repeats.
DEFAULT_BACKOFF = (5, 30, 120, 600, 1800)


Handler = Callable[["JobContext", dict[str, Any]], Awaitable[None]]
# Called when a job ends failed (its last attempt raised, it raised PermanentError, or its
# process died on its last attempt) with the error: lets the task close the business record it
# was working on in the transaction that ends the job, so no reader sees one ended without the
# other (in scaled mode, just before procrastinate ends the job). It may run more than once.
GiveUp = Callable[["Runtime", "AsyncConnection", dict[str, Any], str], Awaitable[None]]


@dataclass(frozen=True)
class Task:
    name: str
    handler: Handler
    max_attempts: int = 6
    backoff: tuple[int, ...] = DEFAULT_BACKOFF
    on_give_up: GiveUp | None = None

    def delay_after(self, attempt: int) -> int:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        return self.backoff[min(attempt, len(self.backoff)) - 1]


@dataclass(frozen=True)
class JobContext:
    runtime: Runtime
    job_id: str
    attempt: int  # 1 on the first try
    task: Task

    @property
    def final_attempt(self) -> bool:
        return self.attempt >= self.task.max_attempts


class PermanentError(Exception):
    """A handler raises this when retrying cannot help (the job fails at once)."""


TASKS: dict[str, Task] = {}


def task(
    name: str,
    *,
    max_attempts: int = 6,
    backoff: tuple[int, ...] = DEFAULT_BACKOFF,
    on_give_up: GiveUp | None = None,
) -> Callable[[Handler], Handler]:
    """Register ``handler`` as task ``name``. Handlers must be idempotent: a job runs at least
    once, and again when the process that held it died."""

    def register(handler: Handler) -> Handler:
        if name in TASKS and TASKS[name].handler is not handler:
            raise ValueError(f"task {name!r} is registered twice")
        TASKS[name] = Task(name, handler, max_attempts, backoff, on_give_up)
        return handler

    return register
