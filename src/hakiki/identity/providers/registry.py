"""Which identity providers this deployment has credentials for, and which serve a channel, in
which order (docs/providers.md)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy
from hakiki.core.settings import Settings
from hakiki.identity.channels import CHANNELS
from hakiki.identity.providers.base import IdentityProvider
from hakiki.identity.providers.chain import IdentityChain
from hakiki.identity.providers.dojah import DojahProvider
from hakiki.identity.providers.prembly import PremblyProvider
from hakiki.identity.providers.smile_id import SmileIdProvider, id_types

logger = logging.getLogger(__name__)

#: Every identity provider Hakiki has an adapter for, in the default order.
KNOWN: tuple[str, ...] = ("prembly", "dojah", "smile_id")


def build_providers(settings: Settings) -> list[IdentityProvider]:
    """The providers configured in ``settings`` (default order: Prembly, Dojah, Smile ID);
    empty when no upstream credentials are set.

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
    dojah_app = (settings.dojah_app_id or "").strip()
    dojah_key = (settings.dojah_secret_key or "").strip()
    if dojah_app and dojah_key:
        providers.append(
            DojahProvider(
                app_id=dojah_app,
                secret_key=dojah_key,
                base_url=settings.dojah_base_url,
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


def check_order(order: Mapping[str, list[str]]) -> None:
    """A ValueError naming a provider Hakiki has no adapter for (a typo would otherwise quietly
    leave a channel without its fallback)."""
    for key, names in order.items():
        unknown = [name for name in names if name not in KNOWN]
        if unknown:
            raise ValueError(
                f"HAKIKI_IDENTITY_PROVIDER_ORDER {key!r}: unknown provider(s) {unknown}; "
                f"known: {list(KNOWN)}"
            )


def identity_order(settings: Settings) -> dict[str, list[str]]:
    """HAKIKI_IDENTITY_PROVIDER_ORDER, with HAKIKI_PROVIDER_ORDER's ``identity:`` keys beneath
    it (the identity setting wins on the same key)."""
    general = {
        key.split(":", 1)[1]: names
        for key, names in settings.provider_order.items()
        if key.startswith("identity:")
    }
    return general | settings.identity_provider_order


class Providers:
    """The identity providers of a running service, held by its runtime: each channel's chain
    (ordered, with fallback) and the process's circuit breakers."""

    def __init__(
        self,
        items: list[IdentityProvider],
        order: Mapping[str, list[str]] | None = None,
        policy: BreakerPolicy | None = None,
    ) -> None:
        self.items = items
        self.order = dict(order or {})
        check_order(self.order)
        self.breakers = BreakerBoard(policy or BreakerPolicy())
        self._chains: dict[tuple[str, str], IdentityChain | None] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> Providers:
        policy = BreakerPolicy(
            settings.provider_breaker_failures, settings.provider_breaker_cooldown_seconds
        )
        built = cls(build_providers(settings), identity_order(settings), policy)
        configured = {p.name for p in built.items}
        for key, names in built.order.items():
            missing = [name for name in names if name not in configured]
            if missing:
                logger.warning(
                    "HAKIKI_IDENTITY_PROVIDER_ORDER %s lists %s without credentials: skipped",
                    key,
                    ", ".join(missing),
                )
        return built

    def chain_of(self, country: str, channel: str) -> list[IdentityProvider]:
        """The configured providers serving the channel, in the deployment's order."""
        country, channel = country.upper(), channel.lower()
        serving = [p for p in self.items if p.supports(country, channel)]
        names = self.order.get(f"{country}:{channel}", self.order.get(country))
        if names is None:
            return serving
        by_name = {p.name: p for p in serving}
        return [by_name[name] for name in names if name in by_name]

    def find(self, country: str, channel: str) -> IdentityChain | None:
        key = (country.upper(), channel.lower())
        if key not in self._chains:
            chain = self.chain_of(*key)
            self._chains[key] = IdentityChain(*key, chain, self.breakers) if chain else None
        return self._chains[key]

    def states(self) -> dict[str, dict[str, Any]]:
        """Each configured provider's breaker, for readiness and the channels endpoint."""
        return self.breakers.snapshot(p.name for p in self.items)

    def channels(self) -> list[dict[str, Any]]:
        """Each identity channel with its providers in order and their breakers."""
        listed: list[dict[str, Any]] = []
        for country, code in self._known_keys():
            names = [p.name for p in self.chain_of(country, code)]
            providers = [
                {"name": name, "position": i, **self.breakers.breaker(name).snapshot()}
                for i, name in enumerate(names, start=1)
            ]
            listed.append(
                {"category": "identity", "country": country, "check": code, "providers": providers}
            )
        return listed

    def longest_chain(self) -> int:
        """How many providers the longest chain holds (at least 1): a look-up can take that
        many timeouts."""
        lengths = [len(self.chain_of(*key)) for key in self._known_keys()]
        return max([1, *lengths])

    def _known_keys(self) -> list[tuple[str, str]]:
        return [(c.country, c.code) for c in CHANNELS]

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
