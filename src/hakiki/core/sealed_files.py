"""Files of personal data at rest, encrypted as a stream of sealed chunks (the Vault's
AES-256-GCM), written and read a chunk at a time: a file of hundreds of megabytes never has to
be held in memory, in clear or sealed.

Layout: a magic line, then records ``<4-byte length><vault.seal(header + data)>`` where the
header is the chunk's number (8 bytes) and a last-chunk flag (1 byte). Reading checks that the
numbers run 0, 1, 2, ... and that the last record says it is the last, so chunks cut out,
reordered, repeated or a file cut short fail like a tampered chunk does (:class:`SealedFileError`).
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from cryptography.exceptions import InvalidTag

from hakiki.core.crypto import Vault
from hakiki.core.data_dir import FILE_MODE, private_dir

MAGIC = b"hakiki-sealed-stream-1\n"
CHUNK = 1 << 20
_LENGTH = struct.Struct("<I")
_HEADER = struct.Struct("<QB")
_MAX_RECORD = CHUNK + 64  # a chunk, its header, the version, nonce and tag
Buffer = Any  # bytes, bytearray, memoryview, PickleBuffer: what memoryview() takes


class SealedFileError(ValueError):
    """The file is not a sealed stream, or was altered, cut short or sealed under another key."""


class SealedWriter:
    """Write a sealed file: ``with SealedWriter(vault, path) as out: out.write(...)``. The file
    appears at ``path`` (atomically, owner-only) only when the block ends without an error."""

    def __init__(self, vault: Vault, path: Path) -> None:
        self._vault = vault
        self._path = path
        private_dir(path.parent)
        self._temporary = path.with_name(f".{path.name}.{os.getpid()}.{id(self)}.tmp")
        fd = os.open(self._temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        self._out: BinaryIO = os.fdopen(fd, "wb")
        self._out.write(MAGIC)
        self._pending = bytearray()
        self._number = 0
        self.size = 0  # clear bytes written

    def write(self, data: Buffer) -> int:
        """Any bytes-like object (pickle writes large arrays as ``PickleBuffer``s); a large one
        is sealed straight from its memory, a chunk at a time, never copied whole."""
        view = memoryview(data).cast("B")
        size = view.nbytes
        self.size += size
        offset = 0
        if self._pending:
            offset = min(CHUNK - len(self._pending), size)
            self._pending += view[:offset]
            if len(self._pending) < CHUNK or offset == size:
                return size
            self._record(bytes(self._pending), last=False)
            self._pending.clear()
        while size - offset > CHUNK:  # full chunks; what is left waits for more or the close
            self._record(bytes(view[offset : offset + CHUNK]), last=False)
            offset += CHUNK
        self._pending += view[offset:]
        return size

    def _record(self, data: bytes, *, last: bool) -> None:
        sealed = self._vault.seal(_HEADER.pack(self._number, int(last)) + data)
        self._out.write(_LENGTH.pack(len(sealed)) + sealed)
        self._number += 1

    def close(self) -> None:
        """Seal what is left as the last chunk and put the file in place."""
        self._record(bytes(self._pending), last=True)
        self._pending.clear()
        self._out.close()
        os.replace(self._temporary, self._path)

    def discard(self) -> None:
        self._out.close()
        with contextlib.suppress(FileNotFoundError):
            self._temporary.unlink()

    def __enter__(self) -> SealedWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.discard()


def sealed_chunks(vault: Vault, path: Path) -> Iterator[bytes]:
    """The clear chunks of the sealed file at ``path``, in order."""
    with path.open("rb") as handle:
        if handle.read(len(MAGIC)) != MAGIC:
            raise SealedFileError(f"{path.name} is not a sealed file")
        expected = 0
        while True:
            length_bytes = handle.read(_LENGTH.size)
            if len(length_bytes) < _LENGTH.size:
                raise SealedFileError(f"{path.name} is cut short")
            (length,) = _LENGTH.unpack(length_bytes)
            sealed = handle.read(length) if length <= _MAX_RECORD else b""
            if len(sealed) != length or length < _HEADER.size:
                raise SealedFileError(f"{path.name} is cut short or damaged")
            try:
                clear = vault.unseal(sealed)
            except (InvalidTag, ValueError) as error:
                raise SealedFileError(f"{path.name} fails its integrity check") from error
            number, last = _HEADER.unpack_from(clear)
            if number != expected:
                raise SealedFileError(f"{path.name} has its chunks out of order")
            expected += 1
            yield clear[_HEADER.size :]
            if last:
                if handle.read(1):
                    raise SealedFileError(f"{path.name} has data after its last chunk")
                return


class SealedReader:
    """A read-only binary file over a sealed file (``read``, ``readline``, ``readinto``: what
    :func:`pickle.load` and :class:`io.TextIOWrapper` need), decrypting a chunk at a time."""

    def __init__(self, vault: Vault, path: Path) -> None:
        self._chunks = sealed_chunks(vault, path)
        self._buffer = b""
        self._offset = 0
        self._done = False

    def _fill(self) -> bool:
        if self._done:
            return False
        try:
            self._buffer = self._buffer[self._offset :] + next(self._chunks)
        except StopIteration:
            self._done = True
            return False
        self._offset = 0
        return True

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            parts = [self._buffer[self._offset :]]
            parts.extend(self._chunks)
            self._buffer, self._offset, self._done = b"", 0, True
            return b"".join(parts)
        available = len(self._buffer) - self._offset
        if available >= size:
            out = self._buffer[self._offset : self._offset + size]
            self._offset += size
            return out
        parts = [self._buffer[self._offset :]]  # a large read: the parts joined once
        needed = size - available
        self._buffer, self._offset = b"", 0
        while needed > 0 and not self._done:
            try:
                chunk = next(self._chunks)
            except StopIteration:
                self._done = True
                break
            parts.append(chunk[:needed])
            if len(chunk) > needed:
                self._buffer, self._offset = chunk, needed
            needed -= min(needed, len(chunk))
        return b"".join(parts)

    def read1(self, size: int = -1) -> bytes:
        if self._offset >= len(self._buffer):
            self._fill()
        end = len(self._buffer) if size is None or size < 0 else self._offset + size
        out = self._buffer[self._offset : end]
        self._offset += len(out)
        return out

    def readinto(self, target: bytearray | memoryview) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)

    def readline(self, size: int = -1) -> bytes:
        while True:
            end = self._buffer.find(b"\n", self._offset)
            if end >= 0 or not self._fill():
                break
        stop = len(self._buffer) if end < 0 else end + 1
        if size is not None and size >= 0:
            stop = min(stop, self._offset + size)
        out = self._buffer[self._offset : stop]
        self._offset = stop
        return out

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def writable(self) -> bool:
        return False

    @property
    def closed(self) -> bool:
        return False

    def close(self) -> None:
        self._done = True

    def flush(self) -> None:
        pass
