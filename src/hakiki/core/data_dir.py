"""The data directory is the operator's alone: 0700, and every file in it 0600 (the SQLite
database and its WAL and shared memory, the generated secret key, downloaded list versions).

Files are created with those modes (not left to the umask), and on start the directory and
everything in it are tightened if another tool or an older release left them wider
(docs/decisions.md#file-modes-of-the-data-directory).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

logger = logging.getLogger("hakiki.data_dir")

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Create ``path`` and any missing parent owner-only (an existing folder is left as is)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=DIRECTORY_MODE)
    return path


def private_file(path: Path) -> Path:
    """Create ``path`` empty and owner-only if it does not exist (SQLite then opens it as a new
    database, and gives its WAL and shared-memory files the same mode); tighten it if it does."""
    private_dir(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    tighten(path)
    return path


def write_private(path: Path, data: bytes | str) -> None:
    """Write ``path`` (replacing it) readable and writable by the owner only."""
    content = data.encode() if isinstance(data, str) else data
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
    tighten(path)  # it existed with a wider mode


def tighten(path: Path) -> bool:
    """Take away every permission beyond the owner's (and the execute bits of a file); True
    when the mode changed. Symbolic links are not followed."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(info.st_mode):
        return False
    mode = stat.S_IMODE(info.st_mode)
    wanted = mode & (DIRECTORY_MODE if stat.S_ISDIR(info.st_mode) else FILE_MODE)
    if wanted == mode:
        return False
    try:
        os.chmod(path, wanted)
    except OSError as error:  # another user's file: say so, but do not refuse to start
        logger.warning("could not tighten %s (mode %o): %s", path, mode, error)
        return False
    return True


def secure_data_dir(data_dir: Path) -> list[Path]:
    """Tighten the data directory and everything in it to owner-only; log and return what was
    tightened. A directory that does not exist yet is left to be created by the first file
    written there (``private_dir``), so a PostgreSQL deployment with a configured key gets none."""
    if not data_dir.is_dir():
        return []
    tightened = [data_dir] if tighten(data_dir) else []
    for root, folders, files in os.walk(data_dir, followlinks=False):
        for name in [*folders, *files]:
            path = Path(root) / name
            if tighten(path):
                tightened.append(path)
    if tightened:
        logger.warning(
            "tightened the permissions of %d path(s) in the data directory %s to owner-only "
            "(directories 0700, files 0600): %s",
            len(tightened),
            data_dir,
            ", ".join(str(p.relative_to(data_dir)) for p in tightened[:10]),
        )
    return tightened
