"""Latency of a credit decision: the scorecard engine alone (features, points, reasons,
policy), and POST /v3/credit/decision through the whole app in process (ASGI, sandbox key on
SQLite: routing, auth, validation, the engine, the request log), one request at a time.

    uv run --group dev python bench/credit_bench.py [--engine 20000] [--http 2000]

Results go to bench/results/credit.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hakiki.account import service as accounts  # noqa: E402
from hakiki.app import create_app  # noqa: E402
from hakiki.core.migrate import upgrade  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402
from hakiki.credit import decision  # noqa: E402
from hakiki.credit.sandbox import MIDDLE, STRONG, WEAK  # noqa: E402
from hakiki.engines.credit import features, policy  # noqa: E402

APPLICANTS = [STRONG, MIDDLE, WEAK]


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 4),
        "p95_ms": round(ordered[int(len(ordered) * 0.95)] * 1000, 4),
        "p99_ms": round(ordered[int(len(ordered) * 0.99)] * 1000, 4),
    }


def engine(rounds: int) -> dict[str, Any]:
    model = decision.scorecard()
    cutoffs = policy.Cutoffs(620, 560)
    prepared = []
    for body in APPLICANTS:
        b, s, a = body["bureau"], body["statement"], body["applicant"]
        facts = features.BureauFacts(
            b["accounts"],
            b.get("open_accounts", 0),
            b.get("performing_accounts", 0),
            0,
            0,
            0,
            tuple(b.get("lender_types", ())),
        )
        prepared.append(
            features.Applicant(
                a["monthly_income"], a["monthly_obligations"], body["loan"]["amount"],
                body["loan"]["term_months"], body["loan"]["purpose"], a["employment_months"],
                facts, s["average_balance"], s["average_monthly_inflow"],
            )
        )  # fmt: skip
    samples = []
    for i in range(rounds):
        applicant = prepared[i % 3]
        start = time.perf_counter()
        scored = model.score(features.variables(applicant))
        scored.reasons()
        found = policy.overrides(policy.Signals(), 0, 0, features.debt_to_income(applicant), 0.5)
        policy.decide(policy.by_score(scored.score, cutoffs), found)
        samples.append(time.perf_counter() - start)
    return {"rounds": rounds, **_percentiles(samples)}


async def http(rounds: int, data_dir: Path) -> dict[str, Any]:
    settings = Settings(data_dir=data_dir, secret_key="b" * 64, rate_limit="100000/second")
    await asyncio.to_thread(upgrade, settings)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        db = app.state.runtime.db
        await accounts.create_org(db, "bench", approved=True)
        key = await accounts.create_key(db, "bench", "sandbox", None)
        headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for body in APPLICANTS:  # warm up
                (
                    await client.post("/v3/credit/decision", json=body, headers=headers)
                ).raise_for_status()
            samples = []
            for i in range(rounds):
                start = time.perf_counter()
                response = await client.post(
                    "/v3/credit/decision", json=APPLICANTS[i % 3], headers=headers
                )
                samples.append(time.perf_counter() - start)
                assert response.status_code == 200, response.text
    return {
        "rounds": rounds,
        **_percentiles(samples),
        "per_second": round(rounds / sum(samples), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", type=int, default=20_000)
    parser.add_argument("--http", type=int, default=2_000)
    options = parser.parse_args()
    results: dict[str, Any] = {"date": datetime.now(UTC).isoformat(timespec="seconds")}
    results["engine"] = engine(options.engine)
    with tempfile.TemporaryDirectory() as tmp:
        results["http_in_process_sqlite"] = asyncio.run(http(options.http, Path(tmp)))
    out = ROOT / "bench" / "results" / "credit.json"
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
