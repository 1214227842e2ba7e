"""An organisation watchlist of up to a million rows through the API, end to end, in process.

A synthetic watchlist CSV (the persons and organisations of bench/screening_scale.py: name
parts of the bundled lists and rigour's names, aliases, dates of birth, countries) is written
to disk, then sent to ``POST /v3/screening/watchlists`` of an app on a fresh SQLite data folder
as a streamed body (1 MiB at a time, as curl sends a file), with a sandbox key. The job builds
it in this process (the embedded worker). Reported:

* upload: seconds, the process's RSS before and at its peak while the body streamed in;
* build: seconds from the 202 to ``ready`` (the job's progress samples on the way), peak RSS;
* the first screening (the sealed index read and decrypted into memory) and RSS after it;
* screenings of the owner (planted positives: a listed person with one typo and the date of
  birth; recall at threshold 0.8) and of another organisation without a watchlist, before and
  after the upload: p50/p99 wall milliseconds (the sandbox's own lists are tiny, so the owner's
  figures are the watchlist's cost).

    uv run --frozen --group dev python bench/watchlist_scale.py --rows 100000
    uv run --frozen --group dev python bench/watchlist_scale.py --rows 1000000 --planted 300
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.screening_scale import NamePool, rss_mb, synthetic_entities, typo_name  # noqa: E402
from hakiki.account import service as accounts  # noqa: E402
from hakiki.app import create_app  # noqa: E402
from hakiki.core.migrate import upgrade  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402
from hakiki.engines.screening.bundled import load_bundled_snapshots  # noqa: E402

URL = "/v3/screening/watchlists"


def write_csv(path: Path, rows: int, planted: int, seed: int) -> list[dict[str, str]]:
    """The watchlist file; a sample of its persons to screen back (with a typo)."""
    pool = NamePool(load_bundled_snapshots())
    rnd = random.Random(seed + 1)
    chosen = set(rnd.sample(range(rows), min(rows, planted * 3)))
    sample: list[dict[str, str]] = []
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "name", "schema", "aliases", "birth_date", "countries"])
        for k, entity in enumerate(synthetic_entities(rows, pool, seed)):
            schema = "person" if entity.schema == "Person" else "organization"
            aliases = ";".join(n.name for n in entity.names[1:])
            births = ";".join(entity.birth_dates)
            primary = entity.names[0].name
            out.writerow([f"C{k}", primary, schema, aliases, births, ";".join(entity.countries)])
            if k in chosen and schema == "person" and births and len(sample) < planted:
                sample.append({"id": f"C{k}", "name": primary, "birth_date": births.split(";")[0]})
    return sample


async def streamed(path: Path) -> AsyncIterator[bytes]:
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            yield chunk


class PeakRss:
    """The process's RSS sampled every 50 ms in a thread while the block runs."""

    def __init__(self) -> None:
        self.peak = rss_mb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, rss_mb())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb())


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
    }


async def screen_all(
    http: httpx.AsyncClient, headers: dict[str, str], subjects: list[dict[str, str]]
) -> tuple[list[float], list[dict[str, Any]]]:
    times: list[float] = []
    answers: list[dict[str, Any]] = []
    for subject in subjects:
        start = time.perf_counter()
        response = await http.post("/v3/screening/individual", json=subject, headers=headers)
        times.append(time.perf_counter() - start)
        response.raise_for_status()
        answers.append(response.json())
    return times, answers


async def run(rows: int, planted: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "watchlist.csv"
        started = time.perf_counter()
        sample = write_csv(source, rows, planted, seed)
        generated = time.perf_counter() - started
        rnd = random.Random(seed + 2)
        queries = [
            {"name": typo_name(s["name"], rnd), "birth_date": s["birth_date"]} for s in sample
        ]
        settings = Settings(
            data_dir=folder / "data", secret_key="b" * 64, rate_limit="100000/second"
        )
        await asyncio.to_thread(upgrade, settings)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            db = app.state.runtime.db
            keys = {}
            for name in ("owner", "other"):
                await accounts.create_org(db, name, approved=True)
                key = await accounts.create_key(db, name, "sandbox", None)
                keys[name] = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
            transport = httpx.ASGITransport(app=app)
            timeout = httpx.Timeout(3600)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://bench", timeout=timeout
            ) as http:
                await screen_all(http, keys["other"], queries[:20])  # warm up
                other_before, _ = await screen_all(http, keys["other"], queries)
                rss_start = rss_mb()
                with PeakRss() as upload_rss:
                    start = time.perf_counter()
                    response = await http.post(
                        URL,
                        params={"name": "bench"},
                        content=streamed(source),
                        headers={**keys["owner"], "Content-Type": "text/csv"},
                    )
                    upload_s = time.perf_counter() - start
                assert response.status_code == 202, response.text
                watchlist_id = response.json()["id"]
                progress: list[tuple[float, int]] = []
                with PeakRss() as build_rss:
                    start = time.perf_counter()
                    while True:
                        found = (
                            await http.get(f"{URL}/{watchlist_id}", headers=keys["owner"])
                        ).json()
                        progress.append((round(time.perf_counter() - start, 1), found["rows_read"]))
                        if found["status"] in ("ready", "failed"):
                            break
                        await asyncio.sleep(0.5)
                    build_s = time.perf_counter() - start
                assert found["status"] == "ready", found
                rss_built = rss_mb()
                start = time.perf_counter()
                await screen_all(http, keys["owner"], queries[:1])
                first_s = time.perf_counter() - start
                rss_loaded = rss_mb()
                owner_times, answers = await screen_all(http, keys["owner"], queries)
                other_after, _ = await screen_all(http, keys["other"], queries)
        hits = sum(
            any(
                h["list_code"] == watchlist_id and h["entity_id"] == s["id"]
                for h in a["data"]["aml"]["hits"]
            )
            for s, a in zip(sample, answers, strict=True)
        )
        return {
            "rows": rows,
            "file_mb": round(source.stat().st_size / 2**20, 1),
            "generate_s": round(generated, 1),
            "upload_s": round(upload_s, 1),
            "rss_before_upload_mb": round(rss_start),
            "rss_peak_upload_mb": round(upload_rss.peak),
            "build_s": round(build_s, 1),
            "rss_peak_build_mb": round(build_rss.peak),
            "rss_after_build_mb": round(rss_built),
            "accepted": found["rows_accepted"],
            "refused": found["rows_refused"],
            "progress": progress[:: max(1, len(progress) // 8)],
            "first_screening_s": round(first_s, 2),
            "rss_index_loaded_mb": round(rss_loaded),
            "owner": percentiles(owner_times),
            "recall": f"{hits}/{len(sample)}",
            "other_tenant_before": percentiles(other_before),
            "other_tenant_after": percentiles(other_after),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--planted", type=int, default=200)
    parser.add_argument("--seed", type=int, default=33)
    options = parser.parse_args()
    print(json.dumps(asyncio.run(run(options.rows, options.planted, options.seed)), indent=1))


if __name__ == "__main__":
    main()
