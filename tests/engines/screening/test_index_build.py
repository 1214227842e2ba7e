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
from hakiki.engines.screening.engine import ScreeningEngine, default_engine
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry
from hakiki.engines.screening.normalize import (
    _no_prefix,
    _normalize,
    list_normalizer,
    normalize_name,
)

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


@pytest.fixture(scope="module")
def bundled_names() -> list[tuple[str, bool]]:
    """Every name of the bundled lists, with whether it is an organisation's: read from the
    engine over them (built once per process), not parsed again."""
    engine = default_engine()
    entities = (engine._entities[p] for p in range(engine.entity_count))
    return [(n.name, e.schema != "Person") for e in entities for n in e.names]


def test_the_prefix_shortcut_never_skips_a_prefix(bundled_names: list[tuple[str, bool]]) -> None:
    prefixes = person_name_prefixes_list()
    written = [f"{p} Ali" for p in prefixes] + [f"{p}. Ali" for p in prefixes]
    written += [f"{p.upper()}  Ali" for p in prefixes] + ["(Dr) Ali", " Mr Ali", "Dr.Ali Musa"]
    names = [text for text, _ in bundled_names[:20000]]
    for text in written + names:
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


PLAIN_EDGES = [
    "Dr Ali Hassan", "Ali Dr Hassan", "Mr. John Smith", "Mr John Smith", "mr john", "MR",
    "O'Brien Sean", "Sa`id Musa", "Ben Murray", "Ali Ben Ali", "Ali bin Ali", "Ole Ntimama",
    "William Ole Ntimama", "Daniel arap Moi", "arap Moi", "A", "A B", "a-b c", "  x  y ",
    "GEN Musa Ali", "Chief Obi Okoro GCON", "Obi Okoro CON", "Sen", "Amartya Sen", "y e",
    "Haji Ali Musa", "Mwai Kibaki (rtd)", "(Dr) Ali", "-Ali Musa", "Madam Queen Ann",
    "SURNAME, Given", "G.J. Munuve", "Ali\tMusa", "Hon. Ali Musa", "Hon Ali", "Rev Ali Musa",
    "His Excellency Ali", "Mohamed al-Bashir", "Olu-Ṣeun Adé", "Айрат Hassan", "عبد Samir",
]  # fmt: skip


def test_a_list_build_normalises_each_name_as_the_full_path_does(
    bundled_names: list[tuple[str, bool]],
) -> None:
    """The build normalises plain person names word by word (each distinct word once): the
    same tokens, weights, removed titles and script flag as the full path, for a third of the
    bundled lists' names and the awkward cases (titles, prefixes, particles, commas, dots,
    other scripts). (Checked on all 3,000,000 names of a 1M-entity synthetic list too.)"""
    normalize = list_normalizer()
    names = bundled_names[::3] + [(text, False) for text in PLAIN_EDGES]
    differing = [
        (text, is_org)
        for text, is_org in names
        if normalize(text, is_org) != _normalize(text, is_org)
        or normalize_name(text, is_org) != _normalize(text, is_org)
    ]
    assert differing == []
    assert normalize("Dr Ali Hassan", False).removed == ("dr",)
    assert normalize("Ben Murray", False).weights == (1.0, 1.0)
    assert normalize("Ali Ben Ali", False).weights == (1.0, 0.3, 1.0)
