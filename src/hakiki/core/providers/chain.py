"""Trying an ordered list of providers until one answers (docs/providers.md#fallback).

The caller says, for each result, whether it is an answer (the provider spoke about the
subject: found, not found, a refusal of the number itself) or a provider failure (unreachable,
slow, garbage, its credentials refused): only failures move on to the next provider, and only
they count against the provider's breaker. A provider whose breaker is open is skipped without
a call. An exception from an attempt is a failure too, never an escape.

The chain returns ONE result: the first answer, else the last failure. Whoever bills the call
bills that one result, so trying three providers never charges three times.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar, cast

from hakiki.core.providers.breaker import BreakerBoard, BreakerState

logger = logging.getLogger("hakiki.providers")

R = TypeVar("R")


@dataclass(frozen=True)
class Attempt:
    provider: str
    outcome: str  # "answered" | "failed" | "error" | "skipped" (breaker open)


@dataclass(frozen=True)
class ChainResult(Generic[R]):
    """``result`` is the answer (``answered_by`` names its provider) or, when none answered,
    the last provider failure; None when every provider was skipped (all breakers open)."""

    result: R | None
    answered_by: str | None
    attempts: tuple[Attempt, ...] = field(default=())

    @property
    def skipped(self) -> list[str]:
        return [a.provider for a in self.attempts if a.outcome == "skipped"]


async def first_answer(
    names: Sequence[str],
    call: Callable[[str], Awaitable[R]],
    is_failure: Callable[[R], bool],
    breakers: BreakerBoard,
    on_error: Callable[[str, Exception], R] | None = None,
) -> ChainResult[R]:
    """Call ``call(name)`` for each provider in ``names`` until one answers.

    ``on_error`` turns an exception raised by a call into that provider's failure result (so the
    chain has something to return when nobody answers); without it the exception is logged
    and the chain moves on.
    """
    attempts: list[Attempt] = []
    last: R | None = None
    for name in names:
        breaker = breakers.breaker(name)
        if not breaker.acquire():
            attempts.append(Attempt(name, "skipped"))
            logger.info("provider %s skipped: circuit %s", name, breaker.state.value)
            continue
        try:
            result = await call(name)
        except Exception as exc:  # an adapter bug or a crash: a failure, never an escape
            breaker.failed()
            attempts.append(Attempt(name, "error"))
            logger.exception("provider %s raised; trying the next one", name)
            if on_error is not None:
                last = on_error(name, exc)
            continue
        except BaseException:  # cancelled: no verdict on the provider
            breaker.released()
            raise
        if is_failure(result):
            breaker.failed()
            attempts.append(Attempt(name, "failed"))
            last = result
            logger.info("provider %s failed; trying the next one", name)
            continue
        breaker.succeeded()
        attempts.append(Attempt(name, "answered"))
        return ChainResult(result, name, tuple(attempts))
    return ChainResult(last, None, tuple(attempts))


class Named(Protocol):
    @property
    def name(self) -> str: ...


class Answer(Protocol):
    """A domain adapter's result as the generic chain reads it: tax, KYB and vehicle results
    are frozen dataclasses with these fields and an outcome whose value is ``found``,
    ``not_found``, ``unavailable`` or ``failed``."""

    @property
    def provider(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def outcome(self) -> Any: ...


P = TypeVar("P", bound=Named)
A = TypeVar("A", bound=Answer)

#: Outcomes that are the provider's failure (the next provider is tried): unavailable (down,
#: slow, garbage) and failed (these domains' adapters answer FAILED only for our account's
#: sake: refused credentials, an empty balance, a look-up the provider does not serve).
FAILURES = frozenset({"unavailable", "failed"})


def provider_failed(result: Answer) -> bool:
    return str(getattr(result.outcome, "value", result.outcome)) in FAILURES


def ordered(items: Sequence[P], order: Mapping[str, list[str]], *keys: str) -> list[P]:
    """``items`` in the order the first of ``keys`` present in ``order`` gives (providers it
    does not list are left out); as given when no key is present."""
    for key in keys:
        names = order.get(key)
        if names is not None:
            by_name = {item.name: item for item in items}
            return [by_name[name] for name in names if name in by_name]
    return list(items)


def check_names(
    setting: str, order: Mapping[str, list[str]], known: Mapping[str, Sequence[str]]
) -> None:
    """A ValueError naming a provider the category has no adapter for (a typo would quietly
    leave a channel without its fallback). ``known``: category -> provider names."""
    for key, names in order.items():
        category = key.split(":", 1)[0]
        if category not in known:
            continue
        unknown = [name for name in names if name not in known[category]]
        if unknown:
            raise ValueError(
                f"{setting} {key!r}: unknown provider(s) {unknown}; known for {category}: "
                f"{list(known[category])}"
            )


class ProviderChain(Generic[P, A]):
    """One channel's providers, first to last, behind their breakers (one board per category).
    ``ask`` returns ONE result: the first answer, else the last failure with a message saying
    what each provider did (unavailable when any was unavailable or skipped), else, when every
    breaker was open, ``unavailable(first provider, message)``."""

    def __init__(
        self,
        label: str,
        providers: Sequence[P],
        breakers: BreakerBoard,
        unavailable: Callable[[str, str], A],
    ) -> None:
        if not providers:
            raise ValueError("a chain has at least one provider")
        self.label = label
        self.providers = list(providers)
        self.breakers = breakers
        self._unavailable = unavailable
        self._by_name = {provider.name: provider for provider in self.providers}

    @property
    def name(self) -> str:
        """The provider expected to answer: the first whose breaker is not open."""
        for provider in self.providers:
            if self.breakers.breaker(provider.name).state is not BreakerState.OPEN:
                return provider.name
        return self.providers[0].name

    @property
    def names(self) -> list[str]:
        return [provider.name for provider in self.providers]

    def member(self, name: str) -> P | None:
        return self._by_name.get(name)

    def states(self) -> list[dict[str, Any]]:
        """Each provider in order with its breaker, for readiness, channels and the console."""
        return [
            {"name": name, "position": i, **self.breakers.breaker(name).snapshot()}
            for i, name in enumerate(self.names, start=1)
        ]

    async def ask(
        self,
        call: Callable[[P], Awaitable[A]],
        not_asked: Callable[[P], str | None] | None = None,
    ) -> A:
        """``not_asked(provider)``: why a provider is left out of this call (it needs what the
        request did not give), or None. A provider left out is neither called nor counted
        against its breaker; the message of a call nobody answered says why it was not asked."""
        failures: dict[str, A] = {}
        reasons: dict[str, str] = {}
        if not_asked is not None:
            for provider in self.providers:
                reason = not_asked(provider)
                if reason:
                    reasons[provider.name] = reason
        names = [name for name in self.names if name not in reasons]

        async def attempt(name: str) -> A:
            result = await call(self._by_name[name])
            if provider_failed(result):
                failures[name] = result
            return result

        def crashed(name: str, exc: Exception) -> A:
            failure = self._unavailable(name, f"{name} crashed ({type(exc).__name__})")
            failures[name] = failure
            return failure

        found = await first_answer(names, attempt, provider_failed, self.breakers, crashed)
        if found.answered_by is not None and found.result is not None:
            return found.result
        skipped = set(found.skipped)
        said: list[str] = []
        for name in self.names:
            if name in reasons:
                said.append(f"{name}: not asked, {reasons[name]}")
            elif name in failures:
                said.append(f"{name}: {failures[name].message}")
            elif name in skipped:
                said.append(f"{name}: skipped, circuit open after repeated failures")
        message = f"no provider answered for {self.label} ({'; '.join(said)})"
        last = found.result
        if last is None:
            return self._unavailable(self.providers[0].name, message)
        if len(self.providers) == 1:
            return last  # one provider: its own words
        if skipped or any(str(f.outcome.value) == "unavailable" for f in failures.values()):
            return cast(A, replace(cast(Any, last), outcome=_unavailable_of(last), message=message))
        return cast(A, replace(cast(Any, last), message=message))


def _unavailable_of(result: Answer) -> Any:
    """The UNAVAILABLE member of the result's own outcome enum."""
    return type(result.outcome)("unavailable")
