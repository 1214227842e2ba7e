"""Everything a running service holds: built once at start-up, shared by all requests."""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.core.auth import KeyCache
from hakiki.core.crypto import Vault
from hakiki.core.database import Database
from hakiki.core.request_log.service import RequestLogWriter
from hakiki.core.settings import Settings
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.providers.base import IdentityProvider


@dataclass
class Runtime:
    settings: Settings
    db: Database
    vault: Vault
    key_cache: KeyCache
    request_log: RequestLogWriter
    providers: list[IdentityProvider]
    screening: ScreeningEngine  # the official lists, for live keys
    sandbox_screening: ScreeningEngine  # the sandbox's fictional lists, for sandbox keys

    def price(self, endpoint: str) -> int:
        return self.settings.price(endpoint)
