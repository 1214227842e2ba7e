"""An organisation watchlist's files: the upload as received and the index its job builds,
both sealed (core/sealed_files: the Vault's AES-256-GCM, a chunk at a time) under
``<data_dir>/watchlists/<org_id>/``; and the indexes this process has loaded.

The index is the list's :class:`ScreeningEngine`, pickled into a sealed file. Unpickling runs
code the file names, so it is only done on a file whose every chunk authenticates under this
service's key (docs/decisions.md): the same trust rule as the official lists' index cache,
whose HMAC it replaces."""

from __future__ import annotations

import asyncio
import contextlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from hakiki.core.crypto import Vault
from hakiki.core.sealed_files import SealedReader, SealedWriter
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.lists.index_cache import engine_code_digest

# Indexes kept loaded per process (least recently used dropped first). A list is loaded at its
# organisation's first screening after a start, never for another organisation's.
MAX_LOADED = 32


def folder(data_dir: Path, org_id: str) -> Path:
    return data_dir / "watchlists" / org_id


def upload_path(data_dir: Path, org_id: str, watchlist_id: str) -> Path:
    return folder(data_dir, org_id) / f"{watchlist_id}.csv.sealed"


def index_path(data_dir: Path, org_id: str, watchlist_id: str) -> Path:
    """The index built by this release's engine (its code's digest in the name: a release
    that changes the engine builds the index again from the upload, never reads an older one)."""
    return folder(data_dir, org_id) / f"{watchlist_id}.{engine_code_digest()[:16]}.index.sealed"


def remove_files(data_dir: Path, org_id: str, watchlist_id: str) -> None:
    """The upload and every index of the watchlist."""
    for path in folder(data_dir, org_id).glob(f"{watchlist_id}.*"):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def write_index(vault: Vault, path: Path, engine: ScreeningEngine) -> int:
    """Seal ``engine`` into ``path``; the clear size in bytes."""
    with SealedWriter(vault, path) as out:
        pickle.dump(engine, out, protocol=pickle.HIGHEST_PROTOCOL)
    return out.size


def read_index(vault: Vault, path: Path) -> ScreeningEngine:
    engine = pickle.load(SealedReader(vault, path))
    if not isinstance(engine, ScreeningEngine):
        raise TypeError(f"{path.name} does not hold a screening index")
    return engine


class WatchlistIndexes:
    """The watchlist indexes this process has loaded, by watchlist id (a part of the runtime)."""

    def __init__(self) -> None:
        self._loaded: OrderedDict[str, ScreeningEngine] = OrderedDict()
        self._lock = threading.Lock()
        self._loading: dict[str, asyncio.Future[ScreeningEngine]] = {}

    async def engine(
        self, watchlist_id: str, load: Callable[[], ScreeningEngine]
    ) -> ScreeningEngine:
        """The index of watchlist ``watchlist_id``, loaded with ``load`` (off the event loop)
        if it was not; concurrent first screenings share one load."""
        with self._lock:
            found = self._loaded.get(watchlist_id)
            if found is not None:
                self._loaded.move_to_end(watchlist_id)
                return found
        pending = self._loading.get(watchlist_id)
        if pending is None:
            pending = asyncio.ensure_future(asyncio.to_thread(load))
            self._loading[watchlist_id] = pending
            pending.add_done_callback(lambda _done: self._loading.pop(watchlist_id, None))
        engine = await asyncio.shield(pending)
        with self._lock:
            self._loaded[watchlist_id] = engine
            self._loaded.move_to_end(watchlist_id)
            while len(self._loaded) > MAX_LOADED:
                self._loaded.popitem(last=False)
        return engine

    def forget(self, watchlist_id: str) -> None:
        with self._lock:
            self._loaded.pop(watchlist_id, None)

    def loaded(self) -> list[str]:
        with self._lock:
            return list(self._loaded)
