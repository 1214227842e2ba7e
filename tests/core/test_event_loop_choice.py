"""Which event loop `hakiki serve` runs on (docs/benchmarks.md, the sandbox tail)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from hakiki.core.settings import GREEDY_UVLOOP, Settings


def settings(tmp_path: Path, **options: object) -> Settings:
    return Settings(data_dir=tmp_path, secret_key="k" * 40, **options)  # type: ignore[arg-type]


def test_one_process_runs_on_greedy_uvloop_and_several_on_uvloop(tmp_path: Path) -> None:
    chosen = settings(tmp_path)
    assert chosen.serving_loop(1) == GREEDY_UVLOOP
    assert chosen.serving_loop(2) == "uvloop"
    assert chosen.serving_loop(8) == "uvloop"


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_an_explicit_choice_holds_for_any_number_of_processes(tmp_path: Path, loop: str) -> None:
    chosen = settings(tmp_path, event_loop=loop)
    assert chosen.serving_loop(1) == loop
    assert chosen.serving_loop(4) == loop


def test_an_unknown_loop_is_refused_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HAKIKI_EVENT_LOOP", "tokio")
    with pytest.raises(ValidationError) as refused:
        Settings(data_dir=tmp_path, secret_key="k" * 40)
    assert "event_loop" in str(refused.value)
