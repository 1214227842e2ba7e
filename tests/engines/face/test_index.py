"""FaceIndex on synthetic vectors."""

from __future__ import annotations

import numpy as np
import pytest

from hakiki.engines.face import FaceIndex


def random_vectors(count: int, seed: int = 7) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(count, 128)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_nearest_matches_brute_force_numpy() -> None:
    vectors = random_vectors(2_000)
    index = FaceIndex(capacity=16)  # grows
    index.add_many([f"f{i}" for i in range(len(vectors))], vectors)
    query = vectors[123] + 0.01
    expected = np.argsort(np.linalg.norm(vectors - query, axis=1))[:5]
    matches = index.nearest(query, k=5, max_distance=None)
    assert [m.id for m in matches] == [f"f{i}" for i in expected]
    exact = np.linalg.norm(vectors[expected] - query, axis=1)
    assert np.allclose([m.distance for m in matches], exact, atol=1e-4)
    assert matches == sorted(matches, key=lambda m: m.distance)


def test_max_distance_filters() -> None:
    index = FaceIndex(dim=2)
    index.add("a", np.array([0.0, 0.0]))
    index.add("b", np.array([0.5, 0.0]))
    index.add("c", np.array([0.0, 0.7]))
    assert [(m.id, round(m.distance, 6)) for m in index.nearest(np.zeros(2), k=5)] == [
        ("a", 0.0),
        ("b", 0.5),
    ]
    assert [m.id for m in index.nearest(np.zeros(2), k=1)] == ["a"]
    assert [m.id for m in index.nearest(np.array([0.0, 0.7]), max_distance=0.1)] == ["c"]
    assert index.nearest(np.array([5.0, 5.0])) == []
    assert index.nearest(np.zeros(2), k=0) == []


def test_add_replaces_and_remove_moves_the_last_row() -> None:
    index = FaceIndex(dim=2)
    for i in range(4):
        index.add(f"f{i}", np.array([float(i), 0.0]))
    index.add("f1", np.array([10.0, 0.0]))  # replaced
    assert len(index) == 4
    assert [m.id for m in index.nearest(np.array([10.0, 0.0]), k=1)] == ["f1"]
    assert index.remove("f0") is True
    assert index.remove("f0") is False
    assert "f0" not in index and "f3" in index
    assert len(index) == 3
    assert [m.id for m in index.nearest(np.array([3.0, 0.0]), k=1)] == ["f3"]
    assert [m.id for m in index.nearest(np.array([0.0, 0.0]), k=1, max_distance=0.5)] == []
    assert index.remove_many(["f1", "f2", "f3", "nope"]) == 3
    assert len(index) == 0
    assert index.nearest(np.zeros(2)) == []


def test_empty_index_and_bad_vectors() -> None:
    index = FaceIndex()
    assert index.nearest(np.zeros(128, dtype=np.float32)) == []
    with pytest.raises(ValueError, match="128"):
        index.add("x", np.zeros(64))
    with pytest.raises(ValueError, match="finite"):
        index.add("x", np.full(128, np.nan))
    with pytest.raises(ValueError, match="ids"):
        index.add_many(["a"], random_vectors(2))
