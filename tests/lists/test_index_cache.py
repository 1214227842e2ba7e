"""The screening engine's index cached on disk: read again on a restart, rebuilt for other lists
or code, and never trusted when it is corrupt, foreign or writable by others."""

from __future__ import annotations

import gc
import os
import stat
import weakref
from pathlib import Path
from typing import Any

import pytest

from hakiki.core.crypto import load_master_key
from hakiki.core.settings import Settings
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.subject import Subject
from hakiki.lists import index_cache, loading, store
from hakiki.lists.loading import describe_engine, load_current_engine
from hakiki.lists.sandbox import sandbox_snapshots
from hakiki.lists.sources import DEFAULT_SOURCES, parse_source
from tests.lists.server import NEW_UN_DATE, un_xml

MASTER_KEY = "a-master-key-for-the-cache-tests"
KEY = "k" * 64


class Builds:
    """A build function that counts its calls (a small engine: the sandbox's lists)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> tuple[ScreeningEngine, list[dict[str, Any]]]:
        self.count += 1
        return ScreeningEngine(sandbox_snapshots()), [{"built": self.count}]


def _hit_ids(engine: ScreeningEngine) -> list[str]:
    result = engine.screen(Subject(name="Sandbox Every List"), checks=("sanction", "pep"))
    return [hit.entity_id for hit in result.hits]


def test_a_second_load_reads_the_cache(tmp_path: Path) -> None:
    build = Builds()
    (first, infos), built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert built and build.count == 1
    (second, again), built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert not built and build.count == 1 and again == infos
    assert second is not first and _hit_ids(second) == _hit_ids(first) != []


def test_the_cache_file_is_private_and_nothing_is_left_behind(tmp_path: Path) -> None:
    index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, Builds())
    path = index_cache.cache_path(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file


def test_other_lists_or_code_rebuild(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build = Builds()
    index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    index_cache.load_or_build(tmp_path, "other" + KEY[5:], MASTER_KEY, build)
    assert build.count == 2
    lists = [("un_sc_consolidated", "bundled", "2026-02-27")]
    key = index_cache.cache_key(lists)
    assert index_cache.cache_key([("un_sc_consolidated", "bundled", "2026-11-20")]) != key
    monkeypatch.setattr(index_cache, "engine_code_digest", lambda: "another release")
    assert index_cache.cache_key(lists) != key


def _corrupt(path: Path, how: str) -> None:
    data = path.read_bytes()
    header = data.partition(b"\n")[0]
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flipped byte":  # in the middle of the pickled payload (not the padding)
        start = index_cache._aligned(len(header) + 1)
        middle = start + int(header.split(b" ")[4]) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])
    elif how == "garbage":
        path.write_bytes(os.urandom(4096))
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "not a pickle":  # a valid header and HMAC over bytes pickle refuses
        junk = b"this is not a pickle"
        fields = header.split(b" ")[:4]
        fields[3] = index_cache._mac_parts(MASTER_KEY, [junk]).encode()
        path.write_bytes(b" ".join([*fields, str(len(junk)).encode()]) + b"\n" + junk)


@pytest.mark.parametrize("how", ["truncated", "flipped byte", "garbage", "empty", "not a pickle"])
def test_a_corrupt_cache_is_ignored_and_rebuilt(tmp_path: Path, how: str) -> None:
    build = Builds()
    index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    _corrupt(index_cache.cache_path(tmp_path), how)
    (engine, _), built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert built and build.count == 2 and _hit_ids(engine)
    _, built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert not built  # the rebuilt cache is good again


def test_a_cache_signed_with_another_master_key_is_never_unpickled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_cache.load_or_build(tmp_path, KEY, "another installation's key", Builds())
    unpickled: list[bytes] = []
    monkeypatch.setattr(index_cache.pickle, "loads", unpickled.append)
    build = Builds()
    _, built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert built and build.count == 1 and unpickled == []


def test_a_cache_that_others_may_write_is_ignored(tmp_path: Path) -> None:
    build = Builds()
    index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    path = index_cache.cache_path(tmp_path)
    path.chmod(0o666)
    _, built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert built and build.count == 2
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # written anew, private


def test_a_link_in_place_of_the_cache_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    index_cache.load_or_build(elsewhere, KEY, MASTER_KEY, Builds())
    data_dir = tmp_path / "data"
    index_cache.cache_path(data_dir).parent.mkdir(parents=True, mode=0o700)
    index_cache.cache_path(data_dir).symlink_to(index_cache.cache_path(elsewhere))
    build = Builds()
    _, built = index_cache.load_or_build(data_dir, KEY, MASTER_KEY, build)
    assert built and build.count == 1


def test_an_unwritable_cache_only_costs_a_rebuild(tmp_path: Path) -> None:
    folder = index_cache.cache_path(tmp_path).parent
    folder.mkdir(mode=0o500)  # read-only (the tests may run as root: then it is written)
    build = Builds()
    try:
        index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
        index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    finally:
        folder.chmod(0o700)
    assert build.count == (1 if os.geteuid() == 0 else 2)
    assert [p for p in folder.iterdir() if p.name.endswith(".tmp")] == []


# ---------------------------------------------------------------------------------------------
# The engine the service loads


@pytest.fixture
def un_only(monkeypatch: pytest.MonkeyPatch) -> Builds:
    """Only the bundled UN list (OFAC's takes seconds to index); counts the engine's builds."""
    bundled = loading.bundled_by_code()
    monkeypatch.setattr(
        loading, "bundled_by_code", lambda: {"un_sc_consolidated": bundled["un_sc_consolidated"]}
    )
    counted = Builds()
    real_build = loading.build_current_engine

    def build(settings: Settings) -> tuple[ScreeningEngine, list[dict[str, Any]]]:
        counted.count += 1
        return real_build(settings)

    monkeypatch.setattr(loading, "build_current_engine", build)
    return counted


def _store_un_version(data_dir: Path) -> None:
    source = next(s for s in DEFAULT_SOURCES if s.code == "un_sc_consolidated")
    files = {"xml": un_xml(keep=50)}
    snapshot = parse_source(source, files, fallback_version=NEW_UN_DATE)
    store.save_version(data_dir, source, files, snapshot, f"{NEW_UN_DATE}T08:00:00+00:00")


def test_a_restart_reads_the_index_and_a_new_list_version_rebuilds_it(
    tmp_path: Path, un_only: Builds
) -> None:
    settings = Settings(data_dir=tmp_path, secret_key="k" * 43)
    first = load_current_engine(settings)
    restarted = load_current_engine(settings)  # as a new process would: from the file
    assert un_only.count == 1
    assert restarted is not first and restarted.entity_count == first.entity_count
    assert describe_engine(restarted) == describe_engine(first)
    assert [(v.code, v.version) for v in restarted.lists] == [("un_sc_consolidated", "2026-02-27")]

    _store_un_version(tmp_path)  # `hakiki lists update` stored a new version
    updated = load_current_engine(settings)
    assert un_only.count == 2
    assert [(v.code, v.version) for v in updated.lists] == [("un_sc_consolidated", NEW_UN_DATE)]
    assert [info.source for info in describe_engine(updated)] == ["downloaded"]
    load_current_engine(settings)
    assert un_only.count == 2

    index_cache.cache_path(tmp_path).write_bytes(b"corrupt")
    assert load_current_engine(settings).entity_count == updated.entity_count
    assert un_only.count == 3


def test_the_cache_holds_what_the_build_made(tmp_path: Path, un_only: Builds) -> None:
    settings = Settings(data_dir=tmp_path, secret_key="k" * 43)
    built = load_current_engine(settings)
    path = index_cache.cache_path(tmp_path)
    header = path.read_bytes().partition(b"\n")[0]
    key = index_cache.cache_key(loading.list_identities(settings))
    engine, infos = index_cache.read(path, key, load_master_key(settings))
    assert header.startswith(index_cache.MAGIC + b" ")
    assert isinstance(engine, ScreeningEngine) and engine.name_count == built.name_count
    assert [info["code"] for info in infos] == ["un_sc_consolidated"]


def test_an_engine_holds_no_reference_cycle() -> None:
    # A frozen engine (gc.freeze) is never walked by the collector: only reference counting can
    # free it when a reload replaces it, which a cycle (a cache of a bound method) would stop.
    engine = ScreeningEngine(sandbox_snapshots())
    assert _hit_ids(engine)  # fills the index's look-up cache
    index = weakref.ref(engine.index)
    collecting = gc.isenabled()
    gc.disable()
    try:
        del engine
        assert index() is None
    finally:
        if collecting:
            gc.enable()


def test_a_reload_builds_in_a_child_process_and_loads_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build's millions of short-lived objects stay out of the serving process (issue 33):
    here a build in this process would fail."""
    settings = Settings(data_dir=tmp_path, secret_key="k" * 43)

    def no_build_here(_: Settings) -> Any:
        raise AssertionError("built in the serving process")

    monkeypatch.setattr(loading, "build_current_engine", no_build_here)
    engine = load_current_engine(settings, build_elsewhere=True)
    assert {v.code for v in engine.lists} >= {"un_sc_consolidated"}
    assert index_cache.cache_path(tmp_path).is_file()


def test_the_arrays_of_a_cached_engine_are_views_of_the_mapped_file(tmp_path: Path) -> None:
    """Loaded from the cache, the index's arrays are read-only views of the memory-mapped file
    (shared by every process that loads it), not copies (issue 33)."""
    build = Builds()
    index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    (engine, _), built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert not built
    postings = engine.index._post_ids
    assert not postings.flags.writeable and not postings.flags.owndata
    assert _hit_ids(engine)


def test_the_mapped_arrays_are_aligned(tmp_path: Path) -> None:
    """Every array of an engine loaded from the cache starts at an aligned address: numpy
    copies a misaligned array before each binary search (the typo and spacing look-ups), a
    millisecond per look-up at 200k names (issue 33)."""
    build = Builds()
    index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    (engine, _), built = index_cache.load_or_build(tmp_path, KEY, MASTER_KEY, build)
    assert not built
    index = engine.index
    arrays = [
        index._post_ids,
        index._post_starts,
        index.table.ids,
        index.table.starts,
        *(p._keys for p in (index._joined, index._deletes, index._phonetic, index._y_spelled)),
        *(p._values for p in (index._joined, index._deletes, index._phonetic)),
    ]
    assert all(not a.flags.owndata for a in arrays)
    assert all(a.flags.aligned and a.ctypes.data % 8 == 0 for a in arrays)
