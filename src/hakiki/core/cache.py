"""A small async cache for hot-path look-ups (API keys, review presence).

Values are kept ``ttl`` seconds. After that the old value is still served while one background
task reloads it, so an expiry under load never makes requests wait; only a key's first load
waits, and concurrent first loads share one query. With ``ttl <= 0`` nothing is cached.

Look-ups that found nothing are what a caller controls (any client id can be sent), so they
go in a :class:`MissCache` bounded in bytes rather than beside the values.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

logger = logging.getLogger("hakiki.cache")

MAX_ENTRIES = 10_000


class RefreshingCache(Generic[K, V]):
    """``keep`` decides which loaded values are cached (all by default); a value it refuses is
    returned to its callers but not stored, and drops a stored older one."""

    def __init__(
        self,
        load: Callable[[K], Awaitable[V]],
        ttl_seconds: float,
        *,
        keep: Callable[[V], bool] = lambda _value: True,
    ) -> None:
        self._load = load
        self._ttl = ttl_seconds
        self._keep = keep
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
        if not self._keep(value):
            self._entries.pop(key, None)
            return value
        if len(self._entries) >= MAX_ENTRIES:
            self._entries.clear()
        self.put(key, value)
        return value


# What one miss costs besides its key: its slot in the ordered dict and its expiry (a float).
MISS_ENTRY_OVERHEAD = 120


def _miss_cost(key: str) -> int:
    return sys.getsizeof(key) + MISS_ENTRY_OVERHEAD


class MissCache:
    """Keys a look-up did not find, each remembered ``ttl_seconds``, in at most ``max_bytes``:
    an entry counts its key's size in memory plus :data:`MISS_ENTRY_OVERHEAD`, and the oldest
    entries go first when a new one would pass the bound. With ``ttl <= 0`` nothing is kept."""

    def __init__(self, ttl_seconds: float, max_bytes: int) -> None:
        self._ttl = ttl_seconds
        self.max_bytes = max_bytes
        self._expiries: OrderedDict[str, float] = OrderedDict()
        self.size_bytes = 0

    def __len__(self) -> int:
        return len(self._expiries)

    def __contains__(self, key: str) -> bool:
        expires = self._expiries.get(key)
        if expires is None:
            return False
        if expires <= time.monotonic():
            self._drop(key)
            return False
        return True

    def add(self, key: str) -> None:
        cost = _miss_cost(key)
        if self._ttl <= 0 or cost > self.max_bytes:
            return
        if key in self._expiries:
            self._drop(key)
        self._expiries[key] = time.monotonic() + self._ttl
        self.size_bytes += cost
        while self.size_bytes > self.max_bytes:
            self._drop(next(iter(self._expiries)))

    def _drop(self, key: str) -> None:
        del self._expiries[key]
        self.size_bytes -= _miss_cost(key)
