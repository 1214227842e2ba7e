"""The interface every identity-registry provider adapter implements.

An adapter turns one upstream API (an aggregator such as Prembly, or a government registry) into
`LookupResult`s. It never raises for upstream trouble: timeouts, 5xx answers and garbled bodies
become `LookupOutcome.UNAVAILABLE`, so the caller can answer `response_code` 02 and charge nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


class LookupOutcome(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"  # upstream down, slow or answering garbage: retryable, not billed
    FAILED = "failed"  # the provider refused the request (credentials, quota, number): not billed


@dataclass(frozen=True)
class IdentityRecord:
    """What the registry holds for a number. Persons fill the name fields, businesses
    `business_name`; everything is optional because registries differ."""

    first_name: str | None = None
    middle_name: str | None = None
    last_name: str | None = None
    business_name: str | None = None
    date_of_birth: str | None = None  # ISO 8601 date
    gender: str | None = None  # "male" | "female"
    phone: str | None = None
    nationality: str | None = None  # ISO 3166-1 alpha-2
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LookupResult:
    outcome: LookupOutcome
    provider: str
    record: IdentityRecord | None = None
    provider_reference: str | None = None
    message: str = ""
    #: FAILED because of our account at the provider (credentials refused, balance, endpoint
    #: not set up), not because of the number: another provider may answer (docs/providers.md).
    provider_fault: bool = False


class IdentityProvider(Protocol):
    """A configured upstream that verifies identity numbers for some channels."""

    @property
    def name(self) -> str: ...

    def supports(self, country: str, channel: str) -> bool: ...

    async def lookup(
        self,
        country: str,
        channel: str,
        number: str,
        *,
        last_name: str | None = None,
        first_name: str | None = None,
    ) -> LookupResult:
        """``last_name`` and ``first_name`` go to registries that match them with the number
        (passports, driver's licences); other channels ignore them."""
        ...

    async def aclose(self) -> None: ...
