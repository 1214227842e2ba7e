"""Where a request's time goes outside the app: the loop's stalls, the time inside the app,
and when each connection was accepted and first served.

    uv run --group dev python bench/loop_stall_probe.py [--mode sandbox|live]
        [--database sqlite|postgresql] [--loop uvloop|asyncio] [--duration 15]
        [--connections 64] [--threshold-ms 20]

One Hakiki server runs in this process on core 0 (uvicorn with httptools, as in
bench/http_bench.py) with additions that change nothing in the app:

- a heartbeat task that stamps the time every 2 ms, and a watchdog thread that, whenever the
  stamp is older than the threshold, takes the loop thread's Python stack every 2 ms;
- the garbage collector's pauses (``gc.callbacks``);
- each call's time inside the ASGI app, and per connection the time it was accepted
  (``connection_made``), its first call, and the gaps between its calls.

`wrk` on core 1 drives the combined screening (or ``--endpoint``). What this found is in
docs/benchmarks.md (the sandbox tail, named): with uvloop, a burst of new connections is
accepted one per loop turn, so under load the last of wrk's 64 connections waited about a
second for its first answer, which wrk's latency correction turned into the p99.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.identity.providers.fake_prembly import BVN_FOUND, run_fake_prembly  # noqa: E402

from bench.http_bench import SECRET, free_port, hakiki_env, prepare, verified, wrk  # noqa: E402

BEAT_SECONDS = 0.002


class Watchdog:
    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.last_beat = time.perf_counter()
        self.loop_thread = threading.get_ident()
        self.stacks: Counter[str] = Counter()
        self.stalls: list[float] = []
        self.gc_pauses: Counter[int] = Counter()
        self.gc_time: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.0}
        self._gc_started = 0.0
        self._stop = threading.Event()
        self.recording = False
        self.server: Any = None
        self.threads: list[str] = []
        self.app_times: list[float] = []
        self.connected: dict[int, float] = {}
        self.events: list[tuple[float, float, int]] = []

    async def heartbeat(self) -> None:
        while True:
            self.last_beat = time.perf_counter()
            await asyncio.sleep(BEAT_SECONDS)

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self.recording:
            generation = int(info["generation"])
            pause = time.perf_counter() - self._gc_started
            self.gc_time[generation] += pause
            if pause > self.threshold:
                self.gc_pauses[generation] += 1

    def run(self) -> None:
        stalled_since: float | None = None
        while not self._stop.wait(BEAT_SECONDS):
            now = time.perf_counter()
            late = now - self.last_beat
            if late > self.threshold and self.recording:
                if stalled_since is None:
                    stalled_since = self.last_beat
                frame = sys._current_frames().get(self.loop_thread)
                if frame is not None:
                    self.stacks[_stack(frame)] += 1
            elif stalled_since is not None:
                self.stalls.append(self.last_beat - stalled_since)
                stalled_since = None

    def stop(self) -> None:
        self._stop.set()


def _stack(frame: Any) -> str:
    lines = []
    for summary in traceback.extract_stack(frame)[-14:]:
        where = summary.filename
        for marker in ("site-packages/", "src/", "lib/python3.11/"):
            if marker in where:
                where = where.split(marker, 1)[1]
        lines.append(f"  {where}:{summary.lineno} {summary.name}")
    return "\n".join(lines)


def serve(
    port: int, env: dict[str, str], watchdog: Watchdog, ready: threading.Event, loop: str
) -> None:
    import uvicorn
    import uvloop

    os.environ.update(env)
    from hakiki.app import create_app

    inner = create_app()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        started = time.perf_counter()
        await inner(scope, receive, send)
        if watchdog.recording and scope["type"] == "http":
            watchdog.app_times.append(time.perf_counter() - started)
        if scope["type"] == "http":
            watchdog.events.append((started, time.perf_counter(), scope["client"][1]))

    config = uvicorn.Config(
        app, port=port, log_level="warning", access_log=False, loop="uvloop", http="httptools"
    )
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    made = HttpToolsProtocol.connection_made

    def connection_made(self: Any, transport: Any) -> None:
        watchdog.connected[transport.get_extra_info("peername")[1]] = time.perf_counter()
        made(self, transport)

    HttpToolsProtocol.connection_made = connection_made  # type: ignore[method-assign]
    server = uvicorn.Server(config)
    watchdog.server = server

    async def main() -> None:
        beat = asyncio.create_task(watchdog.heartbeat())
        serving = asyncio.create_task(server.serve())
        while not server.started:  # noqa: ASYNC110  (uvicorn offers no event for it)
            await asyncio.sleep(0.05)
        ready.set()
        watchdog.threads = [t.name for t in threading.enumerate()]
        await serving
        beat.cancel()

    if loop == "uvloop":
        uvloop.run(main())
    else:
        asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=["sandbox", "live"], default="sandbox")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threshold-ms", type=float, default=20.0)
    parser.add_argument("--loop", choices=["uvloop", "asyncio"], default="uvloop")
    parser.add_argument("--switch-interval-ms", type=float, default=None)
    parser.add_argument("--endpoint", default="/v3/screening/aml-with-id")
    options = parser.parse_args()

    os.sched_setaffinity(0, {0})
    if options.switch_interval_ms:
        sys.setswitchinterval(options.switch_interval_ms / 1000)
    import asyncio as _asyncio

    from hakiki.core.migrate import upgrade
    from hakiki.core.settings import Settings

    with run_fake_prembly() as fake, tempfile.TemporaryDirectory() as tmp:
        db_url = (
            os.environ.get("HAKIKI_TEST_POSTGRES_URL") if options.database == "postgresql" else None
        )
        settings = Settings(data_dir=Path(tmp), database_url=db_url, secret_key=SECRET)
        upgrade(settings)
        sandbox_headers, live_headers = _asyncio.run(prepare(settings))
        env = hakiki_env(Path(tmp), fake, db_url)
        watchdog = Watchdog(options.threshold_ms / 1000)
        gc.callbacks.append(watchdog.on_gc)
        port = free_port()
        ready = threading.Event()
        # The server (and its loop) run on the main thread; the load and the report on another.
        results: dict[str, Any] = {}

        def drive() -> None:
            ready.wait()
            time.sleep(5)
            url = f"http://127.0.0.1:{port}{options.endpoint}"
            headers = sandbox_headers if options.mode == "sandbox" else live_headers
            number = "22212345670" if options.mode == "sandbox" else BVN_FOUND
            body: dict[str, Any] = {"channel": "bvn", "number": number}
            if "pep-and-sanction" in options.endpoint:
                body = {"name": "Grace Wanjiru Kamau", "birth_date": "1990", "countries": ["KE"]}
            else:
                verified(url, number, headers)
            watchdog.recording = False
            # wrk runs its own 5 s warm-up; the watchdog records only the measured run.
            timer = threading.Timer(5.5, lambda: setattr(watchdog, "recording", True))
            timer.start()
            results["wrk"] = wrk(url, body, headers, options.duration, options.connections)
            watchdog.recording = False
            watchdog.server.should_exit = True

        threading.Thread(target=watchdog.run, daemon=True).start()
        threading.Thread(target=drive, daemon=True).start()
        # Watchdog's notion of the loop thread: this (main) thread runs the loop.
        watchdog.loop_thread = threading.get_ident()
        serve(port, env, watchdog, ready, options.loop)

    report(watchdog, results.get("wrk"), options)


def report(watchdog: Watchdog, run: dict[str, Any] | None, options: argparse.Namespace) -> None:
    stalls = sorted(watchdog.stalls)
    print(f"\nwrk: {run}")
    print("threads:", watchdog.threads)
    print(f"stalls over {options.threshold_ms:.0f} ms: {len(stalls)} in {options.duration} s")
    if stalls:
        print(
            f"  longest {stalls[-1] * 1000:.0f} ms, median {stalls[len(stalls) // 2] * 1000:.0f}"
            f" ms, total {sum(stalls):.2f} s"
        )
    print(
        "gc pauses over the threshold by generation:",
        dict(watchdog.gc_pauses),
        "; gc time by generation (s):",
        {k: round(v, 2) for k, v in watchdog.gc_time.items()},
    )
    times = sorted(watchdog.app_times)
    if times:
        at = {  # percentiles, ms
            q: round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 1)
            for q in (0.5, 0.9, 0.99, 0.999)
        }
        print(f"time inside the app, {len(times)} calls: {at}, max {times[-1] * 1000:.0f} ms")
    _gaps(watchdog)
    total = sum(watchdog.stacks.values()) or 1
    print(f"\nstacks during stalls ({total} samples), most frequent first:")
    for stack, count in watchdog.stacks.most_common(12):
        print(f"\n{count} samples ({count / total:.0%}):\n{stack}")


def _gaps(watchdog: Watchdog) -> None:
    """Per connection, the time from one call's end to the next call's start: the client's
    round trip plus everything outside the app. Where the long ones fall in time."""
    by_port: dict[int, list[tuple[float, float]]] = {}
    for start, end, port in watchdog.events:
        by_port.setdefault(port, []).append((start, end))
    t0 = min(e[0] for e in watchdog.events)
    long = []
    for port, calls in by_port.items():
        calls.sort()
        for index in range(1, len(calls)):
            gap = calls[index][0] - calls[index - 1][1]
            if gap > 0.1:
                long.append((calls[index][0] - t0, gap, port, index))
    print(f"{len(by_port)} connections; gaps over 100 ms: {len(long)}")
    for at, gap, port, index in sorted(long)[:40]:
        print(f"  at {at:7.2f} s  gap {gap * 1000:6.0f} ms  port {port} call #{index}")
    firsts = sorted(
        (round(watchdog.connected.get(port, 0) - t0, 2), round(calls[0][0] - t0, 2))
        for port, calls in by_port.items()
    )
    print("(accepted at, first call at) s:", firsts[::4])


if __name__ == "__main__":
    main()
