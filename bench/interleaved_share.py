"""Share of the ceiling, measured in interleaved rounds: the ceiling and Hakiki's call in turn.

    uv run --group dev python bench/interleaved_share.py [--rounds 3] [--duration 10]
        [--connections 64] [--modes sandbox,live] [--databases sqlite,postgresql]

On a shared machine one pair of runs (the ceiling, then the call) can move by 10% against the
next pair: the host's load changes within minutes. Here both servers stay up on core 0 (only the
one under load works) and wrk on core 1 loads them in turn: ceiling, call, ceiling, call, ...,
ceiling. Each run of the call is set against the mean of the two ceiling runs around it; the
figure is the median of those shares, printed with every round's. The set-up of each run is
bench/http_bench.py's (the same servers, settings, warm-up and wrk script). Results go to
bench/results/interleaved.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.identity.providers.fake_prembly import BVN_FOUND, run_fake_prembly  # noqa: E402

from bench.http_bench import (  # noqa: E402
    POSTGRES_URL,
    SECRET,
    free_port,
    fresh_database,
    hakiki_env,
    postgres_reachable,
    prepare,
    server,
    verified,
    wrk,
    wrk_results,
)
from hakiki.core.settings import Settings  # noqa: E402

ENDPOINT = "/v3/screening/aml-with-id"
NUMBERS = {"sandbox": "22212345670", "live": BVN_FOUND}


def bracketed_shares(ceilings: list[float], calls: list[float]) -> list[float]:
    """Each call run's req/s over the mean of the ceiling runs just before and after it
    (``ceilings`` has one run more than ``calls``: it opens and closes the sequence)."""
    if len(ceilings) != len(calls) + 1:
        raise ValueError("the ceiling runs must bracket the call runs: one more of them")
    return [call / ((ceilings[i] + ceilings[i + 1]) / 2) for i, call in enumerate(calls)]


def summary(shares: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(shares), 3),
        "lowest": round(min(shares), 3),
        "highest": round(max(shares), 3),
    }


def measure(
    ceiling_url: str,
    call_url: str,
    headers: dict[str, str],
    number: str,
    options: argparse.Namespace,
) -> dict[str, Any]:
    body = {"channel": "bvn", "number": number}
    verified(call_url, number, headers)
    ceilings = [wrk(ceiling_url, body, {}, options.duration, options.connections)]
    calls = []
    for _ in range(options.rounds):
        calls.append(wrk(call_url, body, headers, options.duration, options.connections))
        ceilings.append(wrk(ceiling_url, body, {}, options.duration, options.connections))
    shares = bracketed_shares([c["rps"] for c in ceilings], [c["rps"] for c in calls])
    return {
        "ceiling_runs": ceilings,
        "call_runs": calls,
        "shares": [round(share, 3) for share in shares],
        **summary(shares),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--modes", default="sandbox,live")
    parser.add_argument("--databases", default="sqlite,postgresql")
    options = parser.parse_args()
    results = wrk_results(
        f"both servers on core 0 (1 uvicorn worker each), wrk -t1 -c{options.connections}"
        f" -d{options.duration}s and the fake upstream on core 1; {options.rounds} rounds"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    databases = {"sqlite": None, "postgresql": POSTGRES_URL}
    with run_fake_prembly() as fake, tempfile.TemporaryDirectory() as tmp:
        for db_name, db_url in databases.items():
            if db_name not in options.databases or (db_url and not postgres_reachable()):
                continue
            settings = Settings(
                data_dir=Path(tmp) / db_name, database_url=db_url, secret_key=SECRET
            )
            fresh_database(settings)
            sandbox_headers, live_headers = asyncio.run(prepare(settings))
            headers = {"sandbox": sandbox_headers, "live": live_headers}
            server_env = {**env, **hakiki_env(settings.data_dir, fake, db_url)}
            with ExitStack() as stack:
                ceiling = stack.enter_context(
                    server(["bench.ceiling_app:app"], env, free_port(), "/docs", loop="uvloop")
                )
                hakiki = stack.enter_context(
                    server(["--factory", "hakiki.app:create_app"], server_env, free_port(), "/docs")
                )
                for mode in options.modes.split(","):
                    run = measure(
                        f"{ceiling}/echo",
                        f"{hakiki}{ENDPOINT}",
                        headers[mode],
                        NUMBERS[mode],
                        options,
                    )
                    results["runs"][f"{mode}_{db_name}"] = run
                    print(mode, db_name, run["shares"], "median", run["median"], flush=True)
                    fake.reset()

    table = [
        "| call | ceiling req/s (runs) | call req/s (runs) | shares | median |",
        "|---|---|---|---|---|",
    ]
    for name, run in results["runs"].items():
        ceilings = ", ".join(f"{c['rps']:,}" for c in run["ceiling_runs"])
        calls = ", ".join(f"{c['rps']:,}" for c in run["call_runs"])
        shares = ", ".join(f"{share:.0%}" for share in run["shares"])
        table.append(f"| {name} | {ceilings} | {calls} | {shares} | **{run['median']:.0%}** |")
    results["table"] = table
    out = ROOT / "bench" / "results" / "interleaved.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n".join(table))


if __name__ == "__main__":
    main()
