"""Measure how fast Hakiki starts: `hakiki serve` until /healthz answers, `hakiki --version`,
and `hakiki screen NAME`, each on a warm start (the venv and the database exist; the bundled
lists), several runs, the median recorded.

    uv run --group dev python bench/startup.py              # 5 runs each
    uv run --group dev python bench/startup.py --runs 7 --label after

Python's bytecode caches are on, as on a user's machine after the first start (the warm-up run
writes them), even where PYTHONDONTWRITEBYTECODE is set; `--no-bytecode-cache` measures with
every module compiled at every start instead.

`serve` is measured as the server process's own CPU time (utime + stime from /proc/<pid>/stat)
at the moment /healthz first answers 200, and its wall time from launch to that moment. The
other two are wall times of the whole command (and its CPU time, from the children's rusage).
Results are appended to bench/results/startup.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "startup.json"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
READY_TIMEOUT = 180.0


def hakiki_command() -> list[str]:
    script = Path(sys.executable).with_name("hakiki")
    return [str(script)] if script.exists() else [sys.executable, "-m", "hakiki"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def process_cpu_seconds(pid: int) -> float:
    """utime + stime of one process, from /proc (the fields after the command's parenthesis)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def measure_serve(env: dict[str, str]) -> dict[str, float]:
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [*hakiki_command(), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/healthz"
        while not answers(url):
            if process.poll() is not None:
                raise RuntimeError(f"hakiki serve exited with {process.returncode}")
            if time.perf_counter() - started > READY_TIMEOUT:
                raise RuntimeError("hakiki serve did not answer in time")
            time.sleep(0.02)
        wall = time.perf_counter() - started
        cpu = process_cpu_seconds(process.pid)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return {"cpu_s": cpu, "wall_s": wall}


def measure_command(args: list[str], env: dict[str, str]) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [*hakiki_command(), *args], env=env, check=True, stdout=subprocess.DEVNULL, stdin=None
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu_s": cpu, "wall_s": wall}


def summarise(samples: list[dict[str, float]]) -> dict[str, Any]:
    return {
        "median_cpu_s": round(statistics.median(s["cpu_s"] for s in samples), 3),
        "median_wall_s": round(statistics.median(s["wall_s"] for s in samples), 3),
        "runs": [{k: round(v, 3) for k, v in s.items()} for s in samples],
    }


def busy_loop_seconds() -> float:
    """How loaded the machine is: the wall time of ten million additions (about 0.5 s idle)."""
    started = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return round(time.perf_counter() - started, 2)


def warm_up(env: dict[str, str]) -> None:
    """A first start: migrations, the demo organisation, any cache the server writes."""
    measure_serve(env)
    measure_command(["screen", "One Name"], env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--label", default="", help="e.g. before or after; stored with the run")
    parser.add_argument("--no-record", action="store_true", help="print only")
    parser.add_argument(
        "--no-bytecode-cache",
        dest="bytecode_cache",
        action="store_false",
        help="compile every module at every start (PYTHONDONTWRITEBYTECODE=1)",
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hakiki-startup-") as data_dir:
        env = {
            **os.environ,
            "HAKIKI_DATA_DIR": data_dir,
            "HAKIKI_JOBS_BACKEND": "embedded",
        }
        env.pop("HAKIKI_DATABASE_URL", None)
        if options.bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        warm_up(env)
        load_before = busy_loop_seconds()
        measured: dict[str, list[dict[str, float]]] = {"serve": [], "version": [], "screen": []}
        for _ in range(options.runs):  # interleaved, so a load spike touches each a little
            measured["serve"].append(measure_serve(env))
            measured["version"].append(measure_command(["--version"], env))
            measured["screen"].append(measure_command(["screen", "One Name"], env))
        load_after = busy_loop_seconds()
    record = {
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "label": options.label,
        "runs": options.runs,
        "bytecode_cache": options.bytecode_cache,
        "source": os.environ.get("PYTHONPATH") or "this checkout",
        "load_average": os.getloadavg()[0],
        "busy_loop_s": [load_before, load_after],
        "serve_until_healthz": summarise(measured["serve"]),
        "version": summarise(measured["version"]),
        "screen_one_name": summarise(measured["screen"]),
    }
    print(json.dumps(record, indent=2))
    if not options.no_record:
        history = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
        history.append(record)
        RESULTS.write_text(json.dumps(history, indent=2) + "\n")


if __name__ == "__main__":
    main()
