"""The arithmetic every factor shares: piecewise-linear scales and half-up integer rounding, so
a committee member recomputing a score by hand gets the same integer."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise

MAX_SCORE = 1000


def half_up(value: Fraction) -> int:
    """Round to the nearest integer, halves away from zero (``round`` rounds halves to even)."""
    sign = -1 if value < 0 else 1
    return sign * int(abs(value) + Fraction(1, 2))


def piecewise(value: float, points: Sequence[tuple[float, int]]) -> int:
    """Linear interpolation between ``(x, score)`` points sorted by x; flat beyond both ends."""
    if value <= points[0][0]:
        return points[0][1]
    for (x0, s0), (x1, s1) in pairwise(points):
        if value <= x1:
            share = Fraction(value - x0) / Fraction(x1 - x0) if x1 != x0 else Fraction(1)
            return half_up(s0 + (s1 - s0) * share)
    return points[-1][1]


def weighted(parts: Sequence[tuple[int, int]]) -> int:
    """``sum(weight * score) / sum(weight)``, rounded half up: the score of a component from its
    factors' ``(weight_percent, score)``."""
    total = sum(weight for weight, _ in parts)
    return half_up(Fraction(sum(weight * score for weight, score in parts), total))
