"""One channel's identity providers in order, tried with fallback behind their circuit breakers
(core.providers; docs/providers.md). To its callers a chain is one `IdentityProvider`: they
hold the price once, call `lookup` once and bill its one result."""

from __future__ import annotations

from collections.abc import Sequence

from hakiki.core.providers.breaker import BreakerBoard, BreakerState
from hakiki.core.providers.chain import first_answer
from hakiki.identity.providers.base import IdentityProvider, LookupOutcome, LookupResult


def falls_back(result: LookupResult) -> bool:
    """A provider failure, for which the next provider is tried (and the breaker counts):
    unavailable (down, slow, rate-limited, garbage) or refused for our account's sake
    (credentials, balance, set-up). Found, not found and refusals of the number itself are
    answers."""
    if result.outcome is LookupOutcome.UNAVAILABLE:
        return True
    return result.outcome is LookupOutcome.FAILED and result.provider_fault


class IdentityChain:
    """The providers serving ``country`` ``channel``, first to last."""

    def __init__(
        self,
        country: str,
        channel: str,
        providers: Sequence[IdentityProvider],
        breakers: BreakerBoard,
    ) -> None:
        if not providers:
            raise ValueError("a chain has at least one provider")
        self.country = country.upper()
        self.channel = channel.lower()
        self.providers = list(providers)
        self._by_name = {provider.name: provider for provider in self.providers}
        self._breakers = breakers

    @property
    def name(self) -> str:
        """The provider expected to answer: the first whose breaker is not open."""
        for provider in self.providers:
            if self._breakers.breaker(provider.name).state is not BreakerState.OPEN:
                return provider.name
        return self.providers[0].name

    @property
    def names(self) -> list[str]:
        return [provider.name for provider in self.providers]

    def supports(self, country: str, channel: str) -> bool:
        return (country.upper(), channel.lower()) == (self.country, self.channel)

    async def lookup(
        self,
        country: str,
        channel: str,
        number: str,
        *,
        last_name: str | None = None,
        first_name: str | None = None,
    ) -> LookupResult:
        failures: list[LookupResult] = []

        async def call(name: str) -> LookupResult:
            result = await self._by_name[name].lookup(
                country, channel, number, last_name=last_name, first_name=first_name
            )
            if falls_back(result):
                failures.append(result)
            return result

        def crashed(name: str, exc: Exception) -> LookupResult:
            failure = LookupResult(
                LookupOutcome.UNAVAILABLE, name, message=f"{name} crashed ({type(exc).__name__})"
            )
            failures.append(failure)
            return failure

        found = await first_answer(self.names, call, falls_back, self._breakers, crashed)
        if found.answered_by is not None and found.result is not None:
            return found.result
        return self._nobody_answered(found.result, failures, found.skipped)

    def _nobody_answered(
        self, last: LookupResult | None, failures: list[LookupResult], skipped: list[str]
    ) -> LookupResult:
        """Every provider failed or was skipped: the last failure (its provider named), its
        message telling what each provider did. Never billable (02 or 09)."""
        said = [f"{f.provider}: {f.message}" for f in failures]
        said += [f"{name}: skipped, circuit open after repeated failures" for name in skipped]
        message = f"no provider answered for {self.country} {self.channel} ({'; '.join(said)})"
        if last is None:  # all skipped: the channel is unavailable for now
            return LookupResult(LookupOutcome.UNAVAILABLE, self.providers[0].name, message=message)
        outcome = last.outcome
        if any(f.outcome is LookupOutcome.UNAVAILABLE for f in failures) or skipped:
            outcome = LookupOutcome.UNAVAILABLE  # retry later may succeed
        return LookupResult(
            outcome,
            last.provider,
            provider_reference=last.provider_reference,
            message=message,
            provider_fault=last.provider_fault,
        )

    async def aclose(self) -> None:
        """The providers belong to the registry (`Providers.aclose`)."""
