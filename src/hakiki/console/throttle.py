"""Failed sign-ins, counted per e-mail address and per client address with the ``limits``
library's fixed windows (the API's rate limiter uses the same store, core.rate_limit); over
either limit a sign-in is refused with 429 before the password is checked.

Counters are in this process's memory: with several server processes each counts its own."""

from __future__ import annotations

import math
import time

from limits import RateLimitItem
from limits.aio.strategies import FixedWindowRateLimiter

from hakiki.core.rate_limit import WindowCounters, parse_limit
from hakiki.core.settings import Settings


class LoginThrottle:
    def __init__(self, per_account: RateLimitItem, per_client: RateLimitItem) -> None:
        self._storage = WindowCounters()
        self._limiter = FixedWindowRateLimiter(self._storage)
        self._limits = {"account": per_account, "client": per_client}

    @classmethod
    def from_settings(cls, settings: Settings) -> LoginThrottle:
        return cls(
            parse_limit(settings.console_login_limit_account),
            parse_limit(settings.console_login_limit_client),
        )

    async def retry_after(self, account: str, client: str) -> int | None:
        """Seconds until a sign-in may be tried again, or None if it may be tried now."""
        waits = []
        for kind, who in (("account", account), ("client", client)):
            item = self._limits[kind]
            if not await self._limiter.test(item, kind, who):
                expires = await self._storage.get_expiry(item.key_for(kind, who))
                waits.append(max(1, math.ceil(expires - time.time())))
        return max(waits) if waits else None

    async def failed(self, account: str, client: str) -> None:
        for kind, who in (("account", account), ("client", client)):
            await self._limiter.hit(self._limits[kind], kind, who)
