"""Which bureaus this deployment has credentials for, and which one answers a query."""

from __future__ import annotations

from hakiki.core.settings import Settings
from hakiki.credit.providers.base import BureauProvider, BureauQuery
from hakiki.credit.providers.firstcentral import FirstCentralProvider
from hakiki.credit.providers.metropol import MetropolProvider


def build_bureaus(settings: Settings) -> list[BureauProvider]:
    """The bureaus ``settings`` configure; empty when no credentials are set."""
    found: list[BureauProvider] = []
    if settings.metropol_public_key and settings.metropol_private_key:
        found.append(
            MetropolProvider(
                settings.metropol_base_url,
                settings.metropol_public_key,
                settings.metropol_private_key,
                settings.provider_timeout_seconds,
            )
        )
    if settings.firstcentral_username and settings.firstcentral_password:
        found.append(
            FirstCentralProvider(
                settings.firstcentral_base_url,
                settings.firstcentral_username,
                settings.firstcentral_password,
                settings.provider_timeout_seconds,
            )
        )
    return found


class CreditBureaus:
    """The bureau adapters of a running service, held by its runtime."""

    def __init__(self, items: list[BureauProvider]) -> None:
        self.items = items

    def find(self, query: BureauQuery) -> BureauProvider | None:
        return next((p for p in self.items if p.supports(query)), None)

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
