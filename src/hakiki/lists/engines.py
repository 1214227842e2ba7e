"""The screening engines a running service holds: the official lists for live keys (swapped by
``lists.service.reload`` after an update) and the sandbox's fictional lists for sandbox keys.

The live engine may be given as a loader instead (:meth:`ScreeningEngines.loading`): it is then
loaded at its first use, so a process that never screens (a job worker, most commands) never
loads it. The server loads it at start (``runtime.started``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from hakiki.engines.screening.engine import ScreeningEngine


class ScreeningEngines:
    def __init__(self, live: ScreeningEngine | None, sandbox: ScreeningEngine) -> None:
        self._live = live
        self._load_live: Callable[[], ScreeningEngine] | None = None
        self._loading = threading.Lock()
        self.sandbox = sandbox

    @classmethod
    def loading(
        cls, load_live: Callable[[], ScreeningEngine], sandbox: ScreeningEngine
    ) -> ScreeningEngines:
        engines = cls(None, sandbox)
        engines._load_live = load_live
        return engines

    @property
    def live(self) -> ScreeningEngine:
        """The live engine, loaded here if it was not yet (blocking: from a coroutine, await
        :meth:`load_live` first)."""
        engine = self._live
        if engine is not None:
            return engine
        with self._loading:  # one load, however many threads ask at once
            if self._live is None:
                assert self._load_live is not None, "built without a live engine or a loader"
                self._live = self._load_live()
            return self._live

    @live.setter
    def live(self, engine: ScreeningEngine) -> None:
        self._live = engine

    @property
    def live_loaded(self) -> bool:
        return self._live is not None

    async def load_live(self) -> ScreeningEngine:
        """The live engine, loaded in a worker thread if it was not yet."""
        if self._live is not None:
            return self._live
        return await asyncio.to_thread(lambda: self.live)

    async def for_environment(self, live: bool) -> ScreeningEngine:
        return await self.load_live() if live else self.sandbox
