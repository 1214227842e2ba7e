"""The screening engine over the lists in use: per list, the newest good downloaded version,
else the bundled snapshot; read from the on-disk cache of its index when one was built from the
same lists (``index_cache``). ``hakiki screen`` needs only this module, not the database's.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import weakref
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Literal

from hakiki.core.crypto import load_master_key
from hakiki.core.settings import Settings
from hakiki.engines.screening.bundled import BundledList, load_bundled_snapshot, read_manifest
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListSnapshot
from hakiki.lists import index_cache, store

logger = logging.getLogger("hakiki.lists")

Source = Literal["bundled", "downloaded"]


@dataclass(frozen=True, slots=True)
class LoadedList:
    """One list inside an engine: which version, from where."""

    code: str
    title: str
    version: str
    checks: tuple[str, ...]
    source: Source
    entity_count: int | None
    # The publisher's date inside the files (ISO date), or the one the operator stated; None
    # when they carry none (OFAC's CSV files): the list's age is then unknown. Never the
    # download day. ``published`` is the same date (the name the answers use).
    date: str | None
    published: str | None = None
    licence: str | None = None  # as the operator declared it


_described: weakref.WeakKeyDictionary[ScreeningEngine, tuple[LoadedList, ...]] = (
    weakref.WeakKeyDictionary()
)
_keys: weakref.WeakKeyDictionary[ScreeningEngine, str] = weakref.WeakKeyDictionary()
_described_lock = threading.Lock()


def bundled_by_code() -> dict[str, BundledList]:
    return {item.code: item for item in read_manifest()}


def current_snapshots(settings: Settings) -> list[tuple[ListSnapshot, LoadedList]]:
    """The snapshots to screen against: per list, the newest good download, else the bundled one.

    A stored version that cannot be read or parsed is logged and skipped (the bundled snapshot,
    if any, is used instead); it never stops the service from starting.
    """
    bundled = bundled_by_code()
    codes = list(dict.fromkeys([*bundled, *store.downloaded_codes(settings.data_dir)]))
    chosen: list[tuple[ListSnapshot, LoadedList]] = []
    for code in codes:
        stored = store.current_version(settings.data_dir, code)
        if stored is not None:
            try:
                snapshot = store.load_snapshot(settings.data_dir, stored)
            except Exception:
                logger.exception("list %s version %s unusable; falling back", code, stored.folder)
            else:
                chosen.append((snapshot, _loaded(snapshot, "downloaded", stored.manifest)))
                continue
        if code in bundled:
            snapshot = load_bundled_snapshot(bundled[code])
            chosen.append((snapshot, _loaded(snapshot, "bundled", None)))
    return chosen


def _loaded(snapshot: ListSnapshot, source: Source, manifest: dict[str, Any] | None) -> LoadedList:
    return LoadedList(
        code=snapshot.code,
        title=snapshot.title,
        version=snapshot.version,
        checks=tuple(sorted(snapshot.checks)),
        source=source,
        entity_count=len(snapshot.entities),
        date=snapshot.published if manifest else snapshot.version,
        published=snapshot.published if manifest else snapshot.version,
        licence=snapshot.licence,
    )


def load_current_engine(
    settings: Settings, *, freeze: bool = False, build_elsewhere: bool = False
) -> ScreeningEngine:
    """The engine over the newest good version of every list (blocking: run it in a thread),
    read from the on-disk cache when one was built from the same lists by the same code
    (``lists/index_cache.py``), else built and cached. ``freeze`` for the engine a process
    loads at its start (``gc.freeze``, which freezes every object of the process: collections
    never walk the index). The engine holds no reference cycle, so a frozen one is still freed
    when a reload replaces it.

    ``build_elsewhere``: when the cache does not hold these lists, build them in a child
    process that writes the cache and exits, then read the cache here. A build makes millions
    of short-lived objects (the parsed lists) whose memory a process keeps after freeing them;
    a reload that built in the serving process would hold them beside the engine in use.
    Should the child fail, the build happens here as before."""
    key = index_cache.cache_key(list_identities(settings))
    master_key = load_master_key(settings)
    if build_elsewhere:
        path = index_cache.cache_path(settings.data_dir)
        # One build per machine: the processes reloading at once (the workers of one
        # `hakiki serve`) wait for the first one's and read what it wrote.
        with index_cache.build_lock(settings.data_dir):
            if index_cache.read(path, key, master_key) is None:
                _build_in_child(settings)
    (engine, infos), _ = index_cache.load_or_build(
        settings.data_dir,
        key,
        master_key,
        lambda: build_current_engine(settings),
        freeze=freeze,
    )
    described = tuple(LoadedList(**info) for info in infos)
    with _described_lock:
        _described[engine] = described
        _keys[engine] = key
    return engine


def engine_key(engine: ScreeningEngine) -> str | None:
    """The index key (``list_identities``) an engine was loaded for; None when not known."""
    with _described_lock:
        return _keys.get(engine)


def _build_in_child(settings: Settings) -> None:
    context = multiprocessing.get_context("spawn")  # nothing of this process's memory
    child = context.Process(target=build_and_cache, args=(settings,), name="hakiki-index-build")
    child.start()
    child.join()
    if child.exitcode != 0:
        logger.warning("index build in a child process failed (%s); building here", child.exitcode)


def build_and_cache(settings: Settings) -> None:
    """Build the current engine and write it to the index cache (a child process's work)."""
    key = index_cache.cache_key(list_identities(settings))
    path = index_cache.cache_path(settings.data_dir)
    index_cache.write(path, key, load_master_key(settings), build_current_engine(settings))


def build_current_engine(settings: Settings) -> tuple[ScreeningEngine, list[dict[str, Any]]]:
    """A new engine over the newest good version of every list, and how each list was loaded."""
    chosen = current_snapshots(settings)
    engine = ScreeningEngine(snapshot for snapshot, _ in chosen)
    return engine, [asdict(info) for _, info in chosen]


def list_identities(settings: Settings) -> list[tuple[str, ...]]:
    """What identifies each list :func:`load_current_engine` would use now (read from the
    manifests): the key of the cached index."""
    bundled = bundled_by_code()
    codes = list(dict.fromkeys([*bundled, *store.downloaded_codes(settings.data_dir)]))
    identities: list[tuple[str, ...]] = []
    for code in codes:
        stored = store.current_version(settings.data_dir, code)
        if stored is not None:
            # The files, not when they were fetched: the same files fetched again are the
            # same index (no rebuild, no reload).
            identities.append((code, "downloaded", stored.folder, stored.sha256))
        elif code in bundled:
            item = bundled[code]
            digests = sorted(str(f["sha256"]) for f in item.files.values())
            identities.append((code, "bundled", item.version, *digests))
    return identities


def describe_engine(engine: ScreeningEngine) -> list[LoadedList]:
    """Which list versions an engine holds and where they came from."""
    with _described_lock:
        known = _described.get(engine)
    if known is not None:
        return list(known)
    # An engine not built by load_current_engine (e.g. default_engine(): the bundled lists).
    bundled = bundled_by_code()
    return [
        LoadedList(
            code=v.code,
            title=v.title,
            version=v.version,
            checks=v.checks,
            source="bundled"
            if v.code in bundled and bundled[v.code].version == v.version
            else "downloaded",
            entity_count=bundled_count(v.code) if v.code in bundled else None,
            date=v.version,
        )
        for v in engine.lists
    ]


@lru_cache(maxsize=16)
def bundled_count(code: str) -> int:
    return len(load_bundled_snapshot(bundled_by_code()[code]).entities)


def planned_lists(settings: Settings) -> list[LoadedList]:
    """What :func:`load_current_engine` would use now, read from the manifests (no index)."""
    bundled = bundled_by_code()
    codes = list(dict.fromkeys([*bundled, *store.downloaded_codes(settings.data_dir)]))
    planned: list[LoadedList] = []
    for code in codes:
        stored = store.current_version(settings.data_dir, code)
        if stored is not None:
            manifest = stored.manifest
            planned.append(
                LoadedList(
                    code=code,
                    title=str(manifest["title"]),
                    version=stored.version,
                    checks=tuple(manifest["checks"]),
                    source="downloaded",
                    entity_count=stored.entity_count,
                    date=stored.published,
                    published=stored.published,
                    licence=manifest.get("licence"),
                )
            )
        elif code in bundled:
            item = bundled[code]
            planned.append(
                LoadedList(
                    code=code,
                    title=item.title,
                    version=item.version,
                    checks=tuple(sorted(item.checks)),
                    source="bundled",
                    entity_count=bundled_count(code),
                    date=item.version,
                )
            )
    return planned
