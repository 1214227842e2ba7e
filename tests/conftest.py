"""Shared fixtures: every database test runs on a real SQLite file and on a real PostgreSQL.

PostgreSQL comes from ``HAKIKI_TEST_POSTGRES_URL`` (default: the local ``test`` database with
trust auth), Redis for the shared rate-limit counters from ``HAKIKI_TEST_REDIS_URL`` (default:
the local server). Locally their tests are skipped when no server answers; with ``CI=true`` they
must run, so an unreachable server is an error there, never a skip.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
import pytest_asyncio
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import func, make_url, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.console import passwords
from hakiki.core.database import Database
from hakiki.core.migrate import upgrade
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings
from hakiki.core.tables import wallet_transactions
from hakiki.core.wallet import service as wallet
from tests.identity.providers.fake_dojah import FakeDojah, run_fake_dojah
from tests.identity.providers.fake_prembly import FakePrembly, run_fake_prembly
from tests.identity.providers.fake_smile_id import FakeSmileId, run_fake_smile_id
from tests.jobs import sample_tasks as _sample_tasks  # noqa: F401  (registers test tasks)
from tests.tax.fake_gavaconnect import (
    CONSUMER_KEY,
    CONSUMER_SECRET,
    WITHHOLDING_PATH,
    FakeGavaConnect,
    run_fake_gavaconnect,
)
from tests.vehicle import fake_aggregator
from tests.vehicle.fake_aggregator import FakeAggregator, run_fake_aggregator

#: ``gw0``, ``gw1``, ... in a pytest-xdist worker; empty when pytest runs alone.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
#: The database named by the setting, which each worker's own database is made from.
BASE_POSTGRES_URL = os.environ.get(
    "HAKIKI_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
#: This process's database: the base one alone, ``<base>_gw0`` in worker gw0 (created at the
#: start of the worker's session), so workers never drop each other's schema.
POSTGRES_URL = (
    make_url(BASE_POSTGRES_URL)
    .set(database=f"{make_url(BASE_POSTGRES_URL).database}_{WORKER}")
    .render_as_string(hide_password=False)
    if WORKER
    else BASE_POSTGRES_URL
)
REDIS_URL = os.environ.get("HAKIKI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
IN_CI = os.environ.get("CI", "").lower() == "true"
TEST_SECRET_KEY = "test-secret-key-for-hakiki-0123456789abcdef"


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 2
        ):
            return True
    except OSError:
        return False


def _require(name: str, url: str, default_port: int, variable: str) -> None:
    """Skip locally, fail under CI=true, when the server does not answer."""
    if _reachable(url, default_port):
        return
    if IN_CI:
        pytest.fail(f"CI=true but {name} at {url} is unreachable")
    pytest.skip(f"{name} is not reachable (set {variable})")


def require_postgres() -> None:
    _require("PostgreSQL", POSTGRES_URL, 5432, "HAKIKI_TEST_POSTGRES_URL")


def require_redis() -> None:
    _require("Redis", REDIS_URL, 6379, "HAKIKI_TEST_REDIS_URL")


def _backends() -> list[Any]:
    postgres = pytest.param("postgresql", marks=pytest.mark.postgresql)
    return ["sqlite", postgres]


async def _create_worker_database() -> None:
    """Create this worker's database beside the base one, once (it outlives the run)."""
    name = make_url(POSTGRES_URL).database
    admin = create_async_engine(BASE_POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            exists = await conn.scalar(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            )
            if not exists:
                await conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await admin.dispose()


def pytest_sessionstart(session: pytest.Session) -> None:
    if WORKER and _reachable(BASE_POSTGRES_URL, 5432):
        asyncio.run(_create_worker_database())


#: The console's argon2id hasher as the product configures it (64 MiB, t=3: about 0.1-0.3 CPU s a
#: hash or a verification). Test processes hash with argon2id at its lowest cost instead: every
#: console test makes a user and signs in, and at the product's cost that was several CPU minutes
#: of the suite. The hashes are real argon2id all the same (the cost is in each hash, so a sign-in
#: verifies what was made); tests/console/test_passwords_dummy.py checks the product's hasher.
#: Servers started as processes keep the product's cost.
PRODUCT_PASSWORD_HASHER = passwords._HASHER
passwords._HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files that start real processes, servers or a browser first, the rest after, each file's
    tests kept together and in order. scripts/check hands whole files to its xdist workers in
    this order (`--dist loadfile --no-loadscope-reorder`): the long files start while every
    worker is busy, and the short ones fill the gaps at the end. xdist's own order (most tests
    first) left the one-test files of a minute or two (a browser, scaled mode) to the end, where
    one worker ran them while the others stood idle."""
    files: dict[Path, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.path, []).append(item)

    def weight(tests: list[pytest.Item]) -> tuple[int, int]:
        starting = sum(1 for test in tests if test.get_closest_marker("processes"))
        return (-1 if starting else 0, -len(tests))

    items[:] = [item for tests in sorted(files.values(), key=weight) for item in tests]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under pytest-xdist every test needs a node id of its own: xdist schedules by node id,
    so tests that share one run once. (schemathesis names its items by operation but leaves
    their node ids bare: in a worker 131 of its 135 tests were silently not run; they run in
    the plain pytest part of scripts/check, marked ``alone``.)"""
    if not WORKER:
        return
    seen: set[str] = set()
    shared = {item.nodeid for item in session.items if item.nodeid in seen or seen.add(item.nodeid)}
    if shared:
        raise pytest.UsageError(f"tests share node ids, which xdist would run once: {shared}")


async def _reset_postgres() -> None:
    engine = create_async_engine(POSTGRES_URL)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


@pytest.fixture(scope="session")
def fake_prembly_server() -> Iterator[FakePrembly]:
    with run_fake_prembly() as fake:
        yield fake


@pytest.fixture(scope="session")
def fake_vehicle_server() -> Iterator[FakeAggregator]:
    with run_fake_aggregator() as fake:
        yield fake


@pytest.fixture(scope="session")
def fake_gavaconnect_server() -> Iterator[FakeGavaConnect]:
    with run_fake_gavaconnect() as fake:
        yield fake


@pytest.fixture(scope="session")
def fake_smile_id_server() -> Iterator[FakeSmileId]:
    with run_fake_smile_id() as fake:
        yield fake


#: The fake Smile ID account has TZ NATIONAL_ID activated, an id_type Smile ID does not
#: document: the operator maps it, as docs/api.md says.
SMILE_ID_TYPES = {"TZ:nida": "NATIONAL_ID"}


#: For a test of an engine's answer through HTTP where the database plays no part (a document
#: read, a face compared): it runs on SQLite only, as reading the same image on PostgreSQL too
#: would cost seconds of CPU and test nothing more. What such a call stores, charges and logs is
#: tested on both databases by the neighbouring tests.
SQLITE_ONLY = pytest.mark.parametrize("settings", ["sqlite"], indirect=True)


#: Each backend's migrated settings, made once per session. pytest tears a parametrized
#: session fixture down whenever the next test wants the other parameter, which under
#: ``--dist loadfile`` is at nearly every file (a file's SQLite tests, then its PostgreSQL
#: ones): each switch re-created a database, migrated it and started an app (5-10 s). Both
#: backends' settings, apps and clients are therefore kept until the session ends.
_SETTINGS: dict[str, Settings] = {}


@pytest.fixture(scope="session", params=_backends())
def settings(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    fake_prembly_server: FakePrembly,
    fake_vehicle_server: FakeAggregator,
    fake_gavaconnect_server: FakeGavaConnect,
    fake_smile_id_server: FakeSmileId,
) -> Settings:
    """Migrated settings for one backend, with live identity lookups going to the fake Prembly
    (Nigeria) and the fake Smile ID (Kenya, Uganda, Tanzania's NIDA), live vehicle checks to the
    fake aggregator and live tax checks to the fake GavaConnect."""
    if request.param in _SETTINGS:
        return _SETTINGS[request.param]
    data_dir = tmp_path_factory.mktemp(f"hakiki-{request.param}")
    database_url = None
    if request.param == "postgresql":
        require_postgres()
        asyncio.run(_reset_postgres())
        database_url = POSTGRES_URL
    configured = Settings(
        data_dir=data_dir,
        database_url=database_url,
        secret_key=TEST_SECRET_KEY,
        prembly_app_id=fake_prembly_server.app_id,
        prembly_api_key=fake_prembly_server.api_key,
        prembly_base_url=fake_prembly_server.base_url,
        vehicle_prembly_app_id=fake_aggregator.APP_ID,
        vehicle_prembly_api_key=fake_aggregator.API_KEY,
        vehicle_prembly_base_url=fake_vehicle_server.base_url,
        gavaconnect_base_url=fake_gavaconnect_server.base_url,
        gavaconnect_consumer_key=CONSUMER_KEY,
        gavaconnect_consumer_secret=CONSUMER_SECRET,
        gavaconnect_withholding_path=WITHHOLDING_PATH,
        smile_id_partner_id=fake_smile_id_server.partner_id,
        smile_id_api_key=fake_smile_id_server.api_key,
        smile_id_base_url=fake_smile_id_server.base_url,
        smile_id_id_types=SMILE_ID_TYPES,
        provider_timeout_seconds=1.0,
        # The session app tests one provider per channel, each call reaching it; the breakers
        # and fallback have their own tests (tests/identity/providers/test_fallback.py).
        provider_breaker_failures=1_000_000,
        key_cache_seconds=0.0,
        webhooks_allow_private=True,  # the test receivers listen on 127.0.0.1
        # The session's app looks for new list versions at its start only: the list tests
        # store versions in this database, and their own runtimes watch with short intervals.
        lists_check_seconds=3600.0,
    )
    upgrade(configured)
    _SETTINGS[request.param] = configured
    return configured


@dataclass
class _Running:
    """The apps (by data folder) and their clients, open until the session ends."""

    stack: AsyncExitStack
    apps: dict[Path, FastAPI] = field(default_factory=dict)
    clients: dict[Path, httpx.AsyncClient] = field(default_factory=dict)


@pytest_asyncio.fixture(scope="session")
async def _running() -> AsyncIterator[_Running]:
    async with AsyncExitStack() as stack:
        yield _Running(stack)


@pytest_asyncio.fixture(scope="session")
async def app(settings: Settings, _running: _Running) -> FastAPI:
    if settings.data_dir not in _running.apps:
        application = create_app(settings)
        await _running.stack.enter_async_context(application.router.lifespan_context(application))
        _running.apps[settings.data_dir] = application
    return _running.apps[settings.data_dir]


@pytest_asyncio.fixture(scope="session")
async def client(settings: Settings, app: FastAPI, _running: _Running) -> httpx.AsyncClient:
    if settings.data_dir not in _running.clients:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        http = httpx.AsyncClient(transport=transport, base_url="http://hakiki.test")
        _running.clients[settings.data_dir] = await _running.stack.enter_async_context(http)
    return _running.clients[settings.data_dir]


@pytest.fixture
def db(app: FastAPI) -> Database:
    database: Database = app.state.runtime.db
    return database


@pytest.fixture
def fake_vehicle(fake_vehicle_server: FakeAggregator) -> Iterator[FakeAggregator]:
    fake_vehicle_server.reset()
    yield fake_vehicle_server
    fake_vehicle_server.reset()


@pytest.fixture
def fake_prembly(fake_prembly_server: FakePrembly) -> Iterator[FakePrembly]:
    fake_prembly_server.reset()
    yield fake_prembly_server
    fake_prembly_server.reset()


@pytest.fixture
def fake_gava(fake_gavaconnect_server: FakeGavaConnect) -> Iterator[FakeGavaConnect]:
    fake_gavaconnect_server.reset()
    yield fake_gavaconnect_server
    fake_gavaconnect_server.reset()


@pytest.fixture
def fake_smile_id(fake_smile_id_server: FakeSmileId) -> Iterator[FakeSmileId]:
    fake_smile_id_server.reset()
    yield fake_smile_id_server
    fake_smile_id_server.reset()


@dataclass
class Account:
    org_id: str
    org_name: str
    client_id: str
    secret: str
    environment: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.client_id}:{self.secret}"}


_counter = 0


def unique(prefix: str) -> str:
    global _counter
    _counter += 1
    return f"{prefix}-{os.getpid()}-{_counter}"


AccountFactory = Callable[..., Coroutine[Any, Any, Account]]


@pytest.fixture
def make_account(db: Database) -> AccountFactory:
    """Create an organisation and a key: ``await make_account("live", balance=10_000)``."""

    async def factory(
        environment: str = "sandbox",
        *,
        approved: bool = True,
        balance: int = 0,
        scopes: list[str] | None = None,
        currency: str = "KES",
    ) -> Account:
        name = unique("org")
        org = await accounts.create_org(db, name, approved=approved, currency=currency)
        key = await accounts.create_key(db, name, environment, scopes)
        if balance:
            await wallet.credit(db, org.id, balance, "test top-up")
        return Account(org.id, name, key.client_id, key.secret, environment)

    return factory


@pytest.fixture(scope="session")
def fake_dojah_server() -> Iterator[FakeDojah]:
    """A fake Dojah (identity, TIN and CAC look-ups) for the session; see fake_dojah.py."""
    with run_fake_dojah() as fake:
        yield fake


@pytest.fixture
def fake_dojah(fake_dojah_server: FakeDojah) -> Iterator[FakeDojah]:
    fake_dojah_server.reset()
    yield fake_dojah_server
    fake_dojah_server.reset()


async def debit_count(db: Database, org_id: str) -> int:
    """How many debits the organisation's ledger holds."""
    async with db.reader.connect() as conn:
        query = select(func.count()).where(
            wallet_transactions.c.org_id == org_id, wallet_transactions.c.kind == "debit"
        )
        return int((await conn.execute(query)).scalar_one())


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    """Environment for running ``hakiki`` as a process on a fresh SQLite data folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    env["HAKIKI_DATA_DIR"] = str(tmp_path / "hakiki-data")
    return env


@pytest.fixture
def runtime(app: FastAPI) -> Runtime:
    """The session app's runtime: its settings, database and parts."""
    value: Runtime = app.state.runtime
    return value


# Below: the shared server (kept at the end of the file, apart from the fixtures above).
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from tests.support.served import Served


@pytest.fixture(scope="session")
def served(
    tmp_path_factory: pytest.TempPathFactory, fake_prembly_server: FakePrembly
) -> Iterator[Served]:
    """This worker's shared `hakiki serve` (tests/support/served.py)."""
    from tests.support.served import serve  # it imports this module

    with serve(tmp_path_factory.mktemp("served"), fake_prembly_server) as server:
        yield server
