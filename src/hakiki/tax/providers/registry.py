"""Which tax registries this deployment has credentials for, and which one answers a check:
KRA through GavaConnect (KE), FIRS through Prembly (NG TINs)."""

from __future__ import annotations

from hakiki.core.settings import Settings
from hakiki.tax.providers.base import TaxProvider, TaxQuery
from hakiki.tax.providers.gavaconnect import PRODUCTS, Credentials, GavaConnectProvider
from hakiki.tax.providers.prembly_tin import PremblyTinProvider


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
    providers: list[TaxProvider] = []
    if default is not None or apps:
        gava = GavaConnectProvider(
            settings.gavaconnect_base_url,
            settings.provider_timeout_seconds,
            credentials=default,
            apps=apps,
            withholding_path=settings.gavaconnect_withholding_path,
        )
        providers.append(gava)
    app_id = (settings.prembly_app_id or "").strip()
    api_key = (settings.prembly_api_key or "").strip()
    if app_id and api_key:
        prembly = PremblyTinProvider(
            app_id,
            api_key,
            settings.prembly_base_url,
            settings.provider_timeout_seconds,
            path=settings.tax_prembly_tin_path,
        )
        providers.append(prembly)
    return providers


class TaxProviders:
    """The tax providers of a running service, held by its runtime."""

    def __init__(self, items: list[TaxProvider]) -> None:
        self.items = items

    def find(self, query: TaxQuery) -> TaxProvider | None:
        return next((p for p in self.items if p.supports(query)), None)

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
