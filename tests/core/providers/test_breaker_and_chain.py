"""The generic provider chain and circuit breaker (core.providers), pure: a fake clock, plain
coroutines for providers."""

from __future__ import annotations

import asyncio

import pytest

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy, BreakerState, CircuitBreaker
from hakiki.core.providers.chain import first_answer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_breaker_opens_after_threshold_then_half_opens_for_one_trial_and_closes() -> None:
    clock = Clock()
    breaker = CircuitBreaker(BreakerPolicy(failure_threshold=3, cool_down_seconds=10), clock)
    for _ in range(2):
        assert breaker.acquire()
        breaker.failed()
    assert breaker.state is BreakerState.CLOSED
    assert breaker.acquire()
    breaker.failed()
    assert breaker.state is BreakerState.OPEN
    assert not breaker.acquire()  # short-circuited
    assert breaker.snapshot()["retry_in_seconds"] == 10.0
    clock.now += 9.9
    assert not breaker.acquire()
    clock.now += 0.1
    assert breaker.state is BreakerState.HALF_OPEN
    assert breaker.acquire()  # the one trial
    assert not breaker.acquire()  # nobody else while it runs
    breaker.succeeded()
    assert breaker.state is BreakerState.CLOSED and breaker.acquire()
    assert breaker.snapshot() == {"state": "closed", "consecutive_failures": 0, "times_opened": 1}


def test_a_failed_trial_opens_the_breaker_for_another_cool_down() -> None:
    clock = Clock()
    breaker = CircuitBreaker(BreakerPolicy(failure_threshold=1, cool_down_seconds=5), clock)
    breaker.acquire()
    breaker.failed()
    clock.now += 5
    assert breaker.acquire()
    breaker.failed()
    assert breaker.state is BreakerState.OPEN and not breaker.acquire()
    clock.now += 5
    assert breaker.acquire()
    assert breaker.trips == 2


def test_a_success_resets_the_consecutive_failures() -> None:
    breaker = CircuitBreaker(BreakerPolicy(failure_threshold=2, cool_down_seconds=5), Clock())
    breaker.failed()
    breaker.succeeded()
    breaker.failed()
    assert breaker.state is BreakerState.CLOSED


def test_an_abandoned_trial_lets_the_next_call_try() -> None:
    clock = Clock()
    breaker = CircuitBreaker(BreakerPolicy(failure_threshold=1, cool_down_seconds=1), clock)
    breaker.failed()
    clock.now += 1
    assert breaker.acquire()
    breaker.released()
    assert breaker.acquire()


def test_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="failure_threshold"):
        BreakerPolicy(failure_threshold=0)
    with pytest.raises(ValueError, match="cool_down"):
        BreakerPolicy(cool_down_seconds=-1)


# --- the chain ----------------------------------------------------------------------------------


def board(threshold: int = 2, clock: Clock | None = None) -> BreakerBoard:
    return BreakerBoard(BreakerPolicy(threshold, 30), clock or Clock())


def scripted(answers: dict[str, str], calls: list[str]):
    async def call(name: str) -> str:
        calls.append(name)
        answer = answers[name]
        if answer == "raise":
            raise RuntimeError("adapter bug")
        return answer

    return call


def is_failure(result: str) -> bool:
    return result == "down"


async def test_chain_falls_back_on_failure_and_returns_the_first_answer() -> None:
    calls: list[str] = []
    breakers = board()
    found = await first_answer(
        ["a", "b", "c"],
        scripted({"a": "down", "b": "found", "c": "found"}, calls),
        is_failure,
        breakers,
    )
    assert (found.result, found.answered_by, calls) == ("found", "b", ["a", "b"])
    assert [(x.provider, x.outcome) for x in found.attempts] == [("a", "failed"), ("b", "answered")]
    assert breakers.snapshot()["a"]["consecutive_failures"] == 1


async def test_chain_never_falls_back_on_an_answer_such_as_not_found() -> None:
    calls: list[str] = []
    found = await first_answer(
        ["a", "b"], scripted({"a": "not_found", "b": "found"}, calls), is_failure, board()
    )
    assert (found.result, found.answered_by, calls) == ("not_found", "a", ["a"])


async def test_chain_returns_the_last_failure_when_nobody_answers() -> None:
    calls: list[str] = []
    found = await first_answer(
        ["a", "b"], scripted({"a": "down", "b": "down"}, calls), is_failure, board()
    )
    assert (found.result, found.answered_by, calls) == ("down", None, ["a", "b"])


async def test_chain_skips_an_open_breaker_without_calling_it() -> None:
    breakers = board(threshold=1)
    calls: list[str] = []
    call = scripted({"a": "down", "b": "found"}, calls)
    await first_answer(["a", "b"], call, is_failure, breakers)
    assert breakers.breaker("a").state is BreakerState.OPEN
    calls.clear()
    found = await first_answer(["a", "b"], call, is_failure, breakers)
    assert calls == ["b"] and found.skipped == ["a"] and found.answered_by == "b"


async def test_chain_with_every_breaker_open_calls_nobody() -> None:
    breakers = board(threshold=1)
    calls: list[str] = []
    call = scripted({"a": "down"}, calls)
    await first_answer(["a"], call, is_failure, breakers)
    calls.clear()
    found = await first_answer(["a"], call, is_failure, breakers)
    assert (found.result, found.answered_by, calls, found.skipped) == (None, None, [], ["a"])


async def test_an_exception_is_a_failure_that_falls_back() -> None:
    calls: list[str] = []
    breakers = board()
    found = await first_answer(
        ["a", "b"],
        scripted({"a": "raise", "b": "found"}, calls),
        is_failure,
        breakers,
        on_error=lambda name, exc: f"{name} crashed",
    )
    assert (found.result, found.answered_by) == ("found", "b")
    assert found.attempts[0].outcome == "error"
    assert breakers.snapshot()["a"]["consecutive_failures"] == 1


async def test_cancelling_a_half_open_trial_gives_no_verdict() -> None:
    clock = Clock()
    breakers = board(threshold=1, clock=clock)
    breakers.breaker("a").failed()
    clock.now += 30
    started = asyncio.Event()

    async def hang(name: str) -> str:
        started.set()
        await asyncio.sleep(10)
        return "found"

    task = asyncio.create_task(first_answer(["a"], hang, is_failure, breakers))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert breakers.breaker("a").state is BreakerState.HALF_OPEN
    assert breakers.breaker("a").acquire()  # the next call may be the trial
