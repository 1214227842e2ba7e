"""Benchmark the screening engine on one core.

Builds the default engine from the bundled lists (OFAC SDN + UN consolidated), then screens
2,000 queries: listed UN persons (as listed and with a typo) and synthetic clean customers.
Prints build time, memory, latency percentiles, throughput, top-1 recall and false positives.

    uv run --group dev python bench/screening_engine.py
    uv run --group dev python bench/screening_engine.py --queries 5000 \\
        --positives path/positives_un_untreated.csv --negatives path/negatives_global.csv

Without paths it uses the samples in tests/engines/screening/data/.
"""

from __future__ import annotations

import argparse
import csv
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "engines" / "screening" / "data"


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # not Linux: peak RSS instead
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def typo(name: str, rnd: random.Random) -> str:
    tokens = name.split()
    i = max(range(len(tokens)), key=lambda k: len(tokens[k]))
    token = tokens[i]
    if len(token) >= 5:
        j = rnd.randrange(1, len(token) - 1)
        token = token[:j] + token[j + 1 :]
    tokens[i] = token
    return " ".join(tokens)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--positives", type=Path, default=FIXTURES / "un_positives_sample.csv")
    parser.add_argument("--negatives", type=Path, default=FIXTURES / "negatives_global_sample.csv")
    parser.add_argument("--cpu", type=int, default=0, help="core to pin to (Linux)")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() after the build, as a server should (no full-GC pauses over the lists)",
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})

    base = rss_mb()
    started = time.perf_counter()
    from hakiki.engines.screening import ScreeningEngine, Subject, load_bundled_snapshots

    imported = time.perf_counter()
    snapshots = load_bundled_snapshots()
    loaded = time.perf_counter()
    engine = ScreeningEngine(snapshots)
    built = time.perf_counter()
    del snapshots
    gc.collect()
    memory = rss_mb() - base
    print(f"lists: {', '.join(f'{v.code} {v.version}' for v in engine.lists)}")
    print(f"entities {engine.entity_count:,}, names {engine.name_count:,}")
    print(
        f"build: {built - started:.2f} s (import {imported - started:.2f}, "
        f"read+verify+parse {loaded - imported:.2f}, index {built - loaded:.2f}); "
        f"memory +{memory:.0f} MB RSS"
    )

    rnd = random.Random(42)
    positives = read_csv(args.positives)
    negatives = read_csv(args.negatives)
    queries: list[tuple[Subject, dict[str, str] | None]] = []
    n_pos = args.queries // 4
    for k in range(n_pos):
        row = positives[k % len(positives)]
        name = row["full_name"] if (k // len(positives)) % 2 == 0 else typo(row["full_name"], rnd)
        queries.append((Subject(name, birth_date=row["date_of_birth"] or None), row))
    for k in range(args.queries - n_pos):
        row = negatives[k % len(negatives)]
        queries.append(
            (
                Subject(
                    row["full_name"],
                    birth_date=row["date_of_birth"] or None,
                    countries=(row["nationality"],),
                ),
                None,
            )
        )
    rnd.shuffle(queries)

    for subject, _ in queries[:200]:  # warm the caches a real server would have warm
        engine.screen(subject)
    if args.gc_freeze:
        gc.freeze()
    full_collections: list[float] = []
    gc_started = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            full_collections.append((time.perf_counter() - gc_started[0]) * 1000)

    gc.callbacks.append(on_gc)
    timings: list[float] = []
    found = positive_total = flagged = negative_total = 0
    wall = time.perf_counter()
    for subject, expected in queries:
        t0 = time.perf_counter()
        result = engine.screen(subject)
        timings.append(time.perf_counter() - t0)
        if expected is not None:
            positive_total += 1
            reference = expected.get("expected_un_reference")
            best = result.hits[0].score if result.hits else None
            found += any(h.entity_id == reference and h.score == best for h in result.hits)
        else:
            negative_total += 1
            flagged += bool(result.hits)
    elapsed = time.perf_counter() - wall
    gc.callbacks.remove(on_gc)
    timings.sort()
    ms = [t * 1000 for t in timings]
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"{len(queries):,} screenings (threshold 0.8, both lists): "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms, "
        f"mean {statistics.fmean(ms):.2f} ms, {len(queries) / elapsed:,.0f} screenings/s"
    )
    pauses = ", ".join(f"{p:.0f} ms" for p in full_collections) or "none"
    print(f"full GC collections during the run: {len(full_collections)} ({pauses})")
    if positive_total and positives and "expected_un_reference" in positives[0]:
        print(f"UN positives top-1 (as listed + one typo): {found / positive_total:.3f}")
    print(f"false positives on clean customers: {flagged / max(negative_total, 1):.4f}")


if __name__ == "__main__":
    main()
