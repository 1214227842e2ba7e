"""The corroborated count: each organisation vouches for one value, and the count is what
remains whichever single organisation is left out; checked against brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from hakiki.engines.fraud.corroboration import corroborated_count


def _one_value_each(values_by_org: dict[str, set[str]]) -> int:
    """Brute force: most distinct values when each organisation names at most one of its own."""
    choices = [[*sorted(values), None] for values in values_by_org.values()]
    return max(
        (len({v for v in picked if v is not None}) for picked in itertools.product(*choices)),
        default=0,
    )


def _brute_force(values_by_org: dict[str, set[str]]) -> int:
    if not values_by_org:
        return 0
    return min(
        _one_value_each({o: v for o, v in values_by_org.items() if o != left_out})
        for left_out in values_by_org
    )


@pytest.mark.parametrize(
    ("seen", "count"),
    [
        ({}, 0),
        ({"a": {"Musa"}}, 0),  # one organisation alone is never enough
        ({"a": {"Musa"}, "b": {"Musa"}}, 1),
        ({"a": {"Musa"}, "b": {"Grace"}}, 1),  # a disagreement resting on one organisation
        ({"a": {"Musa"}, "b": {"Grace"}, "c": {"Ali"}}, 2),
        ({"a": {"Musa"}, "b": {"Musa"}, "c": {"Grace"}}, 1),
        ({"a": {"Musa"}, "b": {"Musa"}, "c": {"Grace"}, "d": {"Grace"}}, 2),
        # twenty guesses of one organisation weigh as one organisation...
        ({"a": {"Musa"}, "b": {"Musa"}, "x": {f"guess {n}" for n in range(20)}}, 1),
        # ... and alone they count nothing
        ({"x": {f"guess {n}" for n in range(20)}}, 0),
        ({"a": {"Musa"}, "x": {f"guess {n}" for n in range(20)}}, 1),
    ],
)
def test_documented_cases(seen: dict[str, set[str]], count: int) -> None:
    assert corroborated_count(seen) == count == _brute_force(seen)


def test_matches_brute_force_on_random_sightings() -> None:
    generator = random.Random(20261107)
    for _ in range(3000):
        values = [f"v{n}" for n in range(generator.randint(1, 5))]
        seen = {
            f"org{n}": set(generator.sample(values, generator.randint(1, len(values))))
            for n in range(generator.randint(0, 6))
        }
        assert corroborated_count(seen) == _brute_force(seen), seen


def test_one_organisation_never_adds_more_than_one_nor_beyond_the_others() -> None:
    generator = random.Random(7)
    for _ in range(2000):
        values = [f"v{n}" for n in range(6)]
        others = {
            f"org{n}": set(generator.sample(values, generator.randint(1, 2)))
            for n in range(generator.randint(0, 5))
        }
        guesses = set(generator.sample([*values, "g1", "g2", "g3"], generator.randint(1, 9)))
        before = corroborated_count(others)
        after = corroborated_count(others | {"prober": guesses})
        assert before <= after <= min(before + 1, _one_value_each(others)), (others, guesses)


def test_long_chains_need_no_recursion() -> None:
    # org n saw values n and n+1 and takes n; the last organisation saw only value 0, so its
    # augmenting path moves every other organisation along by one
    seen = {f"org{n:04d}": {f"v{n:04d}", f"v{n + 1:04d}"} for n in range(3000)}
    seen["zzz"] = {"v0000"}
    assert corroborated_count(seen) == 3000  # 3001 matched; leaving any one out costs one


def test_one_organisation_with_thousands_of_values_is_cheap_and_counts_once() -> None:
    seen = {"a": {"Musa"}, "b": {"Musa"}, "x": {f"guess {n}" for n in range(10_000)}}
    assert corroborated_count(seen) == 1
    seen["c"] = {"Grace"}
    assert corroborated_count(seen) == _brute_force({**seen, "x": {"g1", "g2", "g3", "g4"}}) == 2
