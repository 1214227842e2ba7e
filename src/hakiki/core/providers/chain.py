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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from hakiki.core.providers.breaker import BreakerBoard

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
