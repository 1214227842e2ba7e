"""The interface every business-registry adapter implements, and the HTTP plumbing they share.

An adapter never raises for upstream trouble: timeouts, connection errors, 5xx answers, rate
limits and bodies it cannot read become UNAVAILABLE (02, not charged); refused credentials or an
exhausted upstream account become FAILED (09, not charged), with a message for the operator.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import httpx

from hakiki.engines.kyb.model import Company, Ownership
from hakiki.engines.kyb.numbers import RegistrationNumber

logger = logging.getLogger("hakiki.kyb")


class RegistryOutcome(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    FAILED = "failed"


@dataclass(frozen=True)
class RegistryQuery:
    """What to look up: a registration number, an LEI or a name, in one country."""

    country: str
    number: RegistrationNumber | None = None
    lei: str | None = None
    name: str | None = None
    ownership: bool = False


@dataclass(frozen=True)
class RegistryResult:
    outcome: RegistryOutcome
    provider: str
    company: Company | None = None
    ownership: Ownership | None = None
    reference: str | None = None
    message: str = ""


class RegistryProvider(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def registry(self) -> str:  # what it reads: "BRS (via Prembly)", "GLEIF", "OpenCorporates"
        ...

    def covers(self, query: RegistryQuery) -> bool: ...

    async def lookup(self, query: RegistryQuery) -> RegistryResult: ...

    async def aclose(self) -> None: ...


class Upstream:
    """One adapter's HTTP client and the failures every adapter reports the same way."""

    def __init__(self, provider: str, label: str, timeout: float) -> None:
        self.provider = provider
        self.label = label
        self.timeout = timeout
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(timeout), follow_redirects=False)

    def result(
        self, outcome: RegistryOutcome, message: str, reference: str | None = None
    ) -> RegistryResult:
        return RegistryResult(outcome, self.provider, reference=reference, message=message)

    async def send(self, method: str, url: str, **options: Any) -> httpx.Response | RegistryResult:
        """The upstream's answer, or an UNAVAILABLE result when there was none."""
        try:
            return await self.client.request(method, url, **options)
        except httpx.TimeoutException:
            logger.warning("%s look-up timed out", self.provider)
            return self.result(
                RegistryOutcome.UNAVAILABLE, f"{self.label} did not answer within {self.timeout:g}s"
            )
        except httpx.HTTPError as exc:
            logger.warning("%s look-up failed: %s", self.provider, type(exc).__name__)
            return self.result(
                RegistryOutcome.UNAVAILABLE, f"could not reach {self.label} ({type(exc).__name__})"
            )

    def unreadable(
        self, response: httpx.Response, why: str = "an unexpected body"
    ) -> RegistryResult:
        return self.result(
            RegistryOutcome.UNAVAILABLE,
            f"{self.label} answered HTTP {response.status_code} with {why}",
        )

    async def aclose(self) -> None:
        await self.client.aclose()


def json_object(response: httpx.Response) -> dict[str, Any] | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def text(value: Any, limit: int = 300) -> str | None:
    """A registry's string value, trimmed, or None (numbers become text; anything else None)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    cleaned = " ".join(str(value).split())[:limit]
    return cleaned or None


def iso_date(value: Any) -> str | None:
    """``2016-03-02``, ``2016-03-02T00:00:00Z``, ``02/03/2016`` or ``02-03-2016`` as an ISO date."""
    raw = text(value, 40)
    if raw is None:
        return None
    if len(raw) >= 10 and raw[4] == "-" and raw[7] == "-" and raw[:4].isdigit():
        return raw[:10]
    for separator in ("/", "-"):
        parts = raw.split(separator)
        if len(parts) == 3 and all(p.isdigit() for p in parts) and len(parts[2]) == 4:
            day, month, year = (int(p) for p in parts)
            if 1 <= month <= 12 and 1 <= day <= 31:
                return f"{year:04d}-{month:02d}-{day:02d}"
    return None
