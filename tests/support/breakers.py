"""A clock the breaker tests move by hand, and a category's breakers put on it."""

from __future__ import annotations

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy

COOL_DOWN = 60.0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def board(clock: Clock, failures: int) -> BreakerBoard:
    """Breakers opening after ``failures`` in a row, cooling down for COOL_DOWN on ``clock``."""
    return BreakerBoard(BreakerPolicy(failures, COOL_DOWN), clock)
