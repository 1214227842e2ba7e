"""Sealed files: written and read a chunk at a time, and any change to them detected."""

from __future__ import annotations

import os
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest

from hakiki.core.crypto import Vault
from hakiki.core.sealed_files import (
    CHUNK,
    MAGIC,
    SealedFileError,
    SealedReader,
    SealedWriter,
    sealed_chunks,
)

KEY = "k" * 40


def write(path: Path, data: bytes, vault: Vault | None = None) -> None:
    with SealedWriter(vault or Vault(KEY), path) as out:
        for start in range(0, len(data), 100_000):
            out.write(data[start : start + 100_000])


def records(path: Path) -> list[bytes]:
    raw = path.read_bytes()[len(MAGIC) :]
    found = []
    while raw:
        (length,) = struct.unpack_from("<I", raw)
        found.append(raw[: 4 + length])
        raw = raw[4 + length :]
    return found


def test_round_trip_in_chunks_owner_only_and_nothing_in_clear(tmp_path: Path) -> None:
    data = os.urandom(100) + b"Wanjiru Kamau Njoroge,1984-03-02\n" * 80_000
    path = tmp_path / "list.sealed"
    write(path, data)
    assert path.stat().st_mode & 0o777 == 0o600
    assert b"Wanjiru" not in path.read_bytes()
    chunks = list(sealed_chunks(Vault(KEY), path))
    assert len(chunks) == len(data) // CHUNK + 1 and max(map(len, chunks)) == CHUNK
    assert b"".join(chunks) == data
    reader = SealedReader(Vault(KEY), path)
    assert reader.read(100) == data[:100]
    assert reader.readline() == b"Wanjiru Kamau Njoroge,1984-03-02\n"
    assert reader.read() == data[100 + 33 :]


def test_a_pickle_streams_through(tmp_path: Path) -> None:
    array = np.arange(3 * CHUNK // 8, dtype=np.int64)  # written as a PickleBuffer
    value = {"names": ["Amani Juma"] * 100_000, "blob": bytes(3 * CHUNK), "array": array}
    path = tmp_path / "index.sealed"
    with SealedWriter(Vault(KEY), path) as out:
        pickle.dump(value, out, protocol=5)
    loaded = pickle.load(SealedReader(Vault(KEY), path))
    assert loaded["names"] == value["names"] and loaded["blob"] == value["blob"]
    assert np.array_equal(loaded["array"], array)


@pytest.mark.parametrize("change", ["flip", "cut", "swap", "drop_last", "other_key", "append"])
def test_any_change_is_refused(tmp_path: Path, change: str) -> None:
    path = tmp_path / "list.sealed"
    write(path, os.urandom(3 * CHUNK + 10))
    parts = records(path)
    if change == "flip":
        raw = bytearray(path.read_bytes())
        raw[len(MAGIC) + 100] ^= 1
        path.write_bytes(bytes(raw))
    elif change == "cut":
        path.write_bytes(path.read_bytes()[:-10])
    elif change == "swap":
        path.write_bytes(MAGIC + parts[1] + parts[0] + b"".join(parts[2:]))
    elif change == "drop_last":
        path.write_bytes(MAGIC + b"".join(parts[:-1]))
    elif change == "append":
        path.write_bytes(path.read_bytes() + parts[0])
    with pytest.raises(SealedFileError):
        list(sealed_chunks(Vault("o" * 40 if change == "other_key" else KEY), path))


def test_a_failed_write_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "list.sealed"
    with pytest.raises(RuntimeError), SealedWriter(Vault(KEY), path) as out:
        out.write(b"half")
        raise RuntimeError("the upload broke off")
    assert list(tmp_path.iterdir()) == []


def test_writes_and_reads_of_any_size_round_trip(tmp_path: Path) -> None:
    import random

    rnd = random.Random(7)
    data = os.urandom(5 * CHUNK + 12_345)
    for attempt in range(4):
        path = tmp_path / f"{attempt}.sealed"
        with SealedWriter(Vault(KEY), path) as out:
            offset = 0
            while offset < len(data):
                size = rnd.choice((0, 1, 1000, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7))
                out.write(memoryview(data)[offset : offset + size])
                offset += size
        chunks = list(sealed_chunks(Vault(KEY), path))
        assert all(len(c) == CHUNK for c in chunks[:-1]) and b"".join(chunks) == data
        reader, got = SealedReader(Vault(KEY), path), []
        while piece := reader.read(rnd.choice((1, 999, CHUNK, 2 * CHUNK + 3))):
            got.append(piece)
        assert b"".join(got) == data
