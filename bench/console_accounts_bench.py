"""The console's unauthenticated account pages in process (ASGI, SQLite, a local SMTP sink):

- a password-reset request for a user's address and for an unknown one: the time until the
  answer's last byte is handed to the server, and until the app is done (mail included);
- sign-ins with unknown addresses, eight at a time, while a probe measures how long the event
  loop goes without running it (the longest stall) and a /healthz sent 50 ms into each batch
  waits for its answer.

    uv run --group dev python bench/console_accounts_bench.py [--rounds 40] [--sign-ins 24]

Run it against another checkout's code with PYTHONPATH=<that checkout>/src. Results go to
bench/results/console_accounts.json (docs/benchmarks.md, "Console accounts").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hakiki.account import service as accounts  # noqa: E402
from hakiki.app import create_app  # noqa: E402
from hakiki.console import users  # noqa: E402
from hakiki.core.migrate import upgrade  # noqa: E402
from hakiki.core.settings import Settings  # noqa: E402

USER = "bench-user@lender.example"
PASSWORD = "correct horse battery staple"
UNLIMITED = "100000 per second"


class Sink:
    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.count += 1
        return "250 OK"


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


async def _post(app: Any, path: str, form: dict[str, str], cookie: str) -> tuple[float, float]:
    """(seconds to the answer's last byte, seconds until the app returned)."""
    body = urlencode(form).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"bench"),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
            (b"cookie", cookie.encode()),
        ],
        "client": ("10.1.1.1", 40000),
        "server": ("bench", 80),
    }
    done: dict[str, float] = {}
    given = False

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body"):
            done.setdefault("answered", time.perf_counter())

    start = time.perf_counter()
    await app(scope, receive, send)
    return done["answered"] - start, time.perf_counter() - start


async def resets(app: Any, http: httpx.AsyncClient, rounds: int) -> dict[str, Any]:
    await http.get("/console/reset")
    csrf = http.cookies["hakiki_console_reset"]
    cookie = f"hakiki_console_reset={csrf}"
    results: dict[str, Any] = {}
    for label, address in (("known", USER), ("unknown", "nobody@lender.example")):
        answered, finished = [], []
        for _ in range(rounds):
            a, f = await _post(app, "/console/reset", {"csrf": csrf, "email": address}, cookie)
            answered.append(a)
            finished.append(f)
        results[label] = {"answer": _ms(answered), "app_done": _ms(finished)}
    return results


async def sign_ins(http: httpx.AsyncClient, total: int, at_once: int = 8) -> dict[str, Any]:
    form = await http.get("/console/login")
    csrf = http.cookies["hakiki_console_login"]
    assert form.status_code == 200
    stalls: list[float] = []
    running = True

    async def probe() -> None:
        while running:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(time.perf_counter() - before - 0.001)

    async def one(n: int) -> None:
        data = {"csrf": csrf, "email": f"nobody-{n}@lender.example", "password": PASSWORD}
        jar = {"hakiki_console_login": csrf}  # a browser of its own: answers set new tokens
        async with httpx.AsyncClient(
            transport=http._transport, base_url="http://bench", cookies=jar
        ) as own:
            answer = await own.post("/console/login", data=data)
        assert answer.status_code == 401, answer.text

    probing = asyncio.create_task(probe())
    health = []
    start = time.perf_counter()
    for batch in range(0, total, at_once):
        flood = [asyncio.create_task(one(n)) for n in range(batch, batch + at_once)]
        # A /healthz that a client sends 50 ms into the flood: it waits as long as the loop
        # cannot take it (the sleep's overshoot) and then as long as it takes to answer.
        due = time.perf_counter() + 0.05
        await asyncio.sleep(0.05)
        assert (await http.get("/healthz")).status_code == 200
        health.append(time.perf_counter() - due)
        await asyncio.gather(*flood)
    elapsed = time.perf_counter() - start
    running = False
    await probing
    return {
        "sign_ins": total,
        "at_once": at_once,
        "seconds": round(elapsed, 2),
        "longest_loop_stall_ms": round(max(stalls) * 1000, 1),
        "healthz_during_sign_ins": _ms(health),
    }


async def main(options: argparse.Namespace) -> dict[str, Any]:
    sink = Sink()
    with socket.socket() as probe:  # a free port (aiosmtpd checks the one it is given)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = Controller(sink, hostname="127.0.0.1", port=port)
    smtp.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            limits = {
                name: UNLIMITED
                for name in Settings.model_fields
                if name.startswith("console_") and "_limit_" in name
            }
            settings = Settings(
                data_dir=Path(tmp),
                secret_key="b" * 64,
                smtp_host="127.0.0.1",
                smtp_port=port,
                smtp_starttls=False,
                console_base_url="http://bench",
                **limits,
            )
            await asyncio.to_thread(upgrade, settings)
            app = create_app(settings)
            async with app.router.lifespan_context(app):
                runtime = app.state.runtime
                org = await accounts.create_org(runtime.db, "bench", approved=True)
                await users.create_user(
                    runtime.db,
                    runtime.vault,
                    org_id=org.id,
                    email=USER,
                    role="owner",
                    password=PASSWORD,
                )
                transport = httpx.ASGITransport(app=app, client=("10.2.2.2", 40000))
                async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
                    reset = await resets(app, http, options.rounds)
                    login = await sign_ins(http, options.sign_ins)
    finally:
        smtp.stop()
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "reset_request": reset,
        "mails_sent": sink.count,
        "unknown_sign_ins": login,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--sign-ins", type=int, default=24)
    parser.add_argument("--out", default=str(ROOT / "bench/results/console_accounts.json"))
    options = parser.parse_args()
    result = asyncio.run(main(options))
    text = json.dumps(result, indent=2)
    print(text)
    Path(options.out).write_text(text + "\n")
