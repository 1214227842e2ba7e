"""Which business registries this deployment can read, and which one answers a query.

Kenya's BRS and Nigeria's CAC through Prembly (with the Prembly credentials the identity
channels use). Uganda's URSB and Tanzania's BRELA have no aggregator with a public API we could
find (docs/decisions.md), so their numbers, like every other country's, go to the global
fallback: OpenCorporates when a token is configured, else GLEIF; so does a Nigerian name, or a
Nigerian number where Prembly is not configured. An LEI always goes to GLEIF.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy
from hakiki.core.providers.chain import ProviderChain, check_names, ordered
from hakiki.core.settings import Settings
from hakiki.engines.kyb.numbers import RegistrationNumber
from hakiki.kyb.providers.base import (
    RegistryOutcome,
    RegistryProvider,
    RegistryQuery,
    RegistryResult,
)
from hakiki.kyb.providers.dojah_cac import DojahCac
from hakiki.kyb.providers.gleif import Gleif
from hakiki.kyb.providers.opencorporates import OpenCorporates
from hakiki.kyb.providers.prembly_brs import PremblyBrs
from hakiki.kyb.providers.prembly_cac import PremblyCac

NATIONAL = ("KE",)  # countries whose own registry is the only one asked
#: Every national-registry provider Hakiki has an adapter for, in the default order.
KNOWN: tuple[str, ...] = ("prembly", "dojah")
#: The national registries a provider serves live, for the channels list and the console.
CHANNELS: tuple[tuple[str, str], ...] = (("KE", "BRS"), ("NG", "CAC"))


class RegistryChain:
    """The national-registry providers of one country, in order, as one ``RegistryProvider``
    (tried with fallback behind their breakers; billed once by the caller)."""

    def __init__(
        self, country: str, providers: list[RegistryProvider], breakers: BreakerBoard
    ) -> None:
        self.country = country
        self.chain: ProviderChain[RegistryProvider, RegistryResult] = ProviderChain(
            f"{country} business registry", providers, breakers, _unavailable
        )

    @property
    def name(self) -> str:
        return self.chain.name

    @property
    def registry(self) -> str:
        return self.registry_of(self.name)

    def registry_of(self, name: str) -> str:
        """What the provider ``name`` reads (the answer names the one that answered)."""
        member = self.chain.member(name)
        return member.registry if member is not None else self.chain.providers[0].registry

    def covers(self, query: RegistryQuery) -> bool:
        return any(p.covers(query) for p in self.chain.providers)

    async def lookup(self, query: RegistryQuery) -> RegistryResult:
        return await self.chain.ask(lambda provider: provider.lookup(query))

    async def aclose(self) -> None:
        """The providers belong to ``Registries``."""


def _unavailable(provider: str, message: str) -> RegistryResult:
    return RegistryResult(RegistryOutcome.UNAVAILABLE, provider, message=message)


class Registries:
    """The registry providers of a running service, held by its runtime."""

    def __init__(
        self,
        national: list[RegistryProvider],
        opencorporates: RegistryProvider | None,
        gleif: RegistryProvider | None,
        order: Mapping[str, list[str]] | None = None,
        policy: BreakerPolicy | None = None,
    ) -> None:
        self.national = national
        self.opencorporates = opencorporates
        self.gleif = gleif
        self.order = dict(order or {})
        check_names("HAKIKI_PROVIDER_ORDER", self.order, {"kyb": KNOWN})
        self.breakers = BreakerBoard(policy or BreakerPolicy())

    @classmethod
    def from_settings(cls, settings: Settings) -> Registries:
        timeout = settings.provider_timeout_seconds
        national: list[RegistryProvider] = []
        app_id = (settings.prembly_app_id or "").strip()
        api_key = (settings.prembly_api_key or "").strip()
        if app_id and api_key:
            national.append(PremblyBrs(app_id, api_key, settings.prembly_base_url, timeout))
            national.append(PremblyCac(app_id, api_key, settings.prembly_base_url, timeout))
        dojah_app = (settings.dojah_app_id or "").strip()
        dojah_key = (settings.dojah_secret_key or "").strip()
        if dojah_app and dojah_key:
            national.append(DojahCac(dojah_app, dojah_key, settings.dojah_base_url, timeout))
        token = (settings.opencorporates_api_token or "").strip()
        opencorporates = (
            OpenCorporates(token, settings.opencorporates_base_url, timeout) if token else None
        )
        gleif_url = settings.gleif_base_url.strip()
        gleif = Gleif(gleif_url, timeout) if gleif_url else None
        policy = BreakerPolicy(
            settings.provider_breaker_failures, settings.provider_breaker_cooldown_seconds
        )
        return cls(national, opencorporates, gleif, settings.provider_order, policy)

    def national_chain(self, query: RegistryQuery) -> RegistryChain | None:
        own = [p for p in self.national if p.covers(query)]
        chain = ordered(own, self.order, f"kyb:{query.country}", "kyb")
        return RegistryChain(query.country, chain, self.breakers) if chain else None

    def find(self, query: RegistryQuery) -> RegistryProvider | None:
        """The provider that answers ``query`` (a country's national registries as one chain);
        None when none is configured for it."""
        if query.lei:
            return self.gleif
        own = self.national_chain(query)
        if own is not None or query.country in NATIONAL:
            return own
        for provider in (self.opencorporates, self.gleif):
            if provider is not None and provider.covers(query):
                return provider
        return None

    def states(self) -> dict[str, dict[str, Any]]:
        return self.breakers.snapshot(p.name for p in self.national)

    def channels(self) -> list[dict[str, Any]]:
        """Each national registry served live, its providers in order and their breakers."""
        listed: list[dict[str, Any]] = []
        for country, register in CHANNELS:
            probe = RegistryQuery(
                country, number=RegistrationNumber(country, "1", "company", "probe")
            )
            found = self.national_chain(probe)
            providers = found.chain.states() if found is not None else []
            listed.append({"category": "kyb", "country": country, "check": register})
            listed[-1]["providers"] = providers
        return listed

    @staticmethod
    def registry_of(provider: RegistryProvider, answered_by: str) -> str:
        """What the provider that answered reads (a chain's member, else ``provider``'s)."""
        if isinstance(provider, RegistryChain):
            return provider.registry_of(answered_by)
        return provider.registry

    def named(self, name: str) -> RegistryProvider | None:
        everything = [*self.national, self.opencorporates, self.gleif]
        return next((p for p in everything if p is not None and p.name == name), None)

    async def aclose(self) -> None:
        for provider in (*self.national, self.opencorporates, self.gleif):
            if provider is not None:
                await provider.aclose()
