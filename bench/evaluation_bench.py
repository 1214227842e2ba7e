"""Benchmark the 360 evaluation engine in process, on one core: each model's evaluation (every
factor, the components, the trace) and the deterministic explanation, over the sandbox
profiles (strong, marginal, weak), ``--repeat`` times each.

    uv run --group dev python bench/evaluation_bench.py
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from hakiki.engines.evaluation import (
    Accounts,
    AgriSmeInputs,
    Bureau,
    CashFlow,
    Climate,
    CropFarm,
    CropInputs,
    Evaluation,
    Herd,
    LivestockInputs,
    Market,
    Sourced,
    evaluate_agri_sme,
    evaluate_crop,
    evaluate_livestock,
    explain,
)
from hakiki.engines.evaluation.reference import water_need

CLEAN = Bureau(0, 0, 0, 48, 1)
LATE = Bureau(45, 0, 0, 14, 4)
DEFAULTED = Bureau(120, 1, 1, 20, 8)
CASH = CashFlow(12, 60000, 38000, 18, 9000)
TIGHT = CashFlow(6, 30000, 26000, 40, 4000)

CROPS = [
    CropInputs(
        CropFarm("maize", False, (2400, 2600, 2500), True, True, True),
        Climate(Sourced(rain), Sourced(norm), Sourced(cv)),
        bureau, cash, Market(offtake, km, Sourced(price)), water_need("maize"),
    )
    for rain, norm, cv, bureau, cash, offtake, km, price in (
        (640, 650, 15, CLEAN, CASH, "contract", 6, 12),
        (420, 600, 28, LATE, TIGHT, "none", 25, 25),
        (250, 600, 45, DEFAULTED, None, "none", 80, None),
    )
]  # fmt: skip
HERDS = [
    LivestockInputs(
        Herd("cattle", 40, vaccinated),
        Climate(Sourced(rain), Sourced(310), Sourced(cv), Sourced(ndvi), Sourced(0.5)),
        bureau, cash, Market("cooperative", 10, Sourced(15)),
    )
    for vaccinated, rain, cv, ndvi, bureau, cash in (
        (95, 300, 18, 0.52, CLEAN, CASH), (60, 240, 30, 0.4, LATE, TIGHT),
        (10, 120, 45, 0.22, DEFAULTED, None),
    )
]  # fmt: skip
SMES = [
    AgriSmeInputs(CLEAN, (CLEAN,), CashFlow(12, 4.5e6, 3.6e6, 15, 3.5e5),
                  Accounts("unqualified", 11, 1.8, 0.8, 4, 12.5)),
    AgriSmeInputs(LATE, (), CashFlow(12, 3e6, 2.8e6, 35, 2.5e5),
                  Accounts("qualified", 3, 1.1, 1.8, 2)),
    AgriSmeInputs(CLEAN, (DEFAULTED,), None, Accounts("adverse", -6, 0.7, 3.5, 1)),
]  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def measure(name: str, run: Callable[[], object], repeat: int) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    p50, p99 = percentile(times, 50) * 1e6, percentile(times, 99) * 1e6
    print(f"{name:32} p50 {p50:8.1f} µs   p99 {p99:8.1f} µs   ({repeat} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3000)
    args = parser.parse_args()
    cases: list[tuple[str, Callable[[], Evaluation]]] = []
    for label, profiles, evaluate in (
        ("crop_farmer", CROPS, evaluate_crop),
        ("livestock_farmer", HERDS, evaluate_livestock),
        ("agri_sme", SMES, evaluate_agri_sme),
    ):
        for rating, inputs in zip(("strong", "marginal", "weak"), profiles, strict=True):
            cases.append((f"{label} {rating}", lambda e=evaluate, i=inputs: e(i)))  # type: ignore[misc]
    for name, run in cases:
        print(f"{name:32} score {run().score}")
    for name, run in cases:
        measure(name, run, args.repeat)
    measure("explain (crop marginal)", lambda r=cases[1][1](): explain(r), args.repeat)


if __name__ == "__main__":
    main()
