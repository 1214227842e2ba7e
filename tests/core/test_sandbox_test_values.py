"""GET /v3/sandbox/test-values serves the endpoint catalogue's test values, and every test
value, replayed over HTTP on both databases with a new sandbox organisation's key, gives the
outcome it documents."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from hakiki import api  # noqa: F401  (declaring the routers' endpoints fills the catalogue)
from hakiki.core.endpoints import CATALOGUE, Endpoint
from hakiki.core.test_values import all_entries
from tests.conftest import AccountFactory
from tests.support.replay import replay

if TYPE_CHECKING:  # not at run time: pytest would take the class for a test class
    from hakiki.core.endpoints import TestValue


def _cases() -> list[object]:
    return [
        pytest.param(endpoint, value, id=f"{endpoint.key}-{n}")
        for endpoint in CATALOGUE.values()
        for n, value in enumerate(endpoint.test_values())
    ]


def test_every_endpoint_without_a_path_parameter_documents_its_outcomes() -> None:
    for endpoint in CATALOGUE.values():
        values = endpoint.test_values()
        if endpoint.has_path_parameter or endpoint.account_surface:
            assert not values, endpoint.key
            continue
        assert values, f"{endpoint.key} has no test value"
        statuses = [value.expect.get("http_status") for value in values]
        assert endpoint.status_code in statuses, endpoint.key
        takes_input = any(v.body or v.query or v.multipart or v.content for v in values)
        assert 400 in statuses or not takes_input, f"{endpoint.key}: no 400 example"
        assert len({v.description for v in values}) == len(values), endpoint.key
        for value in values:
            assert value.description and "http_status" in value.expect, (endpoint.key, value)
            given = [v for v in (value.body, value.query, value.multipart) if v is not None]
            if value.content is not None:  # a raw body: its parameters in the query
                given = [v for v in (value.body, value.multipart, value.content) if v is not None]
            assert len(given) == 1, (endpoint.key, value.description)
            if endpoint.method == "GET":
                assert value.query is not None, (endpoint.key, value.description)


@pytest.mark.parametrize(("endpoint", "value"), _cases())
async def test_test_value_gives_its_documented_outcome(
    client: httpx.AsyncClient, make_account: AccountFactory, endpoint: Endpoint, value: TestValue
) -> None:
    account = await make_account("sandbox")  # a new organisation: no reports, no scans yet
    await replay(client, account.headers, endpoint, value)


async def test_the_endpoint_serves_the_catalogue(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    served: list[dict[str, object]] = []
    page = 1
    while True:  # paginated like every list: read its pages of 100
        response = await client.get(
            "/v3/sandbox/test-values",
            params={"page": page, "page_size": 100},
            headers=account.headers,
        )
        assert response.status_code == 200
        served += response.json()["data"]
        if page >= response.json()["pagination"]["total_pages"]:
            break
        page += 1
    assert served == all_entries()
    first = served[0]
    assert {"method", "path", "body", "expect", "description"} <= set(first)
    face = [e for e in served if "multipart" in e and e["path"] == "/v3/fraud/face-scan"]
    assert face and set(face[0]["multipart"]["files"]["image"]) == {
        "filename",
        "content_type",
        "content_base64",
    }


async def test_a_live_key_gets_404(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    live = await make_account("live")
    response = await client.get("/v3/sandbox/test-values", headers=live.headers)
    assert response.status_code == 404 and response.json()["error"] == "not_found"


async def test_no_key_gets_401(client: httpx.AsyncClient) -> None:
    response = await client.get("/v3/sandbox/test-values")
    assert response.status_code == 401


def test_docs_sandbox_names_every_identity_number_and_name_of_the_test_values() -> None:
    """docs/sandbox.md is checked against the catalogue: each test value's identity number (its
    documented stem: the number without its two outcome digits) and each screened name that
    hits is on the page."""
    page = (Path(__file__).parents[2] / "docs" / "sandbox.md").read_text()
    missing = []
    for endpoint in CATALOGUE.values():
        for value in endpoint.test_values():
            body = dict(value.body or {})
            if value.expect.get("http_status") != 200:
                continue
            number = body.get("number")
            identity = endpoint.key.startswith(("kyc.", "screening."))
            if identity and isinstance(number, str) and number[:-2] not in page:
                missing.append(f"{endpoint.key}: {number}")
            name = body.get("name")
            if isinstance(name, str) and name.startswith("Sandbox ") and name not in page:
                missing.append(f"{endpoint.key}: {name}")
    assert not missing, missing
