"""Benchmark the face engine on one core.

Embedding: every test photograph of tests/engines/face/data/ (decode with the upload guards,
HOG detection, 5-point alignment, ResNet descriptor), ``--repeat`` times; p50 and p99 per image,
and the time of each stage. Index: ``nearest`` over a bank of ``--bank`` random unit vectors
(128-d float32), with the default threshold (0.6, so almost never a match) and with none (the
k closest whatever their distance), for ``--queries`` queries.

    uv run --group dev python bench/face_bench.py
    uv run --group dev python bench/face_bench.py --bank 1000000 --threads 2

BLAS threads default to 1 (set before numpy is imported).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "tests" / "engines" / "face" / "data"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    p50, p99 = percentile(values, 50) * 1000, percentile(values, 99) * 1000
    return f"p50 {p50:7.2f} ms  p99 {p99:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bank", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(args.threads)

    import numpy as np

    from hakiki.engines.face import FaceEmbedder, FaceImageError, FaceIndex

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, BLAS threads {args.threads}")
    started = time.perf_counter()
    embedder = FaceEmbedder()
    print(f"models loaded in {(time.perf_counter() - started) * 1000:.0f} ms")

    # Embedding, stage by stage.
    totals: list[float] = []
    decode: list[float] = []
    rest: list[float] = []
    for path in sorted(IMAGES.iterdir()):
        if path.suffix not in {".jpg", ".png"}:
            continue
        data = path.read_bytes()
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            image = embedder.load(data)
            t1 = time.perf_counter()
            # t1.jpg is refused as more than one face, after detection.
            with contextlib.suppress(FaceImageError):
                embedder.embed_image(image)
            t2 = time.perf_counter()
            decode.append(t1 - t0)
            rest.append(t2 - t1)
            totals.append(t2 - t0)
    print(f"embedding, {len(totals)} runs over the test photographs:")
    print(f"  decode+guards     {ms(decode)}")
    print(f"  detect+embed      {ms(rest)}")
    print(f"  total per image   {ms(totals)}")

    # Index.
    rng = np.random.default_rng(42)
    bank = rng.normal(size=(args.bank, 128)).astype(np.float32)
    bank /= np.linalg.norm(bank, axis=1, keepdims=True)
    index = FaceIndex()
    started = time.perf_counter()
    index.add_many([f"face-{i}" for i in range(args.bank)], bank)
    built = time.perf_counter() - started
    print(
        f"index: {args.bank:,} faces added in {built * 1000:.0f} ms, "
        f"{bank.nbytes / 2**20:.1f} MB of vectors"
    )
    queries = rng.normal(size=(args.queries, 128)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    # Half the queries are a bank face plus noise (a returning face: one match under 0.6).
    near = rng.integers(0, args.bank, size=args.queries // 2)
    queries[: len(near)] = bank[near] + rng.normal(scale=0.02, size=(len(near), 128))
    for label, max_distance in (("max_distance 0.6", 0.6), ("max_distance None", None)):
        times: list[float] = []
        found = 0
        for query in queries:
            t0 = time.perf_counter()
            matches = index.nearest(query, k=args.k, max_distance=max_distance)
            times.append(time.perf_counter() - t0)
            found += bool(matches)
        print(f"  nearest k={args.k} {label:18} {ms(times)}  ({found} queries with a match)")


if __name__ == "__main__":
    main()
