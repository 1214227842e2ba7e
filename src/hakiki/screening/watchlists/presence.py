"""Which watchlists each organisation's environment has ready to screen, cached per process."""

from __future__ import annotations

from typing import Any

from hakiki.core.cache import RefreshingCache
from hakiki.core.database import Database, read
from hakiki.screening.watchlists import repository


class WatchlistPresence:
    """Which organisations' environments have ready watchlists (id and type), cached like API
    keys so a screening of an organisation without any costs no query. A change made on this
    process counts at once; one made on another within HAKIKI_KEY_CACHE_SECONDS."""

    def __init__(self, db: Database, ttl_seconds: float) -> None:
        self._db = db
        self._cache: RefreshingCache[tuple[str, str], list[dict[str, Any]]] = RefreshingCache(
            self._load, ttl_seconds
        )

    async def _load(self, key: tuple[str, str]) -> list[dict[str, Any]]:
        async with read(self._db) as conn:
            return await repository.ready_lists(conn, *key)

    async def ready(self, org_id: str, environment: str) -> list[dict[str, Any]]:
        return await self._cache.get((org_id, environment))

    async def refresh(self, org_id: str, environment: str) -> None:
        self._cache.put((org_id, environment), await self._load((org_id, environment)))
