"""The screening engine, cached on disk beside the database, so a restart does not rebuild its
index (seconds of CPU over the bundled lists) from the same lists.

One file, ``<data_dir>/cache/screening-index.pickle``: a header line (a magic word, the format,
the key, an HMAC of the rest, the sizes of the parts), the pickled payload, then the engine's
arrays, each at a 64-byte boundary of the file (pickle protocol 5's out-of-band buffers; the
header is padded to one, so the arrays mapped are aligned: numpy copies a misaligned array
before a binary search, a millisecond per look-up at 200k names). The file is
memory-mapped read-only and the arrays are views of it: the pages are the operating system's
page cache, shared by every process of the machine that loads the same file, and read from
disk as they are touched. The key names everything the index
is built from: each list's code, source, version and files (``list_identities``), the engine's
code and data (a digest of ``hakiki/engines/screening``) and the Python version. The HMAC is
keyed by the service's master key.

Unpickling runs code named by the file, so a file is unpickled only when it is this user's
regular, owner-only file in Hakiki's own data directory, its key is the one wanted and its HMAC
verifies (docs/decisions.md). Anything else (a missing, foreign, older, corrupt or widened
file) is ignored and the engine rebuilt; a cache that cannot be written only costs the next
start a rebuild.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import hashlib
import hmac
import json
import logging
import mmap
import os
import pickle
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import hakiki.engines.screening as screening_package
from hakiki.core.data_dir import private_dir

logger = logging.getLogger("hakiki.lists")

MAGIC = b"hakiki-screening-index"
FORMAT = 5  # 3: each list's date is the publisher's, never the download day; 4: aligned arrays;
# 5: the look-up keys hashed by index.key_hash (a polynomial hash, computed in numpy)
_ALIGN = 64
FILE_NAME = "screening-index.pickle"
_HMAC_LABEL = b"hakiki screening index cache\0"


def cache_path(data_dir: Path) -> Path:
    return data_dir / "cache" / FILE_NAME


def build_lock(data_dir: Path) -> contextlib.AbstractContextManager[None]:
    """An exclusive lock over the index builds of one data folder, across processes."""
    return _flocked(private_dir(data_dir / "cache") / "build.lock")


@contextlib.contextmanager
def _flocked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


@cache
def engine_code_digest() -> str:
    """SHA-256 over the screening engine's source and data files, so a release that changes
    how the index is built or what its objects hold never reads an older index."""
    root = Path(screening_package.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def cache_key(list_identities: Sequence[Sequence[str]]) -> str:
    """The key of an index built from these lists by this code on this Python."""
    named = [FORMAT, sys.version, engine_code_digest(), [list(i) for i in list_identities]]
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()


def _signing_key(master_key: str) -> bytes:
    return hashlib.sha256(_HMAC_LABEL + master_key.encode()).digest()


def load_or_build(
    data_dir: Path, key: str, master_key: str, build: Callable[[], Any], *, freeze: bool = False
) -> tuple[Any, bool]:
    """The cached value for ``key``, else ``build()``'s, then cached; and whether it was built.

    ``freeze``: move it out of the garbage collector's sight (``gc.freeze``) before collections
    resume, for a value the process keeps: the first collection after millions of new objects
    would otherwise walk them all (a third of a second)."""
    path = cache_path(data_dir)
    cached = read(path, key, master_key, freeze=freeze)
    if cached is not None:
        return cached, False
    value = build()
    write(path, key, master_key, value)
    if freeze:
        gc.freeze()
    return value, True


def read(path: Path, key: str, master_key: str, *, freeze: bool = False) -> Any | None:
    """The payload of the cache file at ``path`` if it may be trusted and is for ``key``."""
    if not _private_file_of_mine(path):
        return None
    try:
        with path.open("rb") as handle:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as error:  # ValueError: an empty file cannot be mapped
        logger.warning("screening index cache %s unreadable (%s); rebuilding", path, error)
        return None
    view = memoryview(mapped)
    end = mapped.find(b"\n", 0, 4096)
    fields = bytes(view[: max(end, 0)]).split(b" ")
    if end < 0 or len(fields) < 6 or fields[0] != MAGIC or fields[1] != str(FORMAT).encode():
        logger.warning("screening index cache %s is not one Hakiki wrote; rebuilding", path)
        return None
    if fields[2].decode("ascii", "replace") != key:
        logger.info("screening index cache is for other lists or code; rebuilding")
        return None
    try:
        sizes = [int(f) for f in fields[4:]]
    except ValueError:
        logger.warning("screening index cache %s is not one Hakiki wrote; rebuilding", path)
        return None
    body = view[_aligned(end + 1) :]
    parts = _parts(body, sizes)
    if parts is None or not hmac.compare_digest(fields[3], _mac_parts(master_key, parts).encode()):
        logger.warning("screening index cache %s fails its HMAC check; rebuilding", path)
        return None
    payload, buffers = parts[0], parts[1:]
    try:
        with _collector_paused(freeze):
            return pickle.loads(payload, buffers=buffers)
    except Exception:
        logger.exception("screening index cache %s could not be loaded; rebuilding", path)
        return None


def _parts(body: memoryview, sizes: list[int]) -> list[memoryview] | None:
    """The payload and the buffers, at the offsets :func:`write` put them; None if the file is
    shorter than its header says."""
    parts: list[memoryview] = []
    offset = 0
    for size in sizes:
        if size < 0 or offset + size > len(body):
            return None
        parts.append(body[offset : offset + size])
        offset = _aligned(offset + size)
    return parts


def _aligned(offset: int) -> int:
    return -(-offset // _ALIGN) * _ALIGN


def _mac_parts(master_key: str, parts: Sequence[Any]) -> str:
    mac = hmac.new(_signing_key(master_key), digestmod=hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(8, "little"))
        mac.update(part)
    return mac.hexdigest()


def _private_file_of_mine(path: Path) -> bool:
    """A regular file (not a link) of this user that no one else may write, in a directory
    that no one else may write either."""
    try:
        info = path.lstat()
        folder = path.parent.lstat()
    except FileNotFoundError:
        return False
    me = os.getuid() if hasattr(os, "getuid") else None  # None: no owners to compare (Windows)
    for what, mode in ((info, stat.S_IFREG), (folder, stat.S_IFDIR)):
        if stat.S_IFMT(what.st_mode) != mode or (me is not None and what.st_uid != me):
            logger.warning("screening index cache %s is not this user's own; ignored", path)
            return False
        if stat.S_IMODE(what.st_mode) & 0o022:
            logger.warning("screening index cache %s is writable by others; ignored", path)
            return False
    return True


def write(path: Path, key: str, master_key: str, value: Any) -> None:
    """Write the cache atomically (a private temporary file renamed over the old one)."""
    buffers: list[pickle.PickleBuffer] = []
    payload = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    parts: list[Any] = [payload, *(b.raw() for b in buffers)]
    mac = _mac_parts(master_key, parts).encode()
    sizes = [str(len(part)).encode() for part in parts]
    header = b" ".join([MAGIC, str(FORMAT).encode(), key.encode(), mac, *sizes])
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        private_dir(path.parent)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(header + b"\n")
            handle.write(b"\0" * (_aligned(len(header) + 1) - len(header) - 1))
            written = 0
            for part in parts:
                handle.write(part)
                written += len(part)
                handle.write(b"\0" * (_aligned(written) - written))
                written = _aligned(written)
        os.replace(temporary, path)
    except OSError as error:  # a read-only data directory: the next start rebuilds
        logger.warning("could not write the screening index cache %s: %s", path, error)
        with contextlib.suppress(OSError):
            temporary.unlink()


@contextlib.contextmanager
def _collector_paused(freeze: bool) -> Iterator[None]:
    """Unpickling creates millions of objects and would set off many useless collections."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        if freeze:
            gc.freeze()
    finally:
        if enabled:
            gc.enable()
