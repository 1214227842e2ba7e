"""A circuit breaker per upstream provider, per process (docs/providers.md#circuit-breaker).

closed -> (``failure_threshold`` failures in a row) -> open -> (``cool_down_seconds``) ->
half-open: exactly one trial call goes through; its success closes the breaker, its failure
opens it again for another cool-down. Calls made while the breaker is open, or while the
half-open trial is under way, are short-circuited: the caller moves on to the next provider.

Pure and synchronous: every transition happens between awaits of one event loop, so no lock is
needed. The clock is injectable for tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


@dataclass(frozen=True)
class BreakerPolicy:
    failure_threshold: int = 5
    cool_down_seconds: float = 30.0

    def __post_init__(self) -> None:
        if self.failure_threshold < 1:
            raise ValueError("failure_threshold is at least 1")
        if self.cool_down_seconds < 0:
            raise ValueError("cool_down_seconds is 0 or more")


class CircuitBreaker:
    """One provider's breaker. ``acquire`` before a call; then exactly one of ``succeeded``,
    ``failed`` (or ``released`` when the call was abandoned, e.g. cancelled)."""

    def __init__(self, policy: BreakerPolicy, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self._clock = clock
        self._state = BreakerState.CLOSED
        self._failures = 0  # consecutive failures while closed
        self._opened_at = 0.0
        self._trial_running = False
        self.trips = 0  # how many times the breaker opened, for operators

    @property
    def state(self) -> BreakerState:
        """The state as a caller would find it now: an open breaker whose cool-down has passed
        reads half-open (its next call is the trial)."""
        if self._state is BreakerState.OPEN and self._cooled():
            return BreakerState.HALF_OPEN
        return self._state

    def _cooled(self) -> bool:
        return self._clock() - self._opened_at >= self.policy.cool_down_seconds

    def acquire(self) -> bool:
        """Whether a call may go to the provider now (and, half-open, takes the one trial)."""
        if self._state is BreakerState.CLOSED:
            return True
        if self._state is BreakerState.OPEN:
            if not self._cooled():
                return False
            self._state = BreakerState.HALF_OPEN
            self._trial_running = False
        if self._trial_running:
            return False
        self._trial_running = True
        return True

    def succeeded(self) -> None:
        self._state = BreakerState.CLOSED
        self._failures = 0
        self._trial_running = False

    def failed(self) -> None:
        if self._state is BreakerState.HALF_OPEN:
            self._open()
            return
        self._failures += 1
        if self._state is BreakerState.CLOSED and self._failures >= self.policy.failure_threshold:
            self._open()

    def released(self) -> None:
        """The call ended without a verdict on the provider (cancelled): a half-open breaker
        lets the next call be the trial."""
        self._trial_running = False

    def _open(self) -> None:
        self._state = BreakerState.OPEN
        self._opened_at = self._clock()
        self._failures = 0
        self._trial_running = False
        self.trips += 1

    def snapshot(self) -> dict[str, Any]:
        """What an operator sees (readiness, channels): no secrets."""
        state = self.state
        view: dict[str, Any] = {"state": state.value, "consecutive_failures": self._failures}
        if state is not BreakerState.CLOSED:
            ago = self._clock() - self._opened_at
            view["opened_seconds_ago"] = round(ago, 1)
        if state is BreakerState.OPEN:
            left = self.policy.cool_down_seconds - (self._clock() - self._opened_at)
            view["retry_in_seconds"] = round(max(left, 0.0), 1)
        view["times_opened"] = self.trips
        return view


class BreakerBoard:
    """The breakers of one process, one per provider name, made on first use."""

    def __init__(self, policy: BreakerPolicy, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self._clock = clock
        self._breakers: dict[str, CircuitBreaker] = {}

    def breaker(self, name: str) -> CircuitBreaker:
        found = self._breakers.get(name)
        if found is None:
            found = self._breakers[name] = CircuitBreaker(self.policy, self._clock)
        return found

    def snapshot(self, names: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        wanted = list(self._breakers) if names is None else list(names)
        return {name: self.breaker(name).snapshot() for name in wanted}
