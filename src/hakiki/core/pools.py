"""Threads for CPU-heavy work, one bounded pool per kind of work, fair between organisations.

A kind's jobs queue only behind jobs of the same kind (a screening never waits behind an
image), and each organisation has at most ``per_tenant`` jobs inside a pool at once: its further
jobs wait for its own turn on the event loop, outside the pool's queue, so another
organisation's job enters the queue ahead of them (docs/decisions.md, issue 30)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class WorkPool:
    def __init__(self, name: str, *, workers: int, per_tenant: int) -> None:
        self.name = name
        self.per_tenant = per_tenant
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._turns: dict[str, asyncio.Semaphore] = {}
        self._users: dict[str, int] = {}  # jobs holding or awaiting each tenant's turns

    async def run(self, work: Callable[[], T], *, tenant: str) -> T:
        """``work()`` in one of the pool's threads, once ``tenant`` has a free turn. The turn is
        given back when the work ends, not when its caller stops waiting (a cancelled request
        cannot free a turn while its thread still runs)."""
        loop = asyncio.get_running_loop()
        turns = self._turns.get(tenant)
        if turns is None:
            turns = self._turns[tenant] = asyncio.Semaphore(self.per_tenant)
        self._users[tenant] = self._users.get(tenant, 0) + 1
        try:
            await turns.acquire()
        except BaseException:
            self._leave(tenant)
            raise
        job = self.executor.submit(work)

        def done(_job: object) -> None:
            turns.release()
            self._leave(tenant)

        job.add_done_callback(lambda _job: _call_soon(loop, done, _job))
        return await asyncio.wrap_future(job)

    def jobs_of(self, tenant: str) -> int:
        """How many of ``tenant``'s jobs are running or waiting for their turn."""
        return self._users.get(tenant, 0)

    def _leave(self, tenant: str) -> None:
        self._users[tenant] -= 1
        if not self._users[tenant]:  # forget idle tenants: the dicts stay small
            del self._users[tenant], self._turns[tenant]

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def _call_soon(
    loop: asyncio.AbstractEventLoop, callback: Callable[[object], None], arg: object
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed at shutdown
        loop.call_soon_threadsafe(callback, arg)
