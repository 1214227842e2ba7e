"""Which tax registries this deployment has credentials for, and which one answers a check."""

from __future__ import annotations

from hakiki.core.settings import Settings
from hakiki.tax.providers.base import TaxProvider, TaxQuery
from hakiki.tax.providers.gavaconnect import PRODUCTS, Credentials, GavaConnectProvider


def build_tax_providers(settings: Settings) -> list[TaxProvider]:
    """The providers ``settings`` configure; empty when no upstream credentials are set. The
    caller owns them and closes them on shutdown (``TaxProviders.aclose``)."""
    unknown = sorted(set(settings.gavaconnect_apps) - set(PRODUCTS))
    if unknown:
        raise ValueError(
            f"HAKIKI_GAVACONNECT_APPS names unknown APIs {unknown}; known: {list(PRODUCTS)}"
        )
    key = (settings.gavaconnect_consumer_key or "").strip()
    secret = (settings.gavaconnect_consumer_secret or "").strip()
    default = Credentials(key, secret) if key and secret else None
    apps = {product: Credentials(*pair) for product, pair in settings.gavaconnect_apps.items()}
    if default is None and not apps:
        return []
    provider = GavaConnectProvider(
        settings.gavaconnect_base_url,
        settings.provider_timeout_seconds,
        credentials=default,
        apps=apps,
        withholding_path=settings.gavaconnect_withholding_path,
    )
    return [provider]


class TaxProviders:
    """The tax providers of a running service, held by its runtime."""

    def __init__(self, items: list[TaxProvider]) -> None:
        self.items = items

    def find(self, query: TaxQuery) -> TaxProvider | None:
        return next((p for p in self.items if p.supports(query)), None)

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
