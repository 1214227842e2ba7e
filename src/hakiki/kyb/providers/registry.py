"""Which business registries this deployment can read, and which one answers a query.

Kenya's BRS and Nigeria's CAC through Prembly (with the Prembly credentials the identity
channels use). Uganda's URSB and Tanzania's BRELA have no aggregator with a public API we could
find (docs/decisions.md), so their numbers, like every other country's, go to the global
fallback: OpenCorporates when a token is configured, else GLEIF; so does a Nigerian name, or a
Nigerian number where Prembly is not configured. An LEI always goes to GLEIF.
"""

from __future__ import annotations

from hakiki.core.settings import Settings
from hakiki.kyb.providers.base import RegistryProvider, RegistryQuery
from hakiki.kyb.providers.gleif import Gleif
from hakiki.kyb.providers.opencorporates import OpenCorporates
from hakiki.kyb.providers.prembly_brs import PremblyBrs
from hakiki.kyb.providers.prembly_cac import PremblyCac

NATIONAL = ("KE",)  # countries whose own registry is the only one asked


class Registries:
    """The registry providers of a running service, held by its runtime."""

    def __init__(
        self,
        national: list[RegistryProvider],
        opencorporates: RegistryProvider | None,
        gleif: RegistryProvider | None,
    ) -> None:
        self.national = national
        self.opencorporates = opencorporates
        self.gleif = gleif

    @classmethod
    def from_settings(cls, settings: Settings) -> Registries:
        timeout = settings.provider_timeout_seconds
        national: list[RegistryProvider] = []
        app_id = (settings.prembly_app_id or "").strip()
        api_key = (settings.prembly_api_key or "").strip()
        if app_id and api_key:
            national.append(PremblyBrs(app_id, api_key, settings.prembly_base_url, timeout))
            national.append(PremblyCac(app_id, api_key, settings.prembly_base_url, timeout))
        token = (settings.opencorporates_api_token or "").strip()
        opencorporates = (
            OpenCorporates(token, settings.opencorporates_base_url, timeout) if token else None
        )
        gleif_url = settings.gleif_base_url.strip()
        gleif = Gleif(gleif_url, timeout) if gleif_url else None
        return cls(national, opencorporates, gleif)

    def find(self, query: RegistryQuery) -> RegistryProvider | None:
        """The provider that answers ``query``; None when none is configured for it."""
        if query.lei:
            return self.gleif
        own = next((p for p in self.national if p.covers(query)), None)
        if own is not None or query.country in NATIONAL:
            return own
        for provider in (self.opencorporates, self.gleif):
            if provider is not None and provider.covers(query):
                return provider
        return None

    def named(self, name: str) -> RegistryProvider | None:
        everything = [*self.national, self.opencorporates, self.gleif]
        return next((p for p in everything if p is not None and p.name == name), None)

    async def aclose(self) -> None:
        for provider in (*self.national, self.opencorporates, self.gleif):
            if provider is not None:
                await provider.aclose()
