"""A small async cache for hot-path look-ups (API keys, review presence).

Values are kept ``ttl`` seconds. After that the old value is still served while one background
task reloads it, so an expiry under load never makes requests wait; only a key's first load
waits, and concurrent first loads share one query. With ``ttl <= 0`` nothing is cached.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

logger = logging.getLogger("hakiki.cache")

MAX_ENTRIES = 10_000


class RefreshingCache(Generic[K, V]):
    def __init__(self, load: Callable[[K], Awaitable[V]], ttl_seconds: float) -> None:
        self._load = load
        self._ttl = ttl_seconds
        self._entries: dict[K, tuple[float, V]] = {}
        self._loading: dict[K, asyncio.Task[V]] = {}

    async def get(self, key: K) -> V:
        if self._ttl <= 0:
            return await self._load(key)
        entry = self._entries.get(key)
        if entry is not None:
            expires, value = entry
            if expires <= time.monotonic() and key not in self._loading:
                self._start(key)
            return value
        task = self._loading.get(key) or self._start(key)
        return await asyncio.shield(task)

    def put(self, key: K, value: V) -> None:
        self._entries[key] = (time.monotonic() + self._ttl, value)

    def _start(self, key: K) -> asyncio.Task[V]:
        task = asyncio.get_running_loop().create_task(self._reload(key))
        # A background reload nobody awaits must not end as "exception never retrieved".
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._loading[key] = task
        return task

    async def _reload(self, key: K) -> V:
        try:
            value = await self._load(key)
        except Exception:
            if key in self._entries:  # keep serving the old value; the next get retries
                logger.exception("refreshing a cached value failed")
            raise
        finally:
            self._loading.pop(key, None)
        if len(self._entries) >= MAX_ENTRIES:
            self._entries.clear()
        self.put(key, value)
        return value
