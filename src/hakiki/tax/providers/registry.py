"""Which tax registries this deployment has credentials for, and which answer a check, in
which order: KRA through GavaConnect (KE), FIRS through Prembly and Dojah (NG TINs), tried with
fallback behind their circuit breakers (docs/providers.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy
from hakiki.core.providers.chain import ProviderChain, check_names, ordered
from hakiki.core.settings import Settings
from hakiki.tax.providers.base import Check, LookupOutcome, TaxLookup, TaxProvider, TaxQuery
from hakiki.tax.providers.dojah_tin import DojahTinProvider
from hakiki.tax.providers.gavaconnect import PRODUCTS, Credentials, GavaConnectProvider
from hakiki.tax.providers.prembly_tin import PremblyTinProvider

#: Every tax provider Hakiki has an adapter for, in the default order.
KNOWN: tuple[str, ...] = ("gavaconnect", "prembly", "dojah")
#: The live checks a tax provider serves, for the channels list and the console.
CHANNELS: tuple[tuple[str, Check], ...] = (
    ("KE", "pin"),
    ("KE", "tcc"),
    ("KE", "withholding"),
    ("NG", "pin"),
)


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
    dojah_app = (settings.dojah_app_id or "").strip()
    dojah_key = (settings.dojah_secret_key or "").strip()
    if dojah_app and dojah_key:
        providers.append(
            DojahTinProvider(
                dojah_app, dojah_key, settings.dojah_base_url, settings.provider_timeout_seconds
            )
        )
    return providers


class TaxChain:
    """The providers serving one check in one country, in order, as one ``TaxProvider``: the
    caller holds the price once, calls ``lookup`` once and bills its one result."""

    def __init__(self, country: str, providers: list[TaxProvider], breakers: BreakerBoard) -> None:
        self.country = country
        self.chain: ProviderChain[TaxProvider, TaxLookup] = ProviderChain(
            f"{country} tax", providers, breakers, _unavailable
        )

    @property
    def name(self) -> str:
        return self.chain.name

    def supports(self, query: TaxQuery) -> bool:
        return any(p.supports(query) for p in self.chain.providers)

    async def lookup(self, query: TaxQuery) -> TaxLookup:
        return await self.chain.ask(lambda provider: provider.lookup(query))

    async def aclose(self) -> None:
        """The providers belong to ``TaxProviders``."""


def _unavailable(provider: str, message: str) -> TaxLookup:
    return TaxLookup(LookupOutcome.UNAVAILABLE, provider, message=message)


class TaxProviders:
    """The tax providers of a running service, held by its runtime, with their breakers."""

    def __init__(
        self,
        items: list[TaxProvider],
        order: Mapping[str, list[str]] | None = None,
        policy: BreakerPolicy | None = None,
    ) -> None:
        self.items = items
        self.order = dict(order or {})
        check_names("HAKIKI_PROVIDER_ORDER", self.order, {"tax": KNOWN})
        self.breakers = BreakerBoard(policy or BreakerPolicy())

    @classmethod
    def from_settings(cls, settings: Settings) -> TaxProviders:
        policy = BreakerPolicy(
            settings.provider_breaker_failures, settings.provider_breaker_cooldown_seconds
        )
        return cls(build_tax_providers(settings), settings.provider_order, policy)

    def find(self, query: TaxQuery) -> TaxChain | None:
        serving = [p for p in self.items if p.supports(query)]
        chain = ordered(serving, self.order, f"tax:{query.country}", "tax")
        return TaxChain(query.country, chain, self.breakers) if chain else None

    def states(self) -> dict[str, dict[str, Any]]:
        return self.breakers.snapshot(p.name for p in self.items)

    def channels(self) -> list[dict[str, Any]]:
        """Each live tax check with its providers in order and their breakers."""
        listed: list[dict[str, Any]] = []
        for country, check in CHANNELS:
            found = self.find(TaxQuery(check, country, pin="0", certificate_number="0"))
            providers = found.chain.states() if found is not None else []
            listed.append({"category": "tax", "country": country, "check": check})
            listed[-1]["providers"] = providers
        return listed

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
