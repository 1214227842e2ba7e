"""The refreshing cache: shared first loads, stale-while-reload, no caching at ttl 0."""

from __future__ import annotations

import asyncio

import pytest

from hakiki.core.cache import RefreshingCache


class Source:
    def __init__(self) -> None:
        self.calls = 0
        self.value = "v1"
        self.fail = False

    async def load(self, key: str) -> str:
        self.calls += 1
        await asyncio.sleep(0.01)
        if self.fail:
            raise RuntimeError("database down")
        return f"{key}:{self.value}"


async def test_concurrent_first_loads_share_one_query() -> None:
    source = Source()
    cache: RefreshingCache[str, str] = RefreshingCache(source.load, 60)
    values = await asyncio.gather(*(cache.get("k") for _ in range(20)))
    assert set(values) == {"k:v1"} and source.calls == 1
    assert await cache.get("k") == "k:v1" and source.calls == 1


async def test_expired_values_are_served_while_one_reload_runs() -> None:
    source = Source()
    cache: RefreshingCache[str, str] = RefreshingCache(source.load, 0.05)
    await cache.get("k")
    source.value = "v2"
    await asyncio.sleep(0.06)
    stale = await asyncio.gather(*(cache.get("k") for _ in range(10)))
    assert set(stale) == {"k:v1"}  # nobody waited for the reload
    await asyncio.sleep(0.03)
    assert await cache.get("k") == "k:v2"
    assert source.calls == 2


async def test_failed_reload_keeps_the_old_value_and_first_load_failure_raises() -> None:
    source = Source()
    cache: RefreshingCache[str, str] = RefreshingCache(source.load, 0.01)
    await cache.get("k")
    source.fail = True
    await asyncio.sleep(0.02)
    assert await cache.get("k") == "k:v1"
    await asyncio.sleep(0.03)
    assert await cache.get("k") == "k:v1"
    with pytest.raises(RuntimeError):
        await cache.get("other")


async def test_zero_ttl_never_caches() -> None:
    source = Source()
    cache: RefreshingCache[str, str] = RefreshingCache(source.load, 0)
    await cache.get("k")
    await cache.get("k")
    assert source.calls == 2
