"""The index build of issue 33's build-speed work: key hashes computed in numpy, the name table
filled through dictionaries' ``setdefault``, rigour's prefix regex skipped when no prefix can
start a name, and the allocator's free memory given back after a large build. The candidates
must be exactly those of the build before (a golden file made by main's code at c3315ae)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from rigour._core import person_name_prefixes_list
from rigour.names import remove_person_prefixes

from hakiki.engines.screening import engine as engine_module
from hakiki.engines.screening import index as ix
from hakiki.engines.screening.bundled import load_bundled_snapshots
from hakiki.engines.screening.engine import ScreeningEngine, default_engine
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry
from hakiki.engines.screening.normalize import _no_prefix, normalize_name

GOLDEN = Path(__file__).parent / "data" / "index_candidates_golden.json.gz"
KEYS = ["abc", "mohamed", "é", "abdulrahman", "x", "olanrewaju", "ñandú", "", "al-sayed", "o'neil"]


def test_numpy_hashes_are_the_scalar_ones() -> None:
    assert ix._hash_many(KEYS).tolist() == [ix.key_hash(k) for k in KEYS]
    assert len(set(ix._hash_many(KEYS).tolist())) == len(KEYS)


def test_deletion_hashes_are_those_of_every_one_letter_deletion() -> None:
    tids = np.arange(len(KEYS), dtype=np.int32) * 3
    hashes, values = ix._deletion_hashes(KEYS, tids)
    want = {(ix.key_hash(d), int(tids[k])) for k, t in enumerate(KEYS) for d in ix._deletions(t)}
    assert set(zip(hashes.tolist(), values.tolist(), strict=True)) == want


def test_the_index_files_deletions_and_joined_pairs() -> None:
    index = ix.CandidateIndex.of(
        normalize_name(n) for n in ["Abdul Rahman Said", "Abdulrahman Ali", "Olu Ṣeun Adé"]
    )
    mohamed = index.table.find("rahman")
    assert mohamed is not None
    assert mohamed in index._deletes.get("rahan").tolist()
    # "abdul rahman" is also filed written together only where that is no list token itself
    assert index._joined.get("abdulrahman").tolist() == []
    assert index._joined.get("rahmansaid").tolist() == [0]
    assert index._joined.get("seunade").tolist() == [2]


def test_candidates_are_those_of_the_build_before() -> None:
    rows = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    index = default_engine().index
    differing = [
        row["query"]
        for row in rows
        if index.candidates(normalize_name(row["query"]), 40) != row["candidates"]
    ]
    assert len(rows) == 400
    assert differing == []


def test_the_prefix_shortcut_never_skips_a_prefix() -> None:
    prefixes = person_name_prefixes_list()
    written = [f"{p} Ali" for p in prefixes] + [f"{p}. Ali" for p in prefixes]
    written += [f"{p.upper()}  Ali" for p in prefixes] + ["(Dr) Ali", " Mr Ali", "Dr.Ali Musa"]
    names = [n.name for s in load_bundled_snapshots() for e in s.entities for n in e.names]
    for text in written + names[:20000]:
        if _no_prefix(text):
            assert remove_person_prefixes(text) == text, text
    assert not _no_prefix("Mr Ali") and not _no_prefix("His Excellency Ali")
    assert _no_prefix("Mrsa Ali") and _no_prefix("Ali Musa")


def test_a_large_build_gives_freed_memory_back(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    monkeypatch.setattr(engine_module, "TRIM_AFTER", 2)
    monkeypatch.setattr(engine_module, "release_freed_memory", lambda: calls.append(True))
    people = tuple(
        ListEntity(f"e{k}", "x", "Person", (NameEntry(name, "primary"),))
        for k, name in enumerate(["Ali Musa", "Juma Otieno"])
    )
    ScreeningEngine([ListSnapshot("x", "X", "1", "", frozenset({"sanction"}), people)])
    assert calls == [True]
