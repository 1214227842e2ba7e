"""Which identity providers this deployment has credentials for, and which one serves a channel."""

from __future__ import annotations

from collections.abc import Iterable

from hakiki.core.settings import Settings
from hakiki.identity.providers.base import IdentityProvider
from hakiki.identity.providers.prembly import PremblyProvider
from hakiki.identity.providers.smile_id import SmileIdProvider, id_types


def build_providers(settings: Settings) -> list[IdentityProvider]:
    """The providers configured in ``settings``; empty when no upstream credentials are set.
    Where two cover a channel, the first listed serves it (Prembly, then Smile ID).

    The caller owns the returned providers and must ``await provider.aclose()`` on shutdown.
    """
    providers: list[IdentityProvider] = []
    app_id = (settings.prembly_app_id or "").strip()
    api_key = (settings.prembly_api_key or "").strip()
    if app_id and api_key:
        providers.append(
            PremblyProvider(
                app_id=app_id,
                api_key=api_key,
                base_url=settings.prembly_base_url,
                timeout=settings.provider_timeout_seconds,
            )
        )
    partner_id = (settings.smile_id_partner_id or "").strip()
    smile_key = (settings.smile_id_api_key or "").strip()
    if partner_id and smile_key:
        providers.append(
            SmileIdProvider(
                partner_id=partner_id,
                api_key=smile_key,
                base_url=settings.smile_id_base_url,
                timeout=settings.provider_timeout_seconds,
                id_type_map=id_types(settings.smile_id_id_types),
            )
        )
    return providers


def find_provider(
    providers: Iterable[IdentityProvider], country: str, channel: str
) -> IdentityProvider | None:
    """The first provider that supports ``channel`` in ``country``, else None."""
    for provider in providers:
        if provider.supports(country, channel):
            return provider
    return None


class Providers:
    """The identity providers of a running service, held by its runtime."""

    def __init__(self, items: list[IdentityProvider]) -> None:
        self.items = items

    def find(self, country: str, channel: str) -> IdentityProvider | None:
        return find_provider(self.items, country, channel)

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
