"""The screening engines a running service holds: the official lists for live keys (swapped by
``lists.service.reload`` after an update) and the sandbox's fictional lists for sandbox keys."""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.engines.screening.engine import ScreeningEngine


@dataclass
class ScreeningEngines:
    live: ScreeningEngine
    sandbox: ScreeningEngine

    def for_environment(self, live: bool) -> ScreeningEngine:
        return self.live if live else self.sandbox
