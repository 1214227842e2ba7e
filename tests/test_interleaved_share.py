"""The arithmetic of bench/interleaved_share.py: each run of the call against its own ceiling."""

from __future__ import annotations

import pytest
from bench.interleaved_share import bracketed_shares, summary


def test_each_call_run_is_set_against_the_mean_of_the_ceiling_runs_around_it() -> None:
    shares = bracketed_shares([4000.0, 2000.0, 3000.0], [1500.0, 1250.0])
    assert shares == [0.5, 0.5]


def test_a_falling_ceiling_does_not_flatter_or_hurt_a_call_measured_between_its_runs() -> None:
    # The first-run ceiling alone would give 1,000 / 4,000 = 25%; bracketed it is 40%.
    assert bracketed_shares([4000.0, 1000.0], [1000.0]) == [0.4]


def test_the_ceiling_runs_must_bracket_the_call_runs() -> None:
    with pytest.raises(ValueError, match="bracket"):
        bracketed_shares([3000.0, 3000.0], [1500.0, 1500.0])


def test_the_summary_is_the_median_share_with_the_lowest_and_highest() -> None:
    assert summary([0.46, 0.61, 0.52]) == {"median": 0.52, "lowest": 0.46, "highest": 0.61}
