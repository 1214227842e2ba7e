"""Failed sign-ins, counted per e-mail address and per client address with the ``limits``
library's fixed windows, in the API rate limiter's store (core.rate_limit): this process's
memory, or Redis when ``HAKIKI_REDIS_URL`` is set, so every server process counts the same
failures. Over either limit a sign-in is refused with 429 before the password is checked. An
unreachable store lets sign-ins through (logged), as it lets API calls through.

Password-reset requests are counted the same way but apart (:class:`ResetThrottle`, their own
limits and keys): anyone may ask for a reset of any address, so if asking cost what a failed
sign-in costs, five requests would lock the address's user out of signing in. The account is
named in the store by the caller's keyed hash of the address, never the address itself."""

from __future__ import annotations

import logging
import math
import time
from typing import Self

from limits import RateLimitItem
from limits.aio.storage import Storage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.errors import StorageError

from hakiki.core.rate_limit import WindowCounters, parse_limit
from hakiki.core.settings import Settings

logger = logging.getLogger(__name__)


class LoginThrottle:
    NAMESPACE = "console-login"

    def __init__(
        self, per_account: RateLimitItem, per_client: RateLimitItem, storage: Storage | None = None
    ) -> None:
        self._storage = storage if storage is not None else WindowCounters()
        self._limiter = FixedWindowRateLimiter(self._storage)
        self._limits = {"account": per_account, "client": per_client}

    @classmethod
    def from_settings(cls, settings: Settings, storage: Storage | None = None) -> Self:
        return cls(
            parse_limit(settings.console_login_limit_account),
            parse_limit(settings.console_login_limit_client),
            storage,
        )

    async def retry_after(self, account: str, client: str) -> int | None:
        """Seconds until a sign-in may be tried again, or None if it may be tried now;
        ``account`` is the address's keyed hash (users.email_hash)."""
        waits = []
        try:
            for kind, who in (("account", account), ("client", client)):
                item = self._limits[kind]
                if not await self._limiter.test(item, self.NAMESPACE, kind, who):
                    key = item.key_for(self.NAMESPACE, kind, who)
                    expires = await self._storage.get_expiry(key)
                    waits.append(max(1, math.ceil(expires - time.time())))
        except StorageError as exc:
            logger.error("sign-in throttle store unreachable, not throttling: %s", exc)
            return None
        return max(waits) if waits else None

    async def failed(self, account: str, client: str) -> None:
        try:
            for kind, who in (("account", account), ("client", client)):
                await self._limiter.hit(self._limits[kind], self.NAMESPACE, kind, who)
        except StorageError as exc:
            logger.error("sign-in throttle store unreachable, failure not counted: %s", exc)


class ResetThrottle(LoginThrottle):
    """Password-reset requests: counted apart from sign-ins (they lock nobody out)."""

    NAMESPACE = "console-reset"

    @classmethod
    def from_settings(cls, settings: Settings, storage: Storage | None = None) -> Self:
        return cls(
            parse_limit(settings.console_reset_limit_account),
            parse_limit(settings.console_reset_limit_client),
            storage,
        )
