"""Cost of counting one call against its key's rate limit, per storage.

uv run --group dev python bench/rate_limit.py [--redis redis://127.0.0.1:6379/0]

Each figure is RateLimiter.hit (the counter and the window's expiry) plus a bare
``asyncio.sleep(0)`` per call, which lets a storage's background tasks run as they would between
requests; the sleep alone is measured and subtracted.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from limits.aio.storage import MemoryStorage, Storage

from hakiki.core.rate_limit import RateLimiter, WindowCounters, parse_limit

CALLS = 20_000


async def _sleep_cost() -> float:
    started = time.perf_counter()
    for _ in range(CALLS):
        await asyncio.sleep(0)
    return (time.perf_counter() - started) / CALLS


async def _per_call(storage: Storage, keys: int, calls: int = CALLS) -> float:
    limiter = RateLimiter(parse_limit("1000000/hour"), {}, storage)
    ids = [f"key_{i}" for i in range(keys)]
    for key_id in ids:  # every key has a live window, as under steady traffic
        await limiter.hit(key_id, "org")
    started = time.perf_counter()
    for i in range(calls):
        await limiter.hit(ids[i % keys], "org")
        await asyncio.sleep(0)
    return (time.perf_counter() - started) / calls


async def main(redis_url: str | None) -> None:
    sleep = await _sleep_cost()
    for keys in (1, 100, 10_000):
        ours = await _per_call(WindowCounters(), keys) - sleep
        theirs = await _per_call(MemoryStorage(), keys, CALLS // 10 if keys > 100 else CALLS)
        print(
            f"{keys:>6} keys: WindowCounters {ours * 1e6:7.1f} us, "
            f"limits MemoryStorage {(theirs - sleep) * 1e6:7.1f} us"
        )
    if redis_url:
        from hakiki.core.settings import Settings

        limiter = RateLimiter.from_settings(Settings(redis_url=redis_url))
        await limiter.hit("warm-up", "org")
        started = time.perf_counter()
        for i in range(CALLS // 10):
            await limiter.hit(f"bench_{i % 100}", "org")
        per_call = (time.perf_counter() - started) / (CALLS // 10)
        print(f"Redis ({redis_url}): {per_call * 1e6:7.1f} us")
        await limiter.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", help="also measure Redis counters at this URL")
    asyncio.run(main(parser.parse_args().redis))
