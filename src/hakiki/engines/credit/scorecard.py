"""Apply a trained scorecard (a JSON model file) to one applicant: points per variable, the
score on the 300-850 scale, and reason codes (points lost per variable against its best bin).

A variable that is not supplied scores zero points: the population average (weight of
evidence 0), never its best bin, so withholding data cannot raise a score.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Value = float | str | None

SCORE_MIN = 300
SCORE_MAX = 850


@dataclass(frozen=True)
class Bin:
    label: str
    points: float
    assignable: bool  # whether the product's inputs can land here (reason codes compare to these)
    lower: float | None = None  # numeric bins: lower <= x < upper
    upper: float | None = None
    categories: tuple[str, ...] = ()

    def holds(self, value: float | str) -> bool:
        if isinstance(value, str):
            return value in self.categories
        low = -math.inf if self.lower is None else self.lower
        high = math.inf if self.upper is None else self.upper
        return low <= value < high


@dataclass(frozen=True)
class Variable:
    name: str
    kind: str  # numeric or categorical
    reason_code: str
    reason: str
    bins: tuple[Bin, ...]

    @property
    def best(self) -> float:
        return max(b.points for b in self.bins if b.assignable)

    def bin_of(self, value: Value) -> Bin | None:
        if value is None:
            return None
        if self.kind == "numeric" and isinstance(value, str):
            raise ValueError(f"{self.name} is numeric")
        for candidate in self.bins:
            if candidate.holds(value):
                return candidate
        raise ValueError(f"{self.name}: no bin holds {value!r}")


@dataclass(frozen=True)
class Contribution:
    variable: str
    bin: str | None  # None: not supplied
    points: float
    points_lost: float
    reason_code: str
    reason: str


@dataclass(frozen=True)
class Scored:
    score: int
    log_odds_good: float
    contributions: tuple[Contribution, ...]

    def reasons(self, limit: int = 4) -> list[Contribution]:
        """Up to ``limit`` variables that cost the most points, the costliest first."""
        lost = [c for c in self.contributions if c.points_lost > 0.5]
        lost.sort(key=lambda c: (-c.points_lost, c.variable))
        return lost[:limit]


@dataclass(frozen=True)
class Scorecard:
    version: str
    base_points: float
    factor: float  # points per unit of log-odds: pdo / ln 2
    offset: float
    variables: tuple[Variable, ...]
    metrics: Mapping[str, Any]
    document: Mapping[str, Any]  # the whole model file, for the model card and the API

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scorecard:
        variables = tuple(
            Variable(
                name=v["name"],
                kind=v["kind"],
                reason_code=v["reason_code"],
                reason=v["reason"],
                bins=tuple(
                    Bin(
                        label=b["label"],
                        points=float(b["points"]),
                        assignable=bool(b.get("assignable", True)),
                        lower=b.get("lower"),
                        upper=b.get("upper"),
                        categories=tuple(b.get("categories", ())),
                    )
                    for b in v["bins"]
                ),
            )
            for v in data["variables"]
        )
        scaling = data["scaling"]
        return cls(
            version=data["version"],
            base_points=float(data["base_points"]),
            factor=float(scaling["factor"]),
            offset=float(scaling["offset"]),
            variables=variables,
            metrics=data["metrics"],
            document=data,
        )

    @classmethod
    def load(cls, path: Path) -> Scorecard:
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))

    def score(self, values: Mapping[str, Value]) -> Scored:
        unknown = set(values) - {v.name for v in self.variables}
        if unknown:
            raise ValueError(f"unknown variables: {sorted(unknown)}")
        contributions = []
        total = self.base_points
        for variable in self.variables:
            found = variable.bin_of(values.get(variable.name))
            points = found.points if found is not None else 0.0
            total += points
            contributions.append(
                Contribution(
                    variable=variable.name,
                    bin=found.label if found is not None else None,
                    points=points,
                    points_lost=max(0.0, variable.best - points),
                    reason_code=variable.reason_code,
                    reason=variable.reason,
                )
            )
        score = min(SCORE_MAX, max(SCORE_MIN, round(total)))
        return Scored(score, (total - self.offset) / self.factor, tuple(contributions))
