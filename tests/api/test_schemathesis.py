"""Property-based tests of the whole API from its OpenAPI document (schemathesis): every
operation, with a sandbox key and with a live key, against a real `hakiki serve` process (the
worker's shared server, tests/support/served.py, with an organisation of this module's). Each
generated request, valid or not, must get an answer the document declares (status code, content
type, body schema) and never a 5xx.

The live key's organisation is approved with an empty wallet: billable calls stop at 402
before any upstream, as a stranger's would; Nigeria's channels are served by the local fake
Prembly, the other live channels have no provider here (a documented 503 channel_unavailable,
before anything is reserved). Webhook URLs are not resolved
(HAKIKI_WEBHOOKS_ALLOW_PRIVATE): random host names would wait on DNS.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import Case, Response
from schemathesis.checks import (
    CheckContext,
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.result import Ok
from schemathesis.schemas import APIOperation

from hakiki.app import create_app
from hakiki.core.endpoints import CATALOGUE
from hakiki.core.settings import Settings
from tests.conftest import TEST_SECRET_KEY
from tests.support.served import Served

# Not under pytest-xdist: schemathesis gives its items by operation one shared node id, which
# xdist schedules once (tests/conftest.py, pytest_collection_finish). scripts/check runs it in a
# plain pytest process beside the xdist workers.
pytestmark = [pytest.mark.processes, pytest.mark.serial]

EXAMPLES_PER_OPERATION = 25
# A live key of an organisation with an empty wallet: once its request is valid, a billable
# operation answers 402 (or the documented 503 of a channel with no provider), before anything
# else runs, whatever the request. The request's validation is the sandbox key's, which every
# phase tries on every operation (the document's examples, the coverage phase's boundary and
# invalid cases, EXAMPLES_PER_OPERATION generated requests); on a billable operation the live
# key gets a few generated requests only, which show the 402.
LIVE_EXAMPLES_WHEN_BILLABLE = 5


@dataclass(frozen=True)
class Server:
    url: str
    keys: dict[str, str]  # environment -> Authorization header


@pytest.fixture(scope="module")
def server(served: Served) -> Server:
    """The worker's shared server, with an approved organisation of this module's, unfunded."""
    served.organisation("schemathesis", approved=True)
    keys = {env: served.key("schemathesis", env)["Authorization"] for env in ("sandbox", "live")}
    return Server(served.url, keys)


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


BILLABLE = {(entry.method, entry.path) for entry in CATALOGUE.values() if entry.billable}


def _billable(operation: APIOperation) -> bool:
    return (operation.method.upper(), operation.path) in BILLABLE


def test_every_billable_entry_is_an_operation_of_the_document() -> None:
    found = [result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)]
    operations = {(operation.method.upper(), operation.path) for operation in found}
    assert BILLABLE and operations >= BILLABLE


@schema.exclude(lambda ctx: _billable(ctx.operation)).parametrize()
@_SETTINGS
def test_every_free_operation_with_a_live_key(case: Case, server: Server) -> None:
    case.call_and_validate(
        base_url=server.url,
        headers={"Authorization": server.keys["live"]},
        checks=CHECKS,
        timeout=30,
    )


@schema.include(lambda ctx: _billable(ctx.operation)).parametrize()
@settings(_SETTINGS, max_examples=LIVE_EXAMPLES_WHEN_BILLABLE, phases=[Phase.generate])
def test_every_billable_operation_with_a_live_key(case: Case, server: Server) -> None:
    case.call_and_validate(
        base_url=server.url,
        headers={"Authorization": server.keys["live"]},
        checks=CHECKS,
        timeout=30,
    )
