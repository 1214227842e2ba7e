"""HAKIKI_PROVIDER_ORDER (every category's order in one setting) and the generic chain the tax,
KYB and vehicle providers share (core.providers.chain.ProviderChain): pure, stub providers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import pytest
from pydantic import ValidationError

from hakiki.core.providers.breaker import BreakerBoard, BreakerPolicy
from hakiki.core.providers.chain import ProviderChain, check_names, ordered
from hakiki.core.settings import Settings
from hakiki.identity.providers.registry import identity_order
from tests.support.breakers import Clock


class Outcome(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    FAILED = "failed"


@dataclass(frozen=True)
class Result:
    outcome: Outcome
    provider: str
    message: str = ""


class Stub:
    def __init__(self, name: str, *answers: Outcome | Exception) -> None:
        self.name = name
        self.answers = list(answers)
        self.calls = 0

    async def ask(self) -> Result:
        self.calls += 1
        answer = self.answers[min(self.calls, len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return Result(answer, self.name, f"{self.name} said {answer.value}")


def unavailable(provider: str, message: str) -> Result:
    return Result(Outcome.UNAVAILABLE, provider, message)


def chain(*stubs: Stub, failures: int = 5) -> ProviderChain[Stub, Result]:
    board = BreakerBoard(BreakerPolicy(failures, 30), Clock())
    return ProviderChain("NG tax", list(stubs), board, unavailable)


def test_the_setting_takes_categories_countries_and_identity_channels() -> None:
    order = {
        " Tax:ng ": [" Dojah", "prembly"],
        "kyb": ["prembly"],
        "vehicle": ["prembly"],
        "identity:ng:BVN": ["dojah"],
        "identity:NG": ["prembly", "dojah"],
    }
    settings = Settings(provider_order=order)
    assert settings.provider_order == {
        "tax:NG": ["dojah", "prembly"],
        "kyb": ["prembly"],
        "vehicle": ["prembly"],
        "identity:NG:bvn": ["dojah"],
        "identity:NG": ["prembly", "dojah"],
    }


@pytest.mark.parametrize(
    "order",
    [
        {"credit:NG": ["x"]},  # not a category with an order
        {"tax:NGA": ["dojah"]},
        {"tax:NG:pin": ["dojah"]},  # channels are identity's only
        {"identity": ["dojah"]},  # identity needs its country
        {"vehicle:NG": ["prembly"]},  # one vehicle list serves every country
        {"tax:NG": []},
        {"tax:NG": ["dojah", "dojah"]},
    ],
)
def test_a_malformed_order_is_refused_at_start(order: dict[str, list[str]]) -> None:
    with pytest.raises(ValidationError):
        Settings(provider_order=order)


def test_identity_keys_join_the_identity_order_which_wins() -> None:
    settings = Settings(
        provider_order={"identity:NG": ["dojah"], "identity:NG:nin": ["dojah"], "tax": ["dojah"]},
        identity_provider_order={"NG:nin": ["prembly"]},
    )
    assert identity_order(settings) == {"NG": ["dojah"], "NG:nin": ["prembly"]}


def test_unknown_names_are_refused_and_the_first_present_key_orders() -> None:
    with pytest.raises(ValueError, match=r"unknown provider\(s\) \['dojha'\]"):
        check_names("HAKIKI_PROVIDER_ORDER", {"tax:NG": ["dojha"]}, {"tax": ("prembly",)})
    check_names("HAKIKI_PROVIDER_ORDER", {"kyb": ["whatever"]}, {"tax": ("prembly",)})
    a, b = Stub("prembly"), Stub("dojah")
    assert ordered([a, b], {"tax": ["dojah"]}, "tax:NG", "tax") == [b]
    assert ordered([a, b], {"tax:NG": ["dojah", "prembly"], "tax": []}, "tax:NG", "tax") == [b, a]
    assert ordered([a, b], {}, "tax:NG", "tax") == [a, b]


async def test_failures_fall_back_answers_do_not() -> None:
    first, second = Stub("prembly", Outcome.FAILED), Stub("dojah", Outcome.FOUND)
    found = await chain(first, second).ask(lambda s: s.ask())
    assert (found.outcome, found.provider) == (Outcome.FOUND, "dojah")
    first, second = Stub("prembly", Outcome.NOT_FOUND), Stub("dojah", Outcome.FOUND)
    assert (await chain(first, second).ask(lambda s: s.ask())).provider == "prembly"
    assert second.calls == 0


async def test_nobody_answering_is_the_last_failure_unavailable_if_any_was() -> None:
    first, second = Stub("prembly", RuntimeError("bug")), Stub("dojah", Outcome.FAILED)
    result = await chain(first, second).ask(lambda s: s.ask())
    assert (result.outcome, result.provider) == (Outcome.UNAVAILABLE, "dojah")
    assert "prembly: prembly crashed (RuntimeError)" in result.message
    assert "dojah: dojah said failed" in result.message
    refused = await chain(Stub("a", Outcome.FAILED), Stub("b", Outcome.FAILED)).ask(
        lambda s: s.ask()
    )
    assert refused.outcome is Outcome.FAILED and refused.message.startswith("no provider answered")
    alone = await chain(Stub("a", Outcome.FAILED)).ask(lambda s: s.ask())
    assert alone == Result(Outcome.FAILED, "a", "a said failed")  # its own words


async def test_every_breaker_open_answers_unavailable_without_calling() -> None:
    first = Stub("prembly", Outcome.UNAVAILABLE)
    providers = chain(first, failures=1)
    await providers.ask(lambda s: s.ask())
    assert providers.states()[0]["state"] == "open" and providers.name == "prembly"
    skipped = await providers.ask(lambda s: s.ask())
    assert (skipped.outcome, skipped.provider, first.calls) == (Outcome.UNAVAILABLE, "prembly", 1)
    assert "skipped, circuit open" in skipped.message
