"""Requests per second of the fraud scans over real HTTP, live keys (charged, reading the shared
fraud database), with one server process pinned to core 0 and with two processes sharing both
cores with wrk. Reuses bench/http_bench.py's server, wrk and account set-up.

    uv run --group dev python bench/fraud_http_bench.py [--duration 10] [--connections 64]

Results go to bench/results/fraud_http.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_bench import (  # noqa: E402
    POSTGRES_URL,
    SECRET,
    free_port,
    fresh_database,
    postgres_reachable,
    prepare,
    server,
    wrk,
)
from hakiki.core.settings import Settings  # noqa: E402

SCANS = {
    "id_scan": ("/v3/fraud/id-scan", {"channel": "bvn", "number": "22123456789",
                                      "first_name": "Musa", "last_name": "Okonkwo"}),
    "phone": ("/v3/fraud/phone", {"phone": "0712 345678", "country_code": "KE"}),
}  # fmt: skip
# --vary: a new number on every request (a look-up of its own, sightings recorded for it)
VARY = {"id_scan": {"number": "22%09d"}, "phone": {"phone": "07%08d"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--vary", action="store_true", help="a new number on every request")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    options = parser.parse_args()
    results: dict[str, Any] = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "runs": {}}
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    databases = {"sqlite": None} | ({"postgresql": POSTGRES_URL} if postgres_reachable() else {})
    databases = {k: v for k, v in databases.items() if k in options.databases}
    with tempfile.TemporaryDirectory() as tmp:
        for db_name, db_url in databases.items():
            settings = Settings(
                data_dir=Path(tmp) / db_name, database_url=db_url, secret_key=SECRET
            )
            fresh_database(settings)
            _, live_headers = asyncio.run(prepare(settings))
            server_env = {
                **env,
                "HAKIKI_DATA_DIR": str(settings.data_dir),
                "HAKIKI_SECRET_KEY": SECRET,
                "HAKIKI_RATE_LIMIT": "1000000/second",
                **({"HAKIKI_DATABASE_URL": db_url} if db_url else {}),
            }
            for workers in options.workers:
                port = free_port()
                args = ["--factory", "hakiki.app:create_app"]
                with server(args, server_env, port, "/docs", workers=workers) as url:
                    for name, (path, body) in SCANS.items():
                        run = wrk(url + path, body, live_headers, options.duration,
                                  options.connections, pin=workers == 1,
                                  vary=VARY[name] if options.vary else None)  # fmt: skip
                        key = f"{name}_live_{db_name}_{workers}_worker{'s' * (workers > 1)}"
                        key += "_varied" if options.vary else ""
                        results["runs"][key] = run
                        print(key, run, flush=True)
    out = ROOT / "bench" / "results" / f"fraud_http{'_varied' * options.vary}.json"
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
