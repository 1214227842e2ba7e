"""What a vehicle registry adapter answers, and the runtime part that holds the configured one.

An adapter never raises for upstream trouble: timeouts, 5xx, 429 and garbled bodies are
UNAVAILABLE (02, not charged), refused credentials or an empty upstream wallet FAILED (09,
not charged), as for the identity providers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, Protocol

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


@dataclass(frozen=True)
class RegistryResult:
    outcome: RegistryOutcome
    provider: str
    record: RegistryRecord | None = None
    provider_reference: str | None = None
    message: str = ""


class VehicleRegistry(Protocol):
    name: str

    async def lookup(self, by: SearchBy, value: str) -> RegistryResult: ...

    async def aclose(self) -> None: ...


class VehicleRegistries:
    """The runtime part: the configured registry adapter, or None in live mode without one."""

    def __init__(self, registry: VehicleRegistry | None) -> None:
        self.registry = registry

    async def aclose(self) -> None:
        if self.registry is not None:
            await self.registry.aclose()
