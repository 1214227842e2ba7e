"""Training a lender's own scorecard on synthetic loan books (hakiki.devtools.loan_book): the
time to generate, read (CSV to checked loan book) and train (binning, IRLS, holdout scoring,
the model card) at each size, with the trained model's holdout AUC against the generator's
truth. The engine alone, one process.

    uv run --group dev python bench/credit_models_bench.py [--rows 20000 100000]

Results go to bench/results/credit_models.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hakiki.credit.registry.loan_file import read  # noqa: E402
from hakiki.devtools import loan_book  # noqa: E402
from hakiki.engines.credit.lender_training import Settings, train  # noqa: E402


def one(rows: int, seed: int) -> dict[str, Any]:
    started = time.perf_counter()
    book = loan_book.generate(rows, seed)
    data = book.csv_text().encode()
    generated = time.perf_counter()
    checked = read(data)
    read_at = time.perf_counter()
    document = train(checked, Settings(version="bench-1"))
    trained = time.perf_counter()
    card = document["card"]
    return {
        "rows": rows,
        "file_bytes": len(data),
        "defaults": card["data"]["defaults"],
        "generate_seconds": round(generated - started, 2),
        "read_seconds": round(read_at - generated, 2),
        "train_seconds": round(trained - read_at, 2),
        "truth_auc": book.truth_auc,
        "holdout_auc": card["metrics"]["holdout_auc"],
        "holdout_ks": card["metrics"]["holdout_ks"],
        "gender_approval_ratio": card["fairness"]["protected_gender"]["approval_rate_ratio"],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args()
    results = [one(rows, args.seed) for rows in args.rows]
    out = {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "runs": results}
    print(json.dumps(out, indent=1))
    target = ROOT / "bench" / "results" / "credit_models.json"
    target.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
