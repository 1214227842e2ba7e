"""Hostile statement PDFs against the upload and the analysis job, through the API in this
process on SQLite (the job worker in it too): the peak memory of this process and of every
process under it, how long an upload takes to be answered, and how long a small upload waits
behind a large analysis of another organisation.

    uv run --group dev python bench/statement_pdf_limits.py chained     # 1.2 MB [/ASCIIHex /Flate]
    uv run --group dev python bench/statement_pdf_limits.py encrypted   # 1.5 MB, RC4, password sent
    uv run --group dev python bench/statement_pdf_limits.py xref        # 117 bytes, 10^8 entries
    uv run --group dev python bench/statement_pdf_limits.py behind      # 5 KB behind 836 pages

Each case is one run of the script (a fresh process: the peak is its own)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from tests.statements import documents as d  # noqa: E402
from tests.statements import hostile  # noqa: E402

from hakiki.account import service as accounts  # noqa: E402
from hakiki.app import create_app  # noqa: E402
from hakiki.core.migrate import upgrade_async  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402

# The subject's consent, required with every statement (docs/privacy.md#consent).
CONSENT = (
    '{"obtained_at": "2026-11-20T09:14:00Z", "method": "checkbox", "notice_version": "bench",'
    ' "purposes": ["statement_analysis"], "language": "en"}'
)

PASSWORD = "12345678"


def tree_rss() -> tuple[int, int]:
    """Resident bytes of this process, and of it with its descendants (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        parents[int(entry)] = int(fields["PPid"])
        rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return rss.get(os.getpid(), 0), sum(rss.get(pid, 0) for pid in mine)


class Peak:
    def __init__(self) -> None:
        self.start = tree_rss()
        self.value = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.02):
            now = tree_rss()
            self.value = (max(self.value[0], now[0]), max(self.value[1], now[1]))

    def stop(self) -> tuple[int, int]:
        self._stop.set()
        self._thread.join()
        return self.value


async def upload(http: httpx.AsyncClient, headers: dict, data: bytes, **form: str) -> tuple:
    started = time.perf_counter()
    response = await http.post(
        "/v3/statements/analyze",
        files={"file": ("s.pdf", data, "application/pdf")},
        data={"statement_type": "auto", "consent": CONSENT, **form},
        headers=headers,
    )
    return response, time.perf_counter() - started


async def wait_done(http: httpx.AsyncClient, headers: dict, analysis_id: str) -> dict:
    while True:
        answer: dict = (await http.get(f"/v3/statements/{analysis_id}", headers=headers)).json()
        if not answer["async_pending"]:
            body: dict = answer["data"]
            return body
        await asyncio.sleep(0.2)


async def run(case: str, limit: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), secret_key="b" * 64)
        await upgrade_async(settings)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            db = app.state.runtime.db
            keys = []
            for name in ("org-a", "org-b"):
                await accounts.create_org(db, name, approved=True, currency="KES")
                key = await accounts.create_key(db, name, "sandbox", None)
                keys.append({"Authorization": f"Bearer {key.client_id}:{key.secret}"})
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://hakiki.test", timeout=limit
            ) as http:
                await upload(http, keys[0], d.mpesa_pdf(d.mpesa_rows(10)))  # warm up
                if case == "behind":
                    await behind(http, keys)
                    return
                data = {
                    "chained": lambda: hostile.chained_bomb(600 * 2**20),
                    "encrypted": lambda: hostile.encrypted_bomb(1500 * 2**20, PASSWORD),
                    "xref": hostile.xref_bomb,
                }[case]()
                form = {"password": PASSWORD} if case == "encrypted" else {}
                peak = Peak()
                started = time.perf_counter()
                try:
                    response, _ = await asyncio.wait_for(upload(http, keys[0], data, **form), limit)
                    answer = f"{response.status_code} {response.text[:160]}"
                    if response.status_code == 202:
                        done = await wait_done(http, keys[0], response.json()["reference"])
                        answer += f" -> job {done['state']} {done['failure_code']}"
                except TimeoutError:
                    answer = f"no answer within {limit:.0f} s"
                took = time.perf_counter() - started
                top = peak.stop()
                print(
                    f"{case}: {len(data):,} bytes; answered in {took:.2f} s: {answer}\n"
                    f"  peak RSS: the server process {top[0] / 2**20:,.0f} MB (from "
                    f"{peak.start[0] / 2**20:,.0f} MB); with its children "
                    f"{top[1] / 2**20:,.0f} MB (from {peak.start[1] / 2**20:,.0f} MB)"
                )


async def behind(http: httpx.AsyncClient, keys: list[dict]) -> None:
    rows = d.mpesa_rows(40_000, 12, seed=1)  # about 836 pages with their charge rows
    big = d.mpesa_pdf(rows)
    small = d.mpesa_pdf(d.mpesa_rows(20))
    response, _ = await upload(http, keys[0], big)
    assert response.status_code == 202, response.text
    analysis_id = response.json()["reference"]
    for _ in range(2000):  # until the job runs
        state = await http.get(f"/v3/statements/{analysis_id}", headers=keys[0])
        if state.json()["data"]["state"] == "processing":
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    answered, took = await upload(http, keys[1], small)
    done = await wait_done(http, keys[0], analysis_id)
    print(
        f"behind: {len(big) / 1e6:.2f} MB, {len(rows):,} rows analysis {done['state']} "
        f"{done['failure_code'] or ''}; "
        f"another organisation's {len(small) / 1e3:.0f} KB upload answered "
        f"{answered.status_code} in {took:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("case", choices=["chained", "encrypted", "xref", "behind"])
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    asyncio.run(run(args.case, args.timeout))


if __name__ == "__main__":
    main()
