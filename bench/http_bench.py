"""Requests per second and latency of POST /v3/screening/aml-with-id over real HTTP.

    uv run --group dev python bench/http_bench.py [--duration 10] [--connections 64]
        [--only live_sqlite,2_workers] [--databases sqlite,postgresql]

On this 2-core machine the server gets core 0 (one uvicorn worker, `taskset`), the load
generator (wrk) and the fake upstream get core 1. Measured in the same run:

- ceiling: a bare FastAPI endpoint with a body and a response model (bench/ceiling_app.py);
- sandbox: the combined screening with a sandbox key (auth, validation, mock identity, request
  log);
- live: with a live key: wallet hold (in memory), a Prembly lookup against the local fake
  upstream, the real screening engine over the bundled lists, debit + request record in one
  grouped transaction;
- name screening (pep-and-sanction) in sandbox and live, and both live calls once more with two
  server processes (`--workers 2`) sharing both cores with wrk: the whole machine;
- the ceiling once more at the end: on a shared machine the two bracket the load.

Both databases are measured for Hakiki: SQLite (embedded default) and PostgreSQL when reachable.
Needs `wrk` (Debian package `wrk`). Results go to bench/results/http.json and are printed as a
Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.identity.providers.fake_prembly import BVN_FOUND, run_fake_prembly  # noqa: E402

from hakiki.account import service as accounts  # noqa: E402
from hakiki.core.database import create_database  # noqa: E402
from hakiki.core.migrate import upgrade  # noqa: E402
from hakiki.core.settings import Settings, choose_event_loop  # noqa: E402
from hakiki.core.wallet import service as wallet  # noqa: E402

POSTGRES_URL = os.environ.get(
    "HAKIKI_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
SECRET = "bench-secret-key-0123456789abcdef0123456789"
SETTLE_SECONDS = 10
UVICORN = [sys.executable, "-m", "uvicorn", "--no-access-log", "--log-level", "warning"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(
    args: list[str],
    env: dict[str, str],
    port: int,
    probe: str,
    *,
    workers: int = 1,
    loop: str = "auto",
) -> Any:
    """One uvicorn worker pinned to core 0, or several sharing both cores with wrk; on the
    event loop `hakiki serve` would choose (``loop="auto"``)."""
    loop = choose_event_loop(loop, workers)
    pinning = ["taskset", "-c", "0"] if workers == 1 else ["--workers", str(workers)]
    command = [*UVICORN, "--loop", loop, "--port", str(port), *args]
    if workers == 1:
        command = [*pinning, *command]
    else:
        command += pinning
    process = subprocess.Popen(
        command,
        env=env,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}{probe}", timeout=1)
                break
            except httpx.HTTPError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"server {args} did not start") from None
                time.sleep(0.2)
        time.sleep(SETTLE_SECONDS)  # let start-up work (housekeeping, first connections) finish
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def wrk(
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    duration: int,
    connections: int,
    *,
    pin: bool = True,
    vary: dict[str, str] | None = None,
) -> dict[str, Any]:
    """``vary``: body fields given a new random value on every request, as a Lua
    ``string.format`` pattern of one random integer (``{"number": "22%09d"}``)."""
    lines = ['wrk.method = "POST"', f"wrk.body = {json.dumps(json.dumps(body))}"]
    lines.append('wrk.headers["Content-Type"] = "application/json"')
    for name, value in headers.items():
        lines.append(f'wrk.headers["{name}"] = "{value}"')
    if vary:
        template = json.dumps({**body, **{field: f"@@{field}" for field in vary}})
        lines += ["request = function()", f"  local body = {json.dumps(template)}"]
        for field, pattern in vary.items():
            value = f'string.format("{pattern}", math.random(0, 999999999))'
            lines.append(f'  body = body:gsub("@@{field}", {value})')
        lines += ["  return wrk.format(nil, nil, nil, body)", "end"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write("\n".join(lines) + "\n")
    base = ["wrk", "-t1", f"-c{connections}", "--latency", "-s", script.name]
    if pin:
        base = ["taskset", "-c", "1", *base]
    subprocess.run([*base, "-d5s", url], capture_output=True, check=True)  # warm-up
    out = subprocess.run([*base, f"-d{duration}s", url], capture_output=True, text=True, check=True)
    os.unlink(script.name)
    return parse_wrk(out.stdout)


def wrk_results(setup: str) -> dict[str, Any]:
    """The record a wrk-driven bench fills: when, on what, how; its runs to come. Exits
    when wrk is missing."""
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}",
        "setup": setup,
        "runs": {},
    }


def _ms(value: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", value).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def parse_wrk(text: str) -> dict[str, Any]:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))  # type: ignore[union-attr]
    pct = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", text, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    socket_errors = re.search(r"Socket errors: (.*)", text)
    return {
        "rps": round(rps),
        "p50_ms": round(_ms(pct["50"]), 2),
        "p90_ms": round(_ms(pct["90"]), 2),
        "p99_ms": round(_ms(pct["99"]), 2),
        "non_2xx": int(errors.group(1)) if errors else 0,
        "socket_errors": socket_errors.group(1) if socket_errors else None,
    }


def fresh_database(settings: Settings) -> None:
    """Migrate an empty database. A SQLite run gets a new file; a PostgreSQL run drops the
    bench database's public schema first, so rows an earlier run left (the request log, which
    the phone scan counts) do not slow this one. It is the tests' database: nothing to keep."""
    if settings.database_url:

        async def drop() -> None:
            engine = create_async_engine(settings.database_url or "")
            async with engine.begin() as conn:
                await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
                await conn.execute(text("CREATE SCHEMA public"))
            await engine.dispose()

        asyncio.run(drop())
    upgrade(settings)


async def prepare(settings: Settings) -> tuple[dict[str, str], dict[str, str]]:
    db = create_database(settings)
    name = f"bench-{time.time_ns()}"
    org = await accounts.create_org(db, name, approved=True)
    sandbox = await accounts.create_key(db, name, "sandbox")
    live = await accounts.create_key(db, name, "live")
    await wallet.credit(db, org.id, 10**15, "benchmark float")
    await db.dispose()

    def auth(key: accounts.IssuedKey) -> dict[str, str]:
        return {"Authorization": f"Bearer {key.client_id}:{key.secret}"}

    return auth(sandbox), auth(live)


def verified(url: str, number: str, headers: dict[str, str]) -> None:
    """A soft upstream failure answers 200 too: check one call really verified."""
    body = httpx.post(url, json={"channel": "bvn", "number": number}, headers=headers).json()
    if body.get("status") != "VERIFIED":
        raise RuntimeError(f"the combined screening did not verify: {body}")


def hakiki_env(data_dir: Path, fake: Any, db_url: str | None) -> dict[str, str]:
    """A benchmarked server's settings: its data, the fake Prembly upstream, no rate limit in
    the way (one key drives all the load: the limiter still counts every call, never bites)."""
    env = {
        "HAKIKI_DATA_DIR": str(data_dir),
        "HAKIKI_SECRET_KEY": SECRET,
        "HAKIKI_PREMBLY_APP_ID": fake.app_id,
        "HAKIKI_PREMBLY_API_KEY": fake.api_key,
        "HAKIKI_PREMBLY_BASE_URL": fake.base_url,
        "HAKIKI_RATE_LIMIT": "1000000/second",
    }
    if db_url:
        env["HAKIKI_DATABASE_URL"] = db_url
    return env


def postgres_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), 2):
            return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated parts of run names to keep (e.g. 'live_sqlite,2_workers'); "
        "the ceiling always runs",
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument(
        "--loop",
        default="auto",
        choices=["auto", "asyncio", "uvloop"],
        help="Hakiki's event loop (auto: as `hakiki serve` chooses, HAKIKI_EVENT_LOOP); the "
        "ceiling always runs on uvloop",
    )
    options = parser.parse_args()

    def wanted(name: str) -> bool:
        return not options.only or any(part in name for part in options.only.split(","))

    results = wrk_results(
        f"server on core 0 (1 uvicorn worker), wrk -t1 -c{options.connections} "
        f"-d{options.duration}s and the fake upstream on core 1"
    )
    body = {"channel": "bvn", "number": "22212345670"}
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}

    port = free_port()
    with server(["bench.ceiling_app:app"], env, port, "/docs", loop="uvloop") as url:
        results["runs"]["ceiling"] = wrk(
            f"{url}/echo", body, {}, options.duration, options.connections
        )
    print("ceiling", results["runs"]["ceiling"], flush=True)

    databases: dict[str, str | None] = {}
    if "sqlite" in options.databases:
        databases["sqlite"] = None
    if "postgresql" in options.databases and postgres_reachable():
        databases["postgresql"] = POSTGRES_URL
    with run_fake_prembly() as fake, tempfile.TemporaryDirectory() as tmp:
        for db_name, db_url in databases.items():
            settings = Settings(
                data_dir=Path(tmp) / db_name, database_url=db_url, secret_key=SECRET
            )
            fresh_database(settings)
            sandbox_headers, live_headers = asyncio.run(prepare(settings))
            server_env = {**env, **hakiki_env(settings.data_dir, fake, db_url)}
            port = free_port()
            with server(
                ["--factory", "hakiki.app:create_app"], server_env, port, "/docs", loop=options.loop
            ) as url:
                endpoint = f"{url}/v3/screening/aml-with-id"
                for mode, headers, number in (
                    ("sandbox", sandbox_headers, "22212345670"),
                    ("live", live_headers, BVN_FOUND),
                ):
                    if not wanted(f"{mode}_{db_name}"):
                        continue
                    verified(endpoint, number, headers)
                    run = wrk(
                        endpoint,
                        {"channel": "bvn", "number": number},
                        headers,
                        options.duration,
                        options.connections,
                    )
                    results["runs"][f"{mode}_{db_name}"] = run
                    print(mode, db_name, run, flush=True)
                # Name screening: both official lists (live) or the sandbox lists.
                for mode, headers in (("sandbox", sandbox_headers), ("live", live_headers)):
                    if not wanted(f"name_screening_{mode}_{db_name}"):
                        continue
                    run = wrk(
                        f"{url}/v3/screening/pep-and-sanction",
                        {"name": "Grace Wanjiru Kamau", "birth_date": "1990", "countries": ["KE"]},
                        headers,
                        options.duration,
                        options.connections,
                    )
                    results["runs"][f"name_screening_{mode}_{db_name}"] = run
                    print("name screening", mode, db_name, run, flush=True)
                fake.reset()
            # The whole machine: two server processes share both cores with wrk.
            two: dict[str, tuple[str, dict[str, Any]]] = {
                f"live_{db_name}_2_workers": (
                    "/v3/screening/aml-with-id",
                    {"channel": "bvn", "number": BVN_FOUND},
                ),
                f"name_screening_live_{db_name}_2_workers": (
                    "/v3/screening/pep-and-sanction",
                    {"name": "Grace Wanjiru Kamau", "birth_date": "1990", "countries": ["KE"]},
                ),
            }
            two = {name: spec for name, spec in two.items() if wanted(name)}
            if not two:
                continue
            port = free_port()
            with server(
                ["--factory", "hakiki.app:create_app"],
                server_env,
                port,
                "/docs",
                workers=2,
                loop=options.loop,
            ) as url:
                for name, (path, call_body) in two.items():
                    if "aml-with-id" in path:
                        verified(f"{url}{path}", BVN_FOUND, live_headers)
                    run = wrk(
                        f"{url}{path}",
                        call_body,
                        live_headers,
                        options.duration,
                        options.connections,
                        pin=False,
                    )
                    results["runs"][name] = run
                    print(name, run, flush=True)
                fake.reset()

    # The ceiling once more: on a shared machine the two bracket the load the rows ran under.
    port = free_port()
    with server(["bench.ceiling_app:app"], env, port, "/docs", loop="uvloop") as url:
        results["runs"]["ceiling_end"] = wrk(
            f"{url}/echo", body, {}, options.duration, options.connections
        )
    print("ceiling at the end", results["runs"]["ceiling_end"], flush=True)

    ceiling = results["runs"]["ceiling"]["rps"]
    table = [
        "| run | req/s | share of ceiling | p50 ms | p90 ms | p99 ms | non-2xx |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, run in results["runs"].items():
        table.append(
            f"| {name} | {run['rps']} | {run['rps'] / ceiling:.0%} | {run['p50_ms']} | "
            f"{run['p90_ms']} | {run['p99_ms']} | {run['non_2xx']} |"
        )
    results["table"] = table
    out = ROOT / "bench" / "results" / "http.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n".join(table))


if __name__ == "__main__":
    main()
