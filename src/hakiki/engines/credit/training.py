"""Train a scorecard: monotonic binning of numeric variables, grouping of categorical ones,
weight of evidence, logistic regression on the WoE values (IRLS), scaling to points, and the
holdout measures (AUC, KS). numpy only; used by scripts/train_credit_model.py, never at run time.

Convention: ``bad`` is 1 for a defaulted loan. WoE of a bin = ln(share of bads / share of goods),
so a riskier bin has a higher WoE, the fitted coefficients are positive and the points of a bin
are ``-factor * coefficient * woe``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

MIN_BIN_SHARE = 0.05  # every bin holds at least 5 % of the training rows
SMOOTHING = 0.5  # added to good and bad counts so an empty side gives a finite WoE

Floats = NDArray[np.float64]


@dataclass
class Binning:
    name: str
    kind: str  # numeric or categorical
    edges: list[float] = field(default_factory=list)  # numeric: inner cut points, ascending
    groups: list[list[str]] = field(default_factory=list)  # categorical: categories per bin
    woe: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    bad_rates: list[float] = field(default_factory=list)
    iv: float = 0.0

    def index(self, values: Sequence[Any]) -> NDArray[np.int64]:
        if self.kind == "numeric":
            return np.searchsorted(np.array(self.edges), np.asarray(values, float), side="right")
        where = {c: i for i, group in enumerate(self.groups) for c in group}
        return np.array([where[v] for v in values])

    def transform(self, values: Sequence[Any]) -> Floats:
        return np.array(self.woe)[self.index(values)]

    def labels(self) -> list[str]:
        if self.kind == "categorical":
            return [" | ".join(group) for group in self.groups]
        bounds = [-math.inf, *self.edges, math.inf]
        return [_interval(lo, hi) for lo, hi in itertools.pairwise(bounds)]


def _interval(low: float, high: float) -> str:
    if math.isinf(low):
        return f"< {high:g}"
    if math.isinf(high):
        return f">= {low:g}"
    return f"[{low:g}, {high:g})"


def _stats(index: NDArray[np.int64], bad: Floats, bins: int) -> tuple[Floats, Floats]:
    bads = np.bincount(index, weights=bad, minlength=bins).astype(float)
    totals = np.bincount(index, minlength=bins).astype(float)
    return bads, totals - bads


def _fill(binning: Binning, index: NDArray[np.int64], bad: Floats, bins: int) -> Binning:
    bads, goods = _stats(index, bad, bins)
    bad_share = (bads + SMOOTHING) / (bads.sum() + SMOOTHING * bins)
    good_share = (goods + SMOOTHING) / (goods.sum() + SMOOTHING * bins)
    woe = np.log(bad_share / good_share)
    binning.woe = [float(w) for w in woe]
    binning.counts = [int(c) for c in bads + goods]
    binning.bad_rates = [float(b / max(1.0, b + g)) for b, g in zip(bads, goods, strict=True)]
    binning.iv = float(((bad_share - good_share) * woe).sum())
    return binning


def monotonic_bins(name: str, values: Sequence[float], bad: Floats, fine: int = 10) -> Binning:
    """Quantile cut points, then adjacent bins merged until the bad rate moves one way only
    (the direction of the overall trend) and every bin holds at least MIN_BIN_SHARE of rows."""
    x = np.asarray(values, float)
    edges = sorted(set(float(q) for q in np.quantile(x, np.linspace(0, 1, fine + 1)[1:-1])))
    edges = [e for e in edges if e > x.min()]
    slope = np.corrcoef(x, bad)[0, 1] if x.std() > 0 else 0.0
    rising = bool(slope >= 0)
    while True:
        index = np.searchsorted(np.array(edges), x, side="right")
        bins = len(edges) + 1
        bads, goods = _stats(index, bad, bins)
        totals = bads + goods
        rates = bads / np.maximum(totals, 1)
        worst = _worst_joint(rates, totals, rising, len(x))
        if worst is None:
            return _fill(Binning(name, "numeric", edges=edges), index, bad, bins)
        del edges[worst]


def _worst_joint(rates: Floats, totals: Floats, rising: bool, rows: int) -> int | None:
    """The inner edge to remove next: below a small bin, else at the first monotonicity break."""
    for i, total in enumerate(totals):
        if total < MIN_BIN_SHARE * rows and len(totals) > 1:
            return min(i, len(totals) - 2)
    for i in range(len(rates) - 1):
        step = rates[i + 1] - rates[i]
        if (step < 0) if rising else (step > 0):
            return i
    return None


def categorical_bins(name: str, values: Sequence[str], bad: Floats) -> Binning:
    """One bin per category, ordered by bad rate; a category under MIN_BIN_SHARE of the rows
    joins its neighbour in that order (the one with the closer bad rate)."""
    cats = sorted(set(values))
    arr = np.array(values)
    rate = {c: float(bad[arr == c].mean()) for c in cats}
    size = {c: int((arr == c).sum()) for c in cats}
    groups = [[c] for c in sorted(cats, key=lambda c: rate[c])]

    def group_rate(g: list[str]) -> float:
        return sum(rate[c] * size[c] for c in g) / sum(size[c] for c in g)

    while len(groups) > 1:
        small = [
            i for i, g in enumerate(groups) if sum(size[c] for c in g) < MIN_BIN_SHARE * len(arr)
        ]
        if not small:
            break
        i = small[0]
        if i == 0:
            j = 1
        elif i == len(groups) - 1:
            j = i - 1
        else:
            here = group_rate(groups[i])
            j = min((i - 1, i + 1), key=lambda k: abs(group_rate(groups[k]) - here))
        low, high = min(i, j), max(i, j)
        groups[low] = groups[low] + groups[high]
        del groups[high]
    binning = Binning(name, "categorical", groups=groups)
    return _fill(binning, binning.index(values), bad, len(groups))


def fit_logistic(x: Floats, y: Floats, l2: float = 1e-6, steps: int = 50) -> Floats:
    """Logistic regression by iteratively reweighted least squares; the first coefficient is
    the intercept (a column of ones is added). ``l2`` keeps a separable design finite."""
    design = np.column_stack([np.ones(len(x)), x])
    beta = np.zeros(design.shape[1])
    penalty = l2 * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-design @ beta))
        w = p * (1 - p)
        gradient = design.T @ (y - p) - penalty @ beta
        hessian = (design * w[:, None]).T @ design + penalty
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if np.abs(step).max() < 1e-10:
            break
    return beta


def predict(beta: Floats, x: Floats) -> Floats:
    return 1.0 / (1.0 + np.exp(-(beta[0] + x @ beta[1:])))


def auc(y: Floats, risk: Floats) -> float:
    """Area under the ROC curve: the chance a random bad ranks riskier than a random good
    (ties count a half), by the rank-sum formula."""
    order = np.argsort(risk, kind="mergesort")
    ranks = np.empty(len(risk))
    sorted_risk = risk[order]
    i = 0
    while i < len(risk):
        j = i
        while j + 1 < len(risk) and sorted_risk[j + 1] == sorted_risk[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    bads = y.sum()
    goods = len(y) - bads
    return float((ranks[y == 1].sum() - bads * (bads + 1) / 2) / (bads * goods))


def ks(y: Floats, risk: Floats) -> float:
    """Kolmogorov-Smirnov: the largest gap between the cumulative shares of bads and goods
    (at every distinct risk, in one sort: O(n log n))."""
    order = np.argsort(risk, kind="mergesort")
    sorted_risk, sorted_bad = risk[order], y[order]
    cuts = np.searchsorted(sorted_risk, np.unique(risk), side="right") - 1
    bads = np.cumsum(sorted_bad)[cuts] / max(1.0, float(y.sum()))
    goods = np.cumsum(1 - sorted_bad)[cuts] / max(1.0, float(len(y) - y.sum()))
    return float(np.abs(bads - goods).max()) if len(cuts) else 0.0


def stratified_split(y: Floats, holdout: float, seed: int) -> tuple[NDArray[np.int64], ...]:
    """Row indices of a training and a holdout set with the same bad rate."""
    rng = np.random.default_rng(seed)
    train: list[int] = []
    test: list[int] = []
    for label in (0, 1):
        rows = np.flatnonzero(y == label)
        rng.shuffle(rows)
        cut = round(len(rows) * holdout)
        test.extend(rows[:cut])
        train.extend(rows[cut:])
    return np.sort(np.array(train)), np.sort(np.array(test))
