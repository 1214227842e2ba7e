"""Every live channel's providers and their breakers, whatever the category, for readiness,
the channels endpoint and the console (docs/providers.md#where-to-see-it).

The composition root registers one lister per category (identity, tax, KYB, vehicle); each
reads its category's runtime part when called, so a part replaced at run time is seen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: One category's live channels: ``{"category", "country", "check", "providers": [{"name",
#: "position", "state", "consecutive_failures", "times_opened", "retry_in_seconds"?}]}``.
Lister = Callable[[], list[dict[str, Any]]]
#: One category's breakers by provider name (``BreakerBoard.snapshot``).
Stater = Callable[[], dict[str, dict[str, Any]]]


class LiveProviders:
    """A runtime part: the categories' listers, in the order registered."""

    def __init__(self) -> None:
        self._categories: dict[str, tuple[Lister, Stater]] = {}

    def add(self, category: str, lister: Lister, stater: Stater) -> None:
        self._categories[category] = (lister, stater)

    def channels(self) -> list[dict[str, Any]]:
        return [channel for lister, _ in self._categories.values() for channel in lister()]

    def states(self) -> dict[str, dict[str, dict[str, Any]]]:
        return {category: stater() for category, (_, stater) in self._categories.items()}
