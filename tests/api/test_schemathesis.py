"""Property-based tests of the whole API from its OpenAPI document (schemathesis): every
operation, with a sandbox key and with a live key, against a real `hakiki serve` process on a
database of its own. Each generated request, valid or not, must get an answer the document
declares (status code, content type, body schema) and never a 5xx.

The live key's organisation is approved with an empty wallet: billable calls stop at 402
before any upstream, as a stranger's would; Nigeria's channels are served by the local fake
Prembly, the other live channels have no provider here (a documented 503 channel_unavailable,
before anything is reserved). Webhook URLs are not resolved
(HAKIKI_WEBHOOKS_ALLOW_PRIVATE): random host names would wait on DNS.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case, Response
from schemathesis.checks import (
    CheckContext,
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.database import create_database
from hakiki.core.settings import Settings
from tests.conftest import TEST_SECRET_KEY
from tests.identity.providers.fake_prembly import FakePrembly
from tests.support.cli import free_port
from tests.support.databases import isolated_settings, process_env

EXAMPLES_PER_OPERATION = 25


@dataclass(frozen=True)
class Server:
    url: str
    keys: dict[str, str]  # environment -> Authorization header


async def _keys(settings: Settings) -> dict[str, str]:
    db = create_database(settings)
    try:
        await accounts.create_org(db, "schemathesis", approved=True)
        issued = {
            environment: await accounts.create_key(db, "schemathesis", environment)
            for environment in ("sandbox", "live")
        }
    finally:
        await db.dispose()
    return {env: f"Bearer {key.client_id}:{key.secret}" for env, key in issued.items()}


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, fake_prembly_server: FakePrembly
) -> Iterator[Server]:
    settings = asyncio.run(
        isolated_settings("sqlite", tmp_path_factory.mktemp("schemathesis"), "schemathesis")
    )
    keys = asyncio.run(_keys(settings))
    port = free_port()
    env = process_env(
        settings,
        HAKIKI_RATE_LIMIT="1000000/second",
        HAKIKI_WEBHOOKS_ALLOW_PRIVATE="true",
        # Nigeria's live channels reach the local fake Prembly (after the wallet's 402).
        HAKIKI_PREMBLY_APP_ID=fake_prembly_server.app_id,
        HAKIKI_PREMBLY_API_KEY=fake_prembly_server.api_key,
        HAKIKI_PREMBLY_BASE_URL=fake_prembly_server.base_url,
    )
    # The server's output goes to a file: a pipe nobody reads would fill with access-log lines
    # and block the server.
    output = tmp_path_factory.mktemp("schemathesis_output") / "serve.log"
    with output.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "hakiki", "serve", "--port", str(port)],
            env=env,
            cwd=Path(__file__).resolve().parents[2],
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    try:
        deadline = time.monotonic() + 120
        while "Uvicorn running on" not in output.read_text():
            assert process.poll() is None and time.monotonic() < deadline, output.read_text()
            time.sleep(0.1)
        yield Server(f"http://127.0.0.1:{port}", keys)
    finally:
        process.terminate()
        process.wait(timeout=30)


# The document the server serves, built in process so each operation is a test of its own.
schema = schemathesis.openapi.from_dict(create_app(Settings(secret_key=TEST_SECRET_KEY)).openapi())


UNAVAILABLE = {"service_unavailable", "source_unavailable", "channel_unavailable"}


@schemathesis.check
def no_server_error(ctx: CheckContext, response: Response, case: Case) -> bool | None:
    """No 5xx, except the documented, honest 503 of a check that cannot run on this server
    (no PEP list or news feed loaded, no registry configured): answering CLEAR instead would
    be a lie, and nothing is charged."""
    if response.status_code < 500:
        return None
    declared = "503" in case.operation.definition.raw.get("responses", {})
    error = response.json().get("error") if response.status_code == 503 else None
    if declared and error in UNAVAILABLE:
        return None
    raise AssertionError(f"server error {response.status_code}: {response.text[:500]}")


# Every answer as the document declares it. Not positive_data_acceptance: rules a JSON Schema
# cannot express (a number's format per channel and country, a phone per country) answer 400
# to schema-valid data, by design and with the field named.
CHECKS = [
    no_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
_SETTINGS = settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@schema.parametrize()
@_SETTINGS
def test_every_operation_with_a_sandbox_key(case: Case, server: Server) -> None:
    case.call_and_validate(
        base_url=server.url,
        headers={"Authorization": server.keys["sandbox"]},
        checks=CHECKS,
        timeout=30,
    )


@schema.parametrize()
@_SETTINGS
def test_every_operation_with_a_live_key(case: Case, server: Server) -> None:
    case.call_and_validate(
        base_url=server.url,
        headers={"Authorization": server.keys["live"]},
        checks=CHECKS,
        timeout=30,
    )
