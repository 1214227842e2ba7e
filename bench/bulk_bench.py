"""A live bulk ID scan of 100,000 rows over real HTTP: one `hakiki` server process (its embedded
job worker does the scanning), SQLite and PostgreSQL. Each file is scanned twice: the first run
finds an empty fraud database and records the names, dates of birth and phones given with every
number; the second finds all of them (each row reads real sightings). Times: the upload (the
whole file parsed and checked, stored encrypted, the price reserved), upload to `completed`,
and the download of the results file.

    uv run --group dev python bench/bulk_bench.py [--rows 100000] [--chunk 500]

Results go to bench/results/bulk.json.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_bench import (  # noqa: E402
    POSTGRES_URL,
    SECRET,
    UVICORN,
    free_port,
    postgres_reachable,
    prepare,
)
from hakiki.core.migrate import upgrade  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402

FIRST = ["Musa", "Amina", "Chidi", "Grace", "Wanjiru", "Baraka", "Neema", "Okello"]
LAST = ["Okonkwo", "Bello", "Mwangi", "Achieng", "Mushi", "Nakato", "Adeyemi", "Kamau"]


def sheet(rows: int) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["reference", "number", "first_name", "last_name", "date_of_birth", "phone"])
    for i in range(rows):
        writer.writerow([
            f"app-{i}", f"22{i:09d}", FIRST[i % 8], LAST[(i // 8) % 8],
            f"19{70 + i % 30}-{1 + i % 12:02d}-{1 + i % 28:02d}", f"0803{i % 10_000_000:07d}",
        ])  # fmt: skip
    return out.getvalue().encode()


def start_server(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    command = [*UVICORN, "--port", str(port), "--factory", "hakiki.app:create_app"]
    process = subprocess.Popen(command, env=env, cwd=ROOT)
    deadline = time.monotonic() + 90
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/docs", timeout=1)
            return process
        except httpx.HTTPError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def one_scan(url: str, headers: dict[str, str], data: bytes) -> dict[str, Any]:
    with httpx.Client(base_url=url, headers=headers, timeout=300) as http:
        began = time.perf_counter()
        response = http.post(
            "/v3/fraud/bulk-scan/upload",
            files={"file": ("applicants.csv", data, "text/csv")},
            data={"scan_type": "id", "channel": "bvn"},
        )
        uploaded = time.perf_counter()
        assert response.status_code == 202, response.text
        bulk_id = response.json()["reference"]
        while True:
            answer = http.get(f"/v3/fraud/bulk-scan/{bulk_id}", params={"page_size": 1}).json()
            status = answer["data"]
            if not answer["async_pending"]:
                break
            time.sleep(0.25)
        done = time.perf_counter()
        exported = http.get(f"/v3/fraud/bulk-scan/{bulk_id}", params={"format": "csv"})
        downloaded = time.perf_counter()
    assert status["state"] == "completed", status
    rows = status["total_records"]
    return {
        "rows": rows,
        "upload_seconds": round(uploaded - began, 2),
        "scan_seconds": round(done - uploaded, 2),
        "total_seconds": round(done - began, 2),
        "rows_per_second": round(rows / (done - uploaded)),
        "results_csv_seconds": round(downloaded - done, 2),
        "results_csv_mb": round(len(exported.content) / 1e6, 1),
        "success_count": status["success_count"],
        "charged_amount": status["charged_amount"],
        "results_sample": status["results"][0]["risk"],
    }


class Autoanalyze:
    """ANALYZE every few seconds, as autovacuum would: this machine's PostgreSQL runs with
    autovacuum off, and a table that grew from empty without statistics gets plans that scan
    it whole (the sightings look-up went from milliseconds to seconds per chunk)."""

    def __init__(self, url: str | None, every: float = 10.0) -> None:
        self.url, self.every = url, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        async def analyze() -> None:
            engine = create_async_engine(self.url or "", isolation_level="AUTOCOMMIT")
            async with engine.connect() as conn:
                await conn.execute(text("ANALYZE"))
            await engine.dispose()

        while not self.stop.wait(self.every):
            asyncio.run(analyze())

    def __enter__(self) -> Autoanalyze:
        if self.url:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()


async def fresh_database(url: str) -> str:
    """A new empty database beside ``url``'s (nothing left over from tests or earlier runs)."""
    base = make_url(url)
    name = f"{base.database}_bulk_bench"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--chunk", type=int, default=500)
    options = parser.parse_args()
    data = sheet(options.rows)
    results: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "file_mb": round(len(data) / 1e6, 1),
        "chunk_rows": options.chunk,
        "runs": {},
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    databases: dict[str, str | None] = {"sqlite": None}
    if postgres_reachable():
        databases["postgresql"] = asyncio.run(fresh_database(POSTGRES_URL))
    with tempfile.TemporaryDirectory() as tmp:
        for name, url in databases.items():
            settings = Settings(data_dir=Path(tmp) / name, database_url=url, secret_key=SECRET)
            upgrade(settings)
            _, live = asyncio.run(prepare(settings))
            server_env = {
                **env,
                "HAKIKI_DATA_DIR": str(settings.data_dir),
                "HAKIKI_SECRET_KEY": SECRET,
                "HAKIKI_BULK_CHUNK_ROWS": str(options.chunk),
                **({"HAKIKI_DATABASE_URL": url} if url else {}),
            }
            port = free_port()
            process = start_server(server_env, port)
            try:
                with Autoanalyze(url):
                    for attempt in ("first", "second"):
                        run = one_scan(f"http://127.0.0.1:{port}", live, data)
                        results["runs"][f"{name}_{attempt}"] = run
                        print(name, attempt, run, flush=True)
            finally:
                process.terminate()
                process.wait(timeout=60)
    out = ROOT / "bench" / "results" / "bulk.json"
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
