"""What a vehicle registry adapter answers, and the runtime part that holds the configured one.

An adapter never raises for upstream trouble: timeouts, 5xx, 429 and garbled bodies are
UNAVAILABLE (02, not charged), refused credentials or an empty upstream wallet FAILED (09,
not charged), as for the identity providers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, Protocol

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy
from hakiki.core.providers.chain import ProviderChain, check_names, ordered

SearchBy = Literal["registration_number", "chassis_number"]


class RegistryOutcome(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    FAILED = "failed"


@dataclass(frozen=True)
class Owner:
    name: str
    id_number: str | None = None


@dataclass(frozen=True)
class Caveat:
    kind: str  # e.g. "financier", "court order", as the registry words it
    holder: str | None = None
    date: str | None = None  # ISO 8601


@dataclass(frozen=True)
class RegistryRecord:
    """A motor vehicle's record, as NTSA's "copy of records" gives it; every field optional
    because aggregators differ."""

    registration_number: str | None = None
    chassis_number: str | None = None
    engine_number: str | None = None
    make: str | None = None
    model: str | None = None
    body_type: str | None = None
    colour: str | None = None
    year_of_manufacture: int | None = None
    registration_date: str | None = None  # ISO 8601
    logbook_number: str | None = None
    owners: tuple[Owner, ...] = ()
    caveats: tuple[Caveat, ...] = ()
    #: Fields the provider's look-up does not give at all (null there is "not asked", not
    #: "empty on the register"); empty when the provider may give every field.
    not_given: tuple[str, ...] = ()


@dataclass(frozen=True)
class RegistryResult:
    outcome: RegistryOutcome
    provider: str
    record: RegistryRecord | None = None
    provider_reference: str | None = None
    message: str = ""


@dataclass(frozen=True)
class OwnerNames:
    """The owner's first and last names as the customer gave them (QoreID's plate look-up
    compares them with the record and needs both)."""

    first: str
    last: str


class VehicleRegistry(Protocol):
    @property
    def name(self) -> str: ...

    #: The plates' countries the provider serves live.
    countries: tuple[str, ...]

    def not_asked(self, country: str, owner: OwnerNames | None) -> str | None:
        """Why this provider is not asked for this look-up (a provider that needs what the
        request did not give), or None: a reason is neither an answer nor a failure."""
        ...

    async def lookup(
        self, by: SearchBy, value: str, *, country: str = "KE", owner: OwnerNames | None = None
    ) -> RegistryResult: ...

    async def aclose(self) -> None: ...


class VehicleChain:
    """One country's vehicle registry providers in the deployment's order, as one
    ``VehicleRegistry`` (tried with fallback behind their breakers; billed once by the caller):
    Prembly for Kenyan and Nigerian plates, then QoreID for Nigerian ones when the owner's
    first and last names were sent (docs/decisions.md)."""

    def __init__(
        self, country: str, providers: list[VehicleRegistry], breakers: BreakerBoard
    ) -> None:
        self.countries: tuple[str, ...] = (country,)
        self.chain: ProviderChain[VehicleRegistry, RegistryResult] = ProviderChain(
            f"{country} vehicle registry", providers, breakers, _unavailable
        )

    @property
    def name(self) -> str:
        return self.chain.name

    def not_asked(self, country: str, owner: OwnerNames | None) -> str | None:
        return None

    async def lookup(
        self, by: SearchBy, value: str, *, country: str = "KE", owner: OwnerNames | None = None
    ) -> RegistryResult:
        return await self.chain.ask(
            lambda provider: provider.lookup(by, value, country=country, owner=owner),
            not_asked=lambda provider: provider.not_asked(country, owner),
        )

    async def aclose(self) -> None:
        """The providers belong to ``VehicleRegistries``."""


def _unavailable(provider: str, message: str) -> RegistryResult:
    return RegistryResult(RegistryOutcome.UNAVAILABLE, provider, message=message)


#: Every vehicle registry provider Hakiki has an adapter for.
KNOWN: tuple[str, ...] = ("prembly", "qoreid")
#: The plates a provider serves live, for the channels list and the console.
CHANNELS: tuple[str, ...] = ("KE", "NG")


class VehicleRegistries:
    """The runtime part: the configured registry providers as one chain per country
    (``find``), or None in live mode without any for that country."""

    def __init__(
        self,
        providers: VehicleRegistry | list[VehicleRegistry] | None,
        order: Mapping[str, list[str]] | None = None,
        policy: BreakerPolicy | None = None,
        breakers: BreakerBoard | None = None,
    ) -> None:
        if providers is None:
            providers = []
        self.items = providers if isinstance(providers, list) else [providers]
        self.order = dict(order or {})
        check_names("HAKIKI_PROVIDER_ORDER", self.order, {"vehicle": KNOWN})
        self.breakers = breakers or BreakerBoard(policy or BreakerPolicy())

    def find(self, country: str) -> VehicleChain | None:
        """The providers serving ``country``'s plates, in the deployment's order."""
        serving = [p for p in self.items if country in p.countries]
        chain = ordered(serving, self.order, "vehicle")
        return VehicleChain(country, chain, self.breakers) if chain else None

    def states(self) -> dict[str, dict[str, Any]]:
        return self.breakers.snapshot(p.name for p in self.items)

    def channels(self) -> list[dict[str, Any]]:
        """Each country's plate look-up with the providers in order and their breakers."""
        listed: list[dict[str, Any]] = []
        for country in CHANNELS:
            found = self.find(country)
            states = found.chain.states() if found is not None else []
            listed.append(
                {"category": "vehicle", "country": country, "check": "plate", "providers": states}
            )
        return listed

    async def aclose(self) -> None:
        for provider in self.items:
            await provider.aclose()
