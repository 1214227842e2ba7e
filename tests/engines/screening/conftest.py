from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hakiki.engines.screening import ListSnapshot, ScreeningEngine, default_engine
from hakiki.engines.screening.bundled import load_bundled_snapshots

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def snapshots() -> dict[str, ListSnapshot]:
    return {s.code: s for s in load_bundled_snapshots()}


@pytest.fixture(scope="session")
def engine() -> ScreeningEngine:
    return default_engine()


def _read(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="session")
def un_positives() -> list[dict[str, str]]:
    return _read("un_positives_sample.csv")


@pytest.fixture(scope="session")
def negatives() -> list[dict[str, str]]:
    return _read("negatives_global_sample.csv")
