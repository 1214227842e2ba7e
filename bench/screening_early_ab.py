"""A/B of candidate generation's early pass against the plain pass (issue 33).

Runs ``bench/screening_scale.py``'s screening of one size (its lists, its 1,800 queries),
records every call the engine makes to ``CandidateIndex.candidates``, then for each call asks
the index again with the plain pass and with the early one (which goes first alternates),
``--rounds`` times: the candidates must be the same (the count that differ is printed; it
must be 0), and the thread CPU time of each is kept. The screenings are then repeated with
the early pass off and on and their results compared.

    uv run python bench/screening_early_ab.py --size 200000 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screening_scale
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.index import CandidateIndex


def _percentiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    at = lambda q: ms[min(len(ms) - 1, int(len(ms) * q))]  # noqa: E731
    return (
        f"p50 {statistics.median(ms):.3f} / p90 {at(0.9):.3f} / p99 {at(0.99):.3f} ms,"
        f" mean {statistics.fmean(ms):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=200000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args()

    calls: list[tuple[Any, int, Any]] = []
    subjects: list[Any] = []
    engines: list[ScreeningEngine] = []
    plain_candidates = CandidateIndex.candidates
    plain_screen = ScreeningEngine.screen

    def recording(self: CandidateIndex, query: Any, limit: int = 40, groups: Any = None, **kw: Any):  # type: ignore[no-untyped-def]
        calls.append((query, limit, groups))
        return plain_candidates(self, query, limit, groups, **kw)

    def screen(self: ScreeningEngine, subject: Any, *a: Any, **kw: Any):  # type: ignore[no-untyped-def]
        if not engines:
            engines.append(self)
        subjects.append(subject)
        return plain_screen(self, subject, *a, **kw)

    CandidateIndex.candidates = recording  # type: ignore[method-assign]
    ScreeningEngine.screen = screen  # type: ignore[method-assign]
    summary = screening_scale.run_one(args.size, 500, 1000, args.seed)
    CandidateIndex.candidates = plain_candidates  # type: ignore[method-assign]
    ScreeningEngine.screen = plain_screen  # type: ignore[method-assign]
    engine = engines[0]
    index = engine.index
    subjects = subjects[100:]  # the warm-up's are the first hundred
    print(json.dumps({k: summary[k] for k in ("size", "names", "p50_ms", "p99_ms", "per_s")}))

    plain_early = CandidateIndex._early
    outcomes: list[bool] = []

    def counting(self: CandidateIndex, *a: Any, **kw: Any) -> list[int] | None:
        found = plain_early(self, *a, **kw)
        outcomes.append(found is not None)
        return found

    CandidateIndex._early = counting  # type: ignore[method-assign]
    differ = 0
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        times = {False: [], True: []}
        outcomes.clear()
        for k, (query, limit, groups) in enumerate(calls):
            found = {}
            for early in (False, True) if k % 2 else (True, False):  # neither always warmer
                started = time.thread_time()
                found[early] = index.candidates(query, limit, groups, early=early)
                times[early].append(time.thread_time() - started)
            differ += found[False] != found[True]
    CandidateIndex._early = plain_early  # type: ignore[method-assign]
    proven = sum(outcomes)
    print(f"calls {len(calls)}, candidates differing {differ} (over {args.rounds} rounds)")
    print(f"early pass proven on {proven} of {len(calls)} calls")
    for early in (False, True):
        print(f"candidates, {'early' if early else 'plain'}: {_percentiles(times[early])}")

    screens: dict[bool, list[float]] = {False: [], True: []}
    results: dict[bool, list[Any]] = {False: [], True: []}
    for k, subject in enumerate(subjects):
        for early in (False, True) if k % 2 else (True, False):
            CandidateIndex.early = early
            started = time.thread_time()
            results[early].append(engine.screen(subject).to_dict())
            screens[early].append(time.thread_time() - started)
    CandidateIndex.early = True
    same = sum(a == b for a, b in zip(results[False], results[True], strict=True))
    print(f"screenings {len(subjects)}, results equal {same}")
    for early in (False, True):
        spent = sum(screens[early])
        print(
            f"screen, {'early' if early else 'plain'}: {_percentiles(screens[early])},"
            f" {len(subjects) / spent:.0f}/s"
        )


if __name__ == "__main__":
    main()
