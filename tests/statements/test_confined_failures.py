"""A reader that fails on a file (a bug of ours) ends the work as a clean ``unreadable``; the
log names the exception's kind and place, never its text, which may quote the statement."""

from __future__ import annotations

import asyncio
import logging

import pytest

from hakiki.core.settings import Settings
from hakiki.engines.statements import Refused
from hakiki.statements import confined

QUOTED = "0712345678 JANE WANJIKU"


def _failing_reader(progress: object) -> None:
    raise KeyError(QUOTED)


def test_a_failing_reader_is_unreadable_and_its_text_stays_out_of_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = Settings()
    limits = confined.check_limits(settings)
    with (
        caplog.at_level(logging.ERROR, logger="hakiki.statements"),
        pytest.raises(Refused) as refused,
    ):
        asyncio.run(confined._run("check", settings, _failing_reader, limits, None))
    assert refused.value.code == "unreadable"
    assert "PDF" not in refused.value.message  # sheets fail the same way
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert "KeyError at" in logged and "test_confined_failures.py" in logged
    assert "0712345678" not in logged and "WANJIKU" not in logged
