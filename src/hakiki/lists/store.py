"""Downloaded list versions on disk: ``<data_dir>/lists/<code>/<version>/``.

Each version folder holds the raw files gzipped (``<role>.gz``) and a ``manifest.json`` (code,
format, version, fetch time, entity count, SHA-256 of every uncompressed file and of the set).
``<data_dir>/lists/<code>/current`` names the folder in use; it is replaced atomically and only
after a version passed validation, so a failed update never touches what is served. Folders
are 0700 and files 0600, like everything in the data directory (core/data_dir.py).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hakiki.core.data_dir import DIRECTORY_MODE, FILE_MODE, private_dir, write_private
from hakiki.engines.screening.model import ListSnapshot
from hakiki.lists.published import legacy_published
from hakiki.lists.sources import STREAMED_FORMATS, ListSource, parse_source, parse_stream

CURRENT = "current"
_CHUNK = 1 << 20
MANIFEST = "manifest.json"


class StoredListError(RuntimeError):
    """A stored version is missing, unreadable or does not match its manifest."""


@dataclass(frozen=True, slots=True)
class StoredVersion:
    code: str
    folder: str  # the folder name under <data_dir>/lists/<code>/
    manifest: dict[str, Any]

    @property
    def version(self) -> str:
        return str(self.manifest["version"])

    @property
    def entity_count(self) -> int:
        return int(self.manifest["entity_count"])

    @property
    def sha256(self) -> str:
        return str(self.manifest["sha256"])

    @property
    def published(self) -> str | None:
        """The publisher's date inside the files (None: they carry none)."""
        return legacy_published(self.manifest)


def lists_root(data_dir: Path) -> Path:
    return data_dir / "lists"


def files_digest(files: Mapping[str, bytes | Path]) -> str:
    """One SHA-256 for a set of files: over the sorted ``role:sha256`` lines."""
    return digest_of({role: file_meta(data)[0] for role, data in files.items()})


def digest_of(shas: Mapping[str, str]) -> str:
    """:func:`files_digest` from each file's SHA-256."""
    lines = "".join(f"{role}:{shas[role]}\n" for role in sorted(shas))
    return hashlib.sha256(lines.encode()).hexdigest()


def file_meta(data: bytes | Path) -> tuple[str, int]:
    """SHA-256 and size of a file's bytes, or of a file on disk read a chunk at a time."""
    if isinstance(data, bytes):
        return hashlib.sha256(data).hexdigest(), len(data)
    digest = hashlib.sha256()
    size = 0
    with data.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def _write_gzipped(path: Path, data: bytes | Path) -> None:
    if isinstance(data, bytes):
        write_private(path, gzip.compress(data, compresslevel=6))
        return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with (
        os.fdopen(fd, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as out,
        data.open("rb") as source,
    ):
        shutil.copyfileobj(source, out, _CHUNK)


def save_version(
    data_dir: Path,
    source: ListSource,
    files: Mapping[str, bytes | Path],
    snapshot: ListSnapshot,
    fetched_at: str,
    metas: Mapping[str, tuple[str, int]] | None = None,
) -> StoredVersion:
    """Write the files (bytes, or files on disk gzipped as a stream) and manifest of a
    validated version and make it the current one. ``metas``: each file's SHA-256 and size,
    when the caller has them already."""
    code_dir = private_dir(lists_root(data_dir) / source.code)
    metas = metas or {role: file_meta(data) for role, data in files.items()}
    digest = digest_of({role: sha for role, (sha, _) in metas.items()})
    manifest: dict[str, Any] = {
        "code": source.code,
        "title": source.title,
        "format": source.format,
        "checks": sorted(snapshot.checks),  # from the file's topics when none were given
        "source_url": source.source_url.split("?", 1)[0],
        "version": snapshot.version,
        "published": snapshot.published,  # the publisher's date (inside the file, or stated)
        "licence": source.licence or None,
        "country": source.country,
        "stated_published": source.published,
        "fetched_at": fetched_at,
        "entity_count": len(snapshot.entities),
        "warning_count": len(snapshot.warnings),
        "sha256": digest,
        "files": [
            {
                "role": role,
                "path": f"{role}.gz",
                "url": source.files[role].split("?", 1)[0],
                "bytes": metas[role][1],
                "sha256": metas[role][0],
            }
            for role in sorted(files)
        ],
    }
    folder = _free_folder(code_dir, snapshot.version, digest)
    target = code_dir / folder
    if not target.exists():
        staging = code_dir / f".staging-{uuid.uuid4().hex}"
        staging.mkdir(mode=DIRECTORY_MODE)
        try:
            for role, data in files.items():
                _write_gzipped(staging / f"{role}.gz", data)
            write_private(staging / MANIFEST, json.dumps(manifest, indent=2))
            os.replace(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    else:  # the same files again: keep the folder, note the newer fetch
        manifest = {**json.loads((target / MANIFEST).read_text("utf-8")), "fetched_at": fetched_at}
        _write_atomic(target / MANIFEST, json.dumps(manifest, indent=2))
    _write_atomic(code_dir / CURRENT, folder)
    return StoredVersion(source.code, folder, manifest)


def _free_folder(code_dir: Path, version: str, digest: str) -> str:
    """``version``, or ``version.2``, ``.3``... when another file set already has that name."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in version) or "unknown"
    n = 1
    while True:
        name = safe if n == 1 else f"{safe}.{n}"
        manifest = code_dir / name / MANIFEST
        if not manifest.exists():
            return name
        try:
            if json.loads(manifest.read_text("utf-8")).get("sha256") == digest:
                return name
        except (OSError, ValueError):
            pass
        n += 1


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    write_private(tmp, text)
    os.replace(tmp, path)


def current_version(data_dir: Path, code: str) -> StoredVersion | None:
    """The version in use for ``code``, or None when none was downloaded (or it is unreadable)."""
    code_dir = lists_root(data_dir) / code
    try:
        folder = (code_dir / CURRENT).read_text("utf-8").strip()
        manifest = json.loads((code_dir / folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return StoredVersion(code, folder, manifest)


def downloaded_codes(data_dir: Path) -> list[str]:
    root = lists_root(data_dir)
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / CURRENT).is_file())


def load_snapshot(data_dir: Path, stored: StoredVersion) -> ListSnapshot:
    """Parse a stored version after checking every file against its manifest. A format whose
    parser reads a line at a time (``STREAMED_FORMATS``) is checked, then parsed, from its gzip
    stream: a list of gigabytes is never decompressed whole into memory."""
    folder = lists_root(data_dir) / stored.code / stored.folder
    manifest = stored.manifest
    streamed = _streamed(folder, manifest, stored.version)
    if streamed is not None:
        return streamed
    files: dict[str, bytes] = {}
    for meta in manifest["files"]:
        try:
            data = gzip.decompress((folder / meta["path"]).read_bytes())
        except (OSError, EOFError) as exc:
            raise StoredListError(f"{folder / meta['path']}: unreadable ({exc})") from exc
        if hashlib.sha256(data).hexdigest() != meta["sha256"]:
            raise StoredListError(f"{folder / meta['path']}: checksum does not match manifest")
        files[meta["role"]] = data
    snapshot = parse_source(_source_of(manifest), files, fallback_version=stored.version)
    # The folder's version names it, whatever an older release called it.
    return replace(snapshot, version=stored.version)


def gzipped_files(data_dir: Path, stored: StoredVersion) -> dict[str, bytes]:
    """The gzipped files of a stored version, as on disk (what the database keeps a copy of)."""
    folder = lists_root(data_dir) / stored.code / stored.folder
    return {meta["role"]: (folder / meta["path"]).read_bytes() for meta in stored.manifest["files"]}


def holds(data_dir: Path, code: str, folder: str, sha256: str) -> bool:
    """Whether this data folder holds the version ``folder`` of ``code`` with that file set."""
    try:
        manifest = json.loads((lists_root(data_dir) / code / folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return manifest.get("sha256") == sha256


def make_current(data_dir: Path, code: str, folder: str) -> None:
    """Name ``folder`` (already on disk) the version in use of ``code``."""
    _write_atomic(private_dir(lists_root(data_dir) / code) / CURRENT, folder)


def write_version(
    data_dir: Path, code: str, folder: str, manifest: dict[str, Any], gz_files: dict[str, Path]
) -> str:
    """Put a version recorded elsewhere (its manifest, and its gzipped files already written to
    ``gz_files``, temporary files under this data folder) in place as ``folder`` (or
    ``folder.2``... when this disk has another file set by that name), checked against the
    manifest first; return the folder. It does not become current (:func:`make_current`)."""
    code_dir = private_dir(lists_root(data_dir) / code)
    staging = code_dir / f".staging-{uuid.uuid4().hex}"
    staging.mkdir(mode=DIRECTORY_MODE)
    try:
        for meta in manifest["files"]:
            source = gz_files[meta["role"]]
            data = gzip.decompress(source.read_bytes())
            if hashlib.sha256(data).hexdigest() != meta["sha256"]:
                raise StoredListError(f"{code} {folder} {meta['role']}: checksum mismatch")
            os.replace(source, staging / meta["path"])
        write_private(staging / MANIFEST, json.dumps(manifest, indent=2))
        if (code_dir / folder).exists():
            folder = _free_folder(code_dir, str(manifest["version"]), str(manifest["sha256"]))
        target = code_dir / folder
        if not target.exists():  # else another process of this machine was first
            try:
                os.replace(staging, target)
            except OSError:  # it was first after all (the workers of one server at start)
                if not holds(data_dir, code, folder, str(manifest["sha256"])):
                    raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def incoming_folder(data_dir: Path, code: str) -> Path:
    """The list's own folder, where files being downloaded are written (``.download-*``)."""
    return private_dir(lists_root(data_dir) / code)


def incoming_path(data_dir: Path, code: str) -> Path:
    """A temporary file under the list's folder for a file being written from the database."""
    return private_dir(lists_root(data_dir) / code) / f".incoming-{uuid.uuid4().hex}"


def _source_of(manifest: dict[str, Any]) -> ListSource:
    return ListSource(
        code=manifest["code"],
        title=manifest["title"],
        format=manifest["format"],
        files={meta["role"]: meta["url"] for meta in manifest["files"]},
        checks=frozenset(manifest["checks"]),
        licence=str(manifest.get("licence") or ""),
        published=manifest.get("stated_published"),
        country=manifest.get("country"),
    )


def _streamed(folder: Path, manifest: dict[str, Any], version: str) -> ListSnapshot | None:
    """The version parsed from its one file's gzip stream, for a streamed format; else None."""
    role = STREAMED_FORMATS.get(manifest["format"])
    metas = manifest["files"]
    if role is None or len(metas) != 1 or metas[0]["role"] != role:
        return None
    path = folder / metas[0]["path"]
    digest = hashlib.sha256()
    try:
        with gzip.open(path, "rb") as check:
            while chunk := check.read(_CHUNK):
                digest.update(chunk)
    except (OSError, EOFError) as exc:
        raise StoredListError(f"{path}: unreadable ({exc})") from exc
    if digest.hexdigest() != metas[0]["sha256"]:
        raise StoredListError(f"{path}: checksum does not match manifest")
    with gzip.open(path, "rb") as stream:
        snapshot = parse_stream(_source_of(manifest), stream, fallback_version=version)
    # The folder's version names it, whatever an older release called it.
    return replace(snapshot, version=version)
