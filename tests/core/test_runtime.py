"""Screenings over large engines run off the event loop; small ones inline."""

from __future__ import annotations

import threading
from typing import Any

from fastapi import FastAPI

from hakiki.engines.screening.results import ScreeningResult
from hakiki.engines.screening.subject import Subject


class RecordingEngine:
    def __init__(self, entity_count: int) -> None:
        self.entity_count = entity_count
        self.thread = ""

    def screen(self, subject: Subject, **_options: Any) -> ScreeningResult:
        self.thread = threading.current_thread().name
        return ScreeningResult()


async def test_large_engines_score_in_the_scoring_thread(app: FastAPI) -> None:
    runtime = app.state.runtime
    large, small = RecordingEngine(50_000), RecordingEngine(10)
    await runtime.screen(large, Subject("Juma Hamisi"), checks=["sanction"], threshold=0.8)
    await runtime.screen(small, Subject("Juma Hamisi"), checks=["sanction"], threshold=0.8)
    assert large.thread.startswith("scoring")
    assert small.thread == threading.current_thread().name
