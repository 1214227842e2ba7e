"""What SQLite's ``secure_delete=ON`` (core/database.py: every connection zeroes the bytes of
deleted and rewritten rows, for erasure: docs/privacy.md) costs the writes, through the API in
this process: the same work on a fresh database with the pragma ON (as served) and OFF (set on
every connection of the running app, its pools renewed), in alternating order:

- ``kyc``: N sandbox KYC look-ups (POST /v3/kyc/national-id: a verification row, the request
  log, the audit log), wall time per call;
- ``bulk``: one sandbox bulk ID scan of R rows, upload to completed (a chunk's results, and
  the scan's row, whose file lives in overflow pages that SQLite rewrites with each update of
  the row's progress: the pages freed are what secure_delete zeroes);
- ``erasure``: one subject's erasure (POST /v3/privacy/subject-requests) over that data (the
  subject's KYC rows, its bulk result and its row inside the bulk file), queued to completed,
  the WAL checkpoint included;

the bytes written meanwhile (``/proc/self/io``: steady under a shared machine's load, where
wall times are not), and the sizes of the database file and its WAL after. Each number is one
run's; ``--rounds`` repeats the pair.

    uv run --group dev python bench/secure_delete_cost.py [--calls 300] [--rows 5000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import event  # noqa: E402

from hakiki.account import service as accounts  # noqa: E402
from hakiki.app import create_app  # noqa: E402
from hakiki.core.migrate import upgrade_async  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402

SUBJECT = "20000000"  # the sandbox's Kenyan golden number


def _sheet(rows: int) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["reference", "number", "channel"])
    for i in range(rows):
        number = SUBJECT if i == rows // 2 else f"4{i:07d}"
        writer.writerow([f"loan-{i}", number, "national_id"])
    return out.getvalue().encode()


def _written() -> int:
    """Bytes this process has handed to write() so far (/proc/self/io's wchar): unlike wall
    time, not moved by the other processes sharing the machine."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def _sizes(folder: str) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in Path(folder).rglob("hakiki.db*")}


async def _secure_delete_off(app: Any) -> None:
    """Every connection of the app with the pragma OFF: a listener after the app's own, and
    the pools renewed so no connection opened before it is kept."""
    db = app.state.runtime.db
    for engine in {id(db.writer): db.writer, id(db.reader): db.reader}.values():

        def off(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA secure_delete=OFF")
            cursor.close()

        event.listen(engine.sync_engine, "connect", off)
        await engine.dispose()


async def _pragma(app: Any) -> int:
    async with app.state.runtime.db.writer.connect() as conn:
        return int((await conn.exec_driver_sql("PRAGMA secure_delete")).scalar_one())


async def _wait(http: httpx.AsyncClient, url: str, headers: dict[str, str], done: Any) -> Any:
    while True:
        body = (await http.get(url, headers=headers)).json()
        if done(body):
            return body
        await asyncio.sleep(0.01)


async def one_run(secure: bool, calls: int, rows: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), database_url=None, rate_limit="100000/second")
        await upgrade_async(settings)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            if not secure:
                await _secure_delete_off(app)
            assert await _pragma(app) == (1 if secure else 0)
            db = app.state.runtime.db
            await accounts.create_org(db, "bench", approved=True, currency="KES")
            key = await accounts.create_key(db, "bench", "sandbox", None)
            headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://b") as http:
                spent = []
                written = _written()
                for i in range(calls):
                    number = SUBJECT if i % 10 == 0 else f"3{i:07d}"
                    started = time.perf_counter()
                    answer = await http.post(
                        "/v3/kyc/national-id",
                        json={"country_code": "KE", "number": number},
                        headers=headers,
                    )
                    spent.append((time.perf_counter() - started) * 1000)
                    assert answer.status_code == 200, answer.text

                await app.state.runtime.request_log.flush()
                kyc_written = _written() - written
                written = _written()
                started = time.perf_counter()
                upload = await http.post(
                    "/v3/fraud/bulk-scan/upload",
                    files={"file": ("loans.csv", _sheet(rows), "text/csv")},
                    data={"scan_type": "id"},
                    headers=headers,
                )
                assert upload.status_code == 202, upload.text
                bulk_id = upload.json()["data"]["bulk_id"]
                await _wait(
                    http,
                    f"/v3/fraud/bulk-scan/{bulk_id}?page_size=1",
                    headers,
                    lambda b: b["data"]["state"] in ("completed", "failed"),
                )
                bulk_s = time.perf_counter() - started
                await app.state.runtime.request_log.flush()
                bulk_written = _written() - written

                written = _written()
                started = time.perf_counter()
                asked = await http.post(
                    "/v3/privacy/subject-requests",
                    json={"type": "erasure", "subject": {"id_numbers": [SUBJECT]}},
                    headers=headers,
                )
                assert asked.status_code == 202, asked.text
                done = await _wait(
                    http,
                    f"/v3/privacy/subject-requests/{asked.json()['id']}",
                    headers,
                    lambda b: b["status"] != "queued",
                )
                erasure_s = time.perf_counter() - started
                erasure_written = _written() - written
                assert done["status"] == "completed", done
                fraud = next(c for c in done["receipt"] if c["category"] == "fraud")
                assert fraud["file_rows_removed"] == 1, fraud
        files = _sizes(folder)
    return {
        "kyc_median_ms": statistics.median(spent),
        "kyc_p90_ms": statistics.quantiles(spent, n=10)[-1],
        "kyc_written_mb": kyc_written / 1e6,
        "bulk_written_mb": bulk_written / 1e6,
        "erasure_written_mb": erasure_written / 1e6,
        "bulk_s": bulk_s,
        "erasure_s": erasure_s,
        "db_mb": files.get("hakiki.db", 0) / 1e6,
        "wal_mb": files.get("hakiki.db-wal", 0) / 1e6,
    }


async def main(calls: int, rows: int, rounds: int) -> None:
    results: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    for round_ in range(rounds):
        for secure in (True, False) if round_ % 2 == 0 else (False, True):
            found = await one_run(secure, calls, rows)
            results[secure].append(found)
            shown = "  ".join(f"{k} {v:.2f}" for k, v in found.items())
            print(f"round {round_ + 1} secure_delete={'ON ' if secure else 'OFF'} {shown}")
    for secure, runs in results.items():
        medians = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        shown = "  ".join(f"{k} {v:.2f}" for k, v in medians.items())
        print(f"median of {len(runs)} secure_delete={'ON ' if secure else 'OFF'} {shown}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    asyncio.run(main(options.calls, options.rows, options.rounds))
