"""An in-memory index of face embeddings searched by brute force.

One float32 matrix (rows = faces) and one id per row. ``nearest`` computes every squared
Euclidean distance with one matrix-vector product, ``|x|^2 + |q|^2 - 2 x.q`` with the row norms
kept up to date, then picks the k smallest with ``argpartition``: about 3 ms for 100,000 faces
on one core (docs/benchmarks.md, "Face engine"), so no approximate index is needed at this size.

The default ``max_distance`` is dlib's 0.6 same-person threshold (99.38% on LFW); on the test
images the same person is at 0.33-0.43 and different people at 0.74-0.88.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from hakiki.engines.face.embedding import EMBEDDING_SIZE

DEFAULT_MAX_DISTANCE = 0.6


@dataclass(frozen=True, slots=True)
class FaceMatch:
    id: str
    distance: float


class FaceIndex:
    """Embeddings by id; adding an existing id replaces its embedding. Thread-safe."""

    def __init__(self, dim: int = EMBEDDING_SIZE, capacity: int = 1024) -> None:
        self.dim = dim
        self._vectors = np.zeros((max(1, capacity), dim), dtype=np.float32)
        self._sq_norms = np.zeros(max(1, capacity), dtype=np.float32)
        self._ids: list[str] = []
        self._rows: dict[str, int] = {}
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, face_id: object) -> bool:
        return face_id in self._rows

    @property
    def ids(self) -> list[str]:
        return list(self._ids)

    def _check(self, vectors: np.ndarray) -> np.ndarray:
        array = np.asarray(vectors, dtype=np.float32)
        if array.ndim != 2 or array.shape[1] != self.dim:
            raise ValueError(f"expected embeddings of {self.dim} values, got shape {array.shape}")
        if not np.isfinite(array).all():
            raise ValueError("embeddings must be finite")
        return array

    def _reserve(self, extra: int) -> None:
        needed = len(self._ids) + extra
        if needed <= len(self._vectors):
            return
        capacity = max(needed, 2 * len(self._vectors))
        vectors = np.zeros((capacity, self.dim), dtype=np.float32)
        sq_norms = np.zeros(capacity, dtype=np.float32)
        count = len(self._ids)
        vectors[:count] = self._vectors[:count]
        sq_norms[:count] = self._sq_norms[:count]
        self._vectors, self._sq_norms = vectors, sq_norms

    def add(self, face_id: str, embedding: np.ndarray) -> None:
        self.add_many([face_id], np.asarray(embedding, dtype=np.float32).reshape(1, -1))

    def add_many(self, face_ids: Sequence[str], embeddings: np.ndarray) -> None:
        array = self._check(embeddings)
        if len(face_ids) != len(array):
            raise ValueError(f"{len(face_ids)} ids for {len(array)} embeddings")
        with self._lock:
            self._reserve(len(face_ids))
            for face_id, vector in zip(face_ids, array, strict=True):
                row = self._rows.get(face_id)
                if row is None:
                    row = len(self._ids)
                    self._ids.append(face_id)
                    self._rows[face_id] = row
                self._vectors[row] = vector
                self._sq_norms[row] = float(vector @ vector)

    def remove(self, face_id: str) -> bool:
        """Remove a face; False when the id is unknown. The last row moves into the hole."""
        with self._lock:
            row = self._rows.pop(face_id, None)
            if row is None:
                return False
            last = len(self._ids) - 1
            if row != last:
                moved = self._ids[last]
                self._ids[row] = moved
                self._rows[moved] = row
                self._vectors[row] = self._vectors[last]
                self._sq_norms[row] = self._sq_norms[last]
            self._ids.pop()
            self._vectors[last] = 0.0
            self._sq_norms[last] = 0.0
            return True

    def remove_many(self, face_ids: Iterable[str]) -> int:
        return sum(self.remove(face_id) for face_id in face_ids)

    def nearest(
        self,
        embedding: np.ndarray,
        k: int = 5,
        max_distance: float | None = DEFAULT_MAX_DISTANCE,
    ) -> list[FaceMatch]:
        """The k closest faces, closest first, at most ``max_distance`` away (None: any)."""
        query = self._check(np.asarray(embedding, dtype=np.float32).reshape(1, -1))[0]
        if k <= 0:
            return []
        with self._lock:
            count = len(self._ids)
            if count == 0:
                return []
            squared = self._vectors[:count] @ (-2.0 * query)
            squared += self._sq_norms[:count]
            squared += float(query @ query)
            if max_distance is not None:
                candidates = np.flatnonzero(squared <= max_distance * max_distance + 1e-6)
            else:
                candidates = np.arange(count)
            if len(candidates) > k:
                top = np.argpartition(squared[candidates], k - 1)[:k]
                candidates = candidates[top]
            order = candidates[np.argsort(squared[candidates], kind="stable")]
            distances = np.sqrt(np.maximum(squared[order], 0.0))
            return [
                FaceMatch(self._ids[row], float(distance))
                for row, distance in zip(order.tolist(), distances.tolist(), strict=True)
                if max_distance is None or distance <= max_distance
            ]
