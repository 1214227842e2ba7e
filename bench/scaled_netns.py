"""Scaled mode across network namespaces: three API processes and two job workers on one
PostgreSQL, one wallet, the load spread over the three; then the money is checked.

    sudo uv run --group dev python bench/scaled_netns.py [--duration 20] [--connections 16]
        [--requests N]

Root only (``ip netns``). Each process runs in a namespace of its own, made by the run: a veth
pair per namespace, 10.213.<k>.2 inside and 10.213.<k>.1 on the host side, a /24 that exists
only between the two ends. PostgreSQL and Redis listen on the host's loopback, so a forwarder
process in the root namespace listens on each host-side address and relays to 127.0.0.1; the
same process serves the fake Prembly upstream (tests/identity/providers/fake_prembly.py). No
other address is ever used. Everything made is removed on exit, Ctrl-C and errors included.

The load generator is an asyncio HTTP/1.1 client with keep-alive connections spread over the
three servers, bounded in time and requests; every request carries its own Idempotency-Key,
every eighth repeats the key of an earlier request of the same connection (a client retry).
Because the client waits for every answer it sent, it knows each outcome exactly: the check is
debits == fresh 200s with ``billing.charged`` (replays excluded), one debit per request id,
balance == credits + debits, nothing reserved. Keys answered by one server are then replayed on
the two others: each is a replay, no new debit. The ceiling (bench/ceiling_app.py) is measured
with the same client from the same namespaces in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POSTGRES_URL = os.environ.get(
    "HAKIKI_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("HAKIKI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
SECRET = "bench-secret-key-0123456789abcdef0123456789"
API_PORT = 8000
UPSTREAM_PORT = 18080
SERVERS = 3
WORKERS = 2
PATH = "/v3/screening/aml-with-id"
STARTED = "Application startup complete"
RESULT = ROOT / "bench" / "results" / "scaled_netns.json"


class Refused(SystemExit):
    pass


def preconditions() -> None:
    if os.geteuid() != 0:
        raise Refused("bench/scaled_netns.py makes network namespaces: run it as root")
    if not shutil.which("ip"):
        raise Refused("`ip` (iproute2) is needed: apt-get install iproute2")


def sh(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, text=True)


@dataclass
class Namespace:
    name: str
    host_ip: str
    inner_ip: str
    host_end: str


@dataclass
class Net:
    """The namespaces of one run; :meth:`close` removes them (and their veth pairs)."""

    tag: str = field(default_factory=lambda: secrets.token_hex(2))
    spaces: list[Namespace] = field(default_factory=list)

    def make(self, count: int) -> None:
        used = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True).stdout
        base = int(self.tag, 16) % 200
        for n in range(count):
            octet = (base + n) % 250 + 1
            if f"10.213.{octet}." in used:
                raise RuntimeError(f"10.213.{octet}.0/24 is already in use on this host")
            host_end, inner_end = f"hk{self.tag}h{n}", f"hk{self.tag}n{n}"
            space = Namespace(
                f"hk{self.tag}-{n}", f"10.213.{octet}.1", f"10.213.{octet}.2", host_end
            )
            sh("ip", "netns", "add", space.name)
            self.spaces.append(space)
            sh("ip", "link", "add", host_end, "type", "veth", "peer", "name", inner_end)
            sh("ip", "link", "set", inner_end, "netns", space.name)
            sh("ip", "addr", "add", f"{space.host_ip}/24", "dev", host_end)
            sh("ip", "link", "set", host_end, "up")
            inside = ["ip", "netns", "exec", space.name, "ip"]
            sh(*inside, "addr", "add", f"{space.inner_ip}/24", "dev", inner_end)
            sh(*inside, "link", "set", inner_end, "up")
            sh(*inside, "link", "set", "lo", "up")

    def close(self) -> None:
        for space in self.spaces:
            # Deleting the namespace deletes its veth end, and with it the host end; the host
            # end is deleted by name too in case the run stopped before moving its peer.
            subprocess.run(["ip", "netns", "del", space.name], capture_output=True)
            subprocess.run(["ip", "link", "del", space.host_end], capture_output=True)
        self.spaces.clear()


# --- the forwarder and fake upstream (a process of its own in the root namespace) -------------


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def _forward(listen: list[str], targets: dict[int, tuple[str, int]]) -> None:
    async def relay(port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*targets[port])
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    servers = []
    for host in listen:
        for port in targets:
            servers.append(
                await asyncio.start_server(partial(relay, port), host, port, reuse_address=True)
            )
    print("READY", flush=True)
    await asyncio.Event().wait()


def serve_upstream(listen: list[str], pg_port: int) -> None:
    from tests.identity.providers.fake_prembly import run_fake_prembly

    with run_fake_prembly() as fake:
        port = int(fake.base_url.rsplit(":", 1)[1])
        print(json.dumps({"app_id": fake.app_id, "api_key": fake.api_key}), flush=True)
        redis = urlsplit(REDIS_URL)
        targets = {
            5432: ("127.0.0.1", pg_port),
            6379: ("127.0.0.1", redis.port or 6379),
            UPSTREAM_PORT: ("127.0.0.1", port),
        }
        asyncio.run(_forward(listen, targets))


# --- processes --------------------------------------------------------------------------------


@dataclass
class Processes:
    running: list[subprocess.Popen[str]] = field(default_factory=list)

    def start(self, command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[str]:
        with log.open("w") as out:
            process = subprocess.Popen(
                command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, text=True
            )
        self.running.append(process)
        return process

    def close(self) -> None:
        for process in self.running:
            if process.poll() is None:
                process.terminate()
        for process in self.running:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.running.clear()


def wait_for(log: Path, text: str, process: subprocess.Popen[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{process.args!r} did not print {text!r}:\n{tail}")
        time.sleep(0.2)


# --- the load generator -----------------------------------------------------------------------


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    fresh_charged: int = 0
    replayed: int = 0
    latencies: list[float] = field(default_factory=list)
    answered_keys: dict[str, list[str]] = field(default_factory=dict)  # server -> keys


async def _call(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, dict[str, str], bytes]:
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body


def _request(host: str, path: str, body: bytes, headers: dict[str, str]) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}", "Content-Type: application/json"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def load(
    hosts: list[str],
    path: str,
    body: dict[str, Any],
    headers: dict[str, str],
    *,
    duration: float,
    connections: int,
    max_requests: int,
    run: str,
    keys: bool = True,
) -> tuple[Tally, float]:
    """``connections`` per server; stops sending at ``duration`` or ``max_requests``, then
    waits for every answer, so every request sent has a known outcome."""
    tally = Tally()
    payload = json.dumps(body).encode()
    sent = 0
    keys_on = keys
    stop_at = time.monotonic() + duration

    async def connection(host: str, number: int) -> None:
        nonlocal sent
        reader, writer = await asyncio.open_connection(host, API_PORT)
        keys: list[str] = []
        keyed = keys_on
        try:
            while time.monotonic() < stop_at and sent < max_requests:
                sent += 1
                n = len(keys)
                retry = keyed and n >= 8 and n % 8 == 0
                key = keys[n - 4] if retry else f"{run}-{host}-{number}-{n}"
                keys.append(key)
                extra = {"Idempotency-Key": key} if keyed else {}
                request = _request(host, path, payload, {**headers, **extra})
                began = time.perf_counter()
                status, answer_headers, answer = await _call(reader, writer, request)
                tally.latencies.append(time.perf_counter() - began)
                tally.statuses[status] += 1
                if status != 200:
                    continue
                if answer_headers.get("idempotent-replayed") == "true":
                    tally.replayed += 1
                elif json.loads(answer).get("billing", {}).get("charged"):
                    tally.fresh_charged += 1
                    if keyed:
                        tally.answered_keys.setdefault(host, []).append(key)
        finally:
            writer.close()

    began = time.monotonic()
    await asyncio.gather(
        *(connection(host, number) for host in hosts for number in range(connections))
    )
    return tally, time.monotonic() - began


def summary(tally: Tally, seconds: float) -> dict[str, Any]:
    latencies = sorted(tally.latencies)

    def pct(p: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * p))] * 1000, 2)

    return {
        "requests": len(latencies),
        "rps": round(len(latencies) / seconds),
        "p50_ms": pct(0.5),
        "p90_ms": pct(0.9),
        "p99_ms": pct(0.99),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
    }


async def replay_elsewhere(
    tally: Tally, hosts: list[str], body: dict[str, Any], headers: dict[str, str], per_host: int
) -> Counter[str]:
    """Keys charged through one server, sent again to the two others: replays, not charges."""
    outcome: Counter[str] = Counter()
    payload = json.dumps(body).encode()
    for origin, keys in tally.answered_keys.items():
        for key in keys[:per_host]:
            for host in hosts:
                if host == origin:
                    continue
                reader, writer = await asyncio.open_connection(host, API_PORT)
                request = _request(host, PATH, payload, {**headers, "Idempotency-Key": key})
                status, answer_headers, _ = await _call(reader, writer, request)
                writer.close()
                replayed = answer_headers.get("idempotent-replayed") == "true"
                outcome["replayed" if status == 200 and replayed else f"other_{status}"] += 1
    return outcome


# --- the database -----------------------------------------------------------------------------


async def fresh_database(base_url: str, name: str) -> str:
    from sqlalchemy import make_url, text
    from sqlalchemy.ext.asyncio import create_async_engine

    base = make_url(base_url)
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


async def drop_database(base_url: str, name: str) -> None:
    from sqlalchemy import make_url, text
    from sqlalchemy.ext.asyncio import create_async_engine

    admin = create_async_engine(make_url(base_url), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    await admin.dispose()


async def prepare(settings: Any, float_minor: int) -> tuple[str, dict[str, str]]:
    from hakiki.account import service as accounts
    from hakiki.core.database import create_database
    from hakiki.core.wallet import service as wallet

    db = create_database(settings)
    org = await accounts.create_org(db, "Scaled Netns Lending", approved=True)
    key = await accounts.create_key(db, "Scaled Netns Lending", "live")
    await wallet.credit(db, org.id, float_minor, "benchmark float")
    await db.dispose()
    return org.id, {"Authorization": f"Bearer {key.client_id}:{key.secret}"}


async def ledger(settings: Any, org_id: str) -> dict[str, int]:
    from sqlalchemy import func, select

    from hakiki.core.database import create_database, read
    from hakiki.core.tables import wallet_transactions as tx
    from hakiki.core.tables import wallets

    db = create_database(settings)
    async with read(db) as conn:
        wallet = (await conn.execute(select(wallets).where(wallets.c.org_id == org_id))).one()
        rows = (
            await conn.execute(
                select(
                    tx.c.kind,
                    func.count(),
                    func.coalesce(func.sum(tx.c.amount), 0),
                    func.count(func.distinct(tx.c.request_id)),
                )
                .where(tx.c.org_id == org_id)
                .group_by(tx.c.kind)
            )
        ).all()
    await db.dispose()
    kinds = {kind: (count, total, distinct) for kind, count, total, distinct in rows}
    debit = kinds.get("debit", (0, 0, 0))
    return {
        "balance": int(wallet.balance),
        "reserved": int(wallet.reserved),
        "credits": int(kinds.get("credit", (0, 0, 0))[1]),
        "debits": int(debit[0]),
        "debited": int(debit[1]),
        "debit_request_ids": int(debit[2]),
        "reversed": int(kinds.get("reversal", (0, 0, 0))[1]),
    }


def money_check(book: dict[str, int], tally: Tally, replays: Counter[str]) -> dict[str, bool]:
    return {
        "balance_is_credits_minus_debits": book["balance"]
        == book["credits"] + book["debited"] + book["reversed"],
        "nothing_reserved": book["reserved"] == 0,
        "one_debit_per_charged_answer": book["debits"] == tally.fresh_charged,
        "one_debit_per_request_id": book["debit_request_ids"] == book["debits"],
        "no_reversals": book["reversed"] == 0,
        "replays_elsewhere_not_charged": set(replays) <= {"replayed"},
        "no_server_errors": not any(status >= 500 for status in tally.statuses),
    }


# --- the run ----------------------------------------------------------------------------------


BEGAN = time.monotonic()


def progress(text: str) -> None:
    print(f"[{time.monotonic() - BEGAN:5.1f} s] {text}", file=sys.stderr, flush=True)


def load_average() -> float:
    return os.getloadavg()[0]


def run(
    duration: float,
    connections: int,
    max_requests: int,
    replays: int,
    *,
    ceiling_too: bool,
    keys: bool,
) -> dict[str, Any]:
    from sqlalchemy import make_url
    from tests.identity.providers.fake_prembly import BVN_FOUND

    from hakiki.core.migrate import upgrade

    preconditions()
    base = make_url(POSTGRES_URL)
    if base.host not in ("127.0.0.1", "localhost") or urlsplit(REDIS_URL).hostname not in (
        "127.0.0.1",
        "localhost",
    ):
        raise Refused("HAKIKI_TEST_POSTGRES_URL and HAKIKI_TEST_REDIS_URL must be on loopback")
    tag = secrets.token_hex(2)
    db_name = f"{base.database}_netns_{tag}"
    load_before = load_average()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    net = Net(tag=tag)
    processes = Processes()
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        url = asyncio.run(fresh_database(POSTGRES_URL, db_name))
        # Unwound in reverse: the processes first, then the namespaces, then the database.
        stack.callback(lambda: asyncio.run(drop_database(POSTGRES_URL, db_name)))
        stack.callback(net.close)
        stack.callback(processes.close)
        from hakiki.core.settings import Settings

        progress(f"database {db_name} made")
        settings = Settings(data_dir=Path(tmp) / "data", database_url=url, secret_key=SECRET)
        upgrade(settings)
        org_id, headers = asyncio.run(prepare(settings, 10**15))

        progress("migrated, organisation and wallet made")
        net.make(SERVERS + WORKERS + 1)  # the last one serves the ceiling (when measured)
        progress(f"namespaces {', '.join(s.name for s in net.spaces)} made")
        spaces = net.spaces
        logs = Path(tmp)
        upstream_log = logs / "upstream.log"
        forwarder = processes.start(
            [
                sys.executable,
                str(Path(__file__)),
                "--serve-upstream",
                ",".join(s.host_ip for s in spaces),
                "--pg-port",
                str(base.port or 5432),
            ],
            env,
            upstream_log,
        )
        wait_for(upstream_log, "READY", forwarder)
        creds = json.loads(upstream_log.read_text().splitlines()[0])

        def hakiki_env(space: Namespace) -> dict[str, str]:
            inner_url = make_url(url).set(host=space.host_ip, port=5432)
            return {
                **env,
                "HAKIKI_DATA_DIR": str(settings.data_dir),
                "HAKIKI_SECRET_KEY": SECRET,
                "HAKIKI_DATABASE_URL": inner_url.render_as_string(hide_password=False),
                "HAKIKI_REDIS_URL": f"redis://{space.host_ip}:6379{urlsplit(REDIS_URL).path}",
                "HAKIKI_JOBS_IN_SERVER": "false",
                "HAKIKI_PREMBLY_APP_ID": creds["app_id"],
                "HAKIKI_PREMBLY_API_KEY": creds["api_key"],
                "HAKIKI_PREMBLY_BASE_URL": f"http://{space.host_ip}:{UPSTREAM_PORT}",
                "HAKIKI_RATE_LIMIT": "1000000/second",
            }

        hakiki = [sys.executable, "-c", "from hakiki.cli import main; main()"]
        in_ns = ["ip", "netns", "exec"]
        started = []
        for n, space in enumerate(spaces[:SERVERS]):
            log = logs / f"api{n}.log"
            command = [*in_ns, space.name, *hakiki, "serve", "--host", space.inner_ip]
            command += ["--port", str(API_PORT), "--workers", "1"]
            started.append((processes.start(command, hakiki_env(space), log), log, STARTED))
        for n, space in enumerate(spaces[SERVERS : SERVERS + WORKERS]):
            log = logs / f"worker{n}.log"
            command = [*in_ns, space.name, *hakiki, "worker"]
            started.append(
                (processes.start(command, hakiki_env(space), log), log, "worker started")
            )
        ceiling_space = spaces[-1]
        ceiling_log = logs / "ceiling.log"
        ceiling_command = [*in_ns, ceiling_space.name, sys.executable, "-m", "uvicorn"]
        ceiling_command += ["--no-access-log", "--log-level", "info"]
        ceiling_command += ["--host", ceiling_space.inner_ip, "--port", str(API_PORT)]
        ceiling_command += ["bench.ceiling_app:app"]
        if ceiling_too:
            ceiling_process = processes.start(ceiling_command, env, ceiling_log)
            started.append((ceiling_process, ceiling_log, STARTED))
        for process, log, text in started:
            wait_for(log, text, process)

        progress("3 API processes, 2 workers and the ceiling started")
        hosts = [space.inner_ip for space in spaces[:SERVERS]]
        # sanctions only: the servers load no PEP list, and a call missing a requested check is
        # charged only the part that ran (docs/decisions.md, "Honest screening outcomes")
        body = {"channel": "bvn", "number": BVN_FOUND, "checks": ["sanction"]}
        ceiling_body = {"channel": "bvn", "number": "22212345670"}
        top: dict[str, Any] | None = None
        if ceiling_too:
            ceiling, ceiling_seconds = asyncio.run(
                load(
                    [ceiling_space.inner_ip],
                    "/echo",
                    ceiling_body,
                    {},
                    duration=duration,
                    connections=connections * SERVERS,
                    max_requests=max_requests,
                    run=f"ceiling-{tag}",
                )
            )
            top = summary(ceiling, ceiling_seconds)
            progress(f"ceiling measured: {top['rps']} req/s")
        tally, seconds = asyncio.run(
            load(
                hosts,
                PATH,
                body,
                headers,
                duration=duration,
                connections=connections,
                max_requests=max_requests,
                run=f"run-{tag}",
                keys=keys,
            )
        )
        progress(f"load done: {summary(tally, seconds)['rps']} req/s")
        elsewhere = asyncio.run(replay_elsewhere(tally, hosts, body, headers, replays))
        book = asyncio.run(ledger(settings, org_id))
        verified = len(creds) > 0 and tally.fresh_charged > 0
        checks = money_check(book, tally, elsewhere)
        checks["some_calls_charged"] = verified
        load_after = load_average()
        live = summary(tally, seconds)
        return {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": f"{os.cpu_count()} cores, Python {sys.version.split()[0]}",
            "setup": f"{SERVERS} API processes and {WORKERS} workers in {SERVERS + WORKERS} "
            f"network namespaces on one PostgreSQL (Redis rate limits), asyncio client "
            f"{connections} connections per server, {duration:g} s, at most {max_requests} "
            "requests; ceiling: bench/ceiling_app.py in a namespace of its own, same client, "
            f"{connections * SERVERS} connections"
            + ("" if keys else "; no Idempotency-Key (no retries, no replays)"),
            "namespaces": [space.name for space in spaces],
            "load_average": [round(load_before, 2), round(load_after, 2)],
            "measured_under_load": max(load_before, load_after) > 1.5,
            "ceiling": top,
            "live_aml_with_id_3_servers": {
                **live,
                "share_of_ceiling": round(live["rps"] / top["rps"], 3) if top else None,
                "fresh_charged": tally.fresh_charged,
                "replayed": tally.replayed,
            },
            "replayed_on_other_servers": dict(elsewhere),
            "ledger": book,
            "checks": checks,
            "money_exact": all(checks.values()),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--connections", type=int, default=16, help="per server")
    parser.add_argument("--requests", type=int, default=500_000)
    parser.add_argument("--replays", type=int, default=5, help="keys per server replayed")
    parser.add_argument("--output", type=Path, default=RESULT)
    parser.add_argument("--no-ceiling", action="store_true", help="skip the ceiling (tests)")
    parser.add_argument(
        "--no-keys", action="store_true", help="no Idempotency-Key, no retries (comparison)"
    )
    parser.add_argument("--serve-upstream", help=argparse.SUPPRESS)
    parser.add_argument("--pg-port", type=int, default=5432, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_upstream:
        serve_upstream(options.serve_upstream.split(","), options.pg_port)
        return
    if options.duration > 30:
        parser.error("--duration is at most 30 s")
    # Cleanup runs on SIGTERM too: turn it into an exception the with-blocks unwind on.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    result = run(
        options.duration,
        options.connections,
        options.requests,
        options.replays,
        ceiling_too=not options.no_ceiling,
        keys=not options.no_keys,
    )
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if not result["money_exact"]:
        sys.exit("money check failed")


if __name__ == "__main__":
    main()
