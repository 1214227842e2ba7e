"""One real `hakiki serve` per pytest worker (the session fixture ``served`` of tests/conftest.py),
shared by the tests that need only an HTTP server: schemathesis and the browser tests. Each test
makes its own organisation, keys and console users in the server's database (the helpers below)
instead of starting a server of its own.

The server runs on a SQLite file of its own in a folder from ``tmp_path_factory`` (one per
worker), on a port the OS gives, with settings every user can share:

- ``HAKIKI_RATE_LIMIT`` high: schemathesis sends hundreds of calls a second, and no test of
  this server tests the rate limit (tests/core test it in process);
- ``HAKIKI_WEBHOOKS_ALLOW_PRIVATE``: random webhook host names would wait on DNS; the private
  address refusal is tested in process (tests/webhooks);
- Prembly's addresses point at the session's fake Prembly: live Nigerian channels reach it
  (after the wallet's 402) instead of answering 503 channel_unavailable.

The helpers are synchronous (``asyncio.run``): call them from a synchronous test.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from hakiki.account import service as accounts
from hakiki.console import users
from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.database import create_database
from hakiki.core.settings import Settings
from hakiki.core.wallet import service as wallet
from tests.support.cli import free_port
from tests.support.databases import isolated_settings, process_env

if TYPE_CHECKING:
    from tests.identity.providers.fake_prembly import FakePrembly

ROOT = Path(__file__).resolve().parents[2]
READY_WITHIN = 120.0


@dataclass(frozen=True)
class Served:
    url: str
    settings: Settings  # the server's data folder, database and secret key
    log: Path  # everything the server printed

    def organisation(
        self, name: str, *, approved: bool = True, currency: str = "KES", credit: int = 0
    ) -> str:
        """A new organisation (its name must be new on this server), credited; its id."""
        return asyncio.run(self._organisation(name, approved, currency, credit))

    def key(self, organisation: str, environment: str = "sandbox") -> dict[str, str]:
        """A new key of the organisation named, as the Authorization header."""
        issued = asyncio.run(self._key(organisation, environment))
        return {"Authorization": f"Bearer {issued.client_id}:{issued.secret}"}

    def console_user(self, org_id: str, email: str, password: str, role: str = "owner") -> None:
        """A console user of the organisation, signing in with ``password``."""
        asyncio.run(self._console_user(org_id, email, password, role))

    async def _organisation(self, name: str, approved: bool, currency: str, credit: int) -> str:
        db = create_database(self.settings)
        try:
            org = await accounts.create_org(db, name, approved=approved, currency=currency)
            if credit:
                await wallet.credit(db, org.id, credit, "test top-up")
        finally:
            await db.dispose()
        return org.id

    async def _key(self, organisation: str, environment: str) -> accounts.IssuedKey:
        db = create_database(self.settings)
        try:
            return await accounts.create_key(db, organisation, environment)
        finally:
            await db.dispose()

    async def _console_user(self, org_id: str, email: str, password: str, role: str) -> None:
        db = create_database(self.settings)
        vault = Vault(load_master_key(self.settings))
        try:
            await users.create_user(
                db, vault, org_id=org_id, email=email, role=role, password=password
            )
        finally:
            await db.dispose()


def _wait_until_ready(process: subprocess.Popen[str], url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_WITHIN
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


@contextmanager
def serve(data_dir: Path, fake_prembly: FakePrembly) -> Iterator[Served]:
    settings = asyncio.run(isolated_settings("sqlite", data_dir, "served"))
    port = free_port()
    env = process_env(
        settings,
        HAKIKI_RATE_LIMIT="1000000/second",
        HAKIKI_WEBHOOKS_ALLOW_PRIVATE="true",
        HAKIKI_PREMBLY_APP_ID=fake_prembly.app_id,
        HAKIKI_PREMBLY_API_KEY=fake_prembly.api_key,
        HAKIKI_PREMBLY_BASE_URL=fake_prembly.base_url,
    )
    # To a file: a pipe nobody reads would fill with access-log lines and block the server.
    log = data_dir / "serve.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "hakiki", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_ready(process, url, log)
        yield Served(url, settings, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)
