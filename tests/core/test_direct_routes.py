"""The catalogue's JSON POST routes answered from DirectRoutingAPI's table: which routes enter
it, and that every answer, good or bad, is the one FastAPI's own path gives."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from hakiki.app import create_app
from hakiki.core.direct_routes import DirectRoutingAPI, direct_routes
from hakiki.core.settings import Settings
from tests.conftest import AccountFactory

AML = "/v3/screening/aml-with-id"


def table_paths(app: FastAPI) -> set[tuple[str, str]]:
    return set(direct_routes(app))


def test_the_json_posts_of_the_catalogue_are_direct_and_nothing_else(settings: Settings) -> None:
    paths = table_paths(create_app(settings))
    assert ("POST", AML) in paths
    assert ("POST", "/v3/fraud/phone") in paths
    assert ("POST", "/v3/fraud/id-scan") in paths
    assert ("POST", "/v3/screening/pep-and-sanction") in paths
    assert all(method == "POST" for method, _ in paths)
    assert not any("{" in path for _, path in paths)
    # A form upload and reads with query parameters keep FastAPI's path.
    assert ("POST", "/v3/fraud/bulk-scan/upload") not in paths
    assert ("POST", "/v3/statements/analyze") not in paths


def test_a_route_that_fastapi_would_pick_first_keeps_the_call(settings: Settings) -> None:
    app = create_app(settings)

    async def shadow() -> dict[str, str]:
        return {"shadow": "yes"}

    app.router.routes.insert(0, APIRoute(AML, shadow, methods=["POST"]))
    paths = table_paths(app)
    assert ("POST", AML) not in paths
    assert ("POST", "/v3/fraud/phone") in paths


@contextmanager
def through_fastapi(app: FastAPI) -> Iterator[None]:
    assert isinstance(app, DirectRoutingAPI)
    app.direct_enabled = False
    try:
        yield
    finally:
        app.direct_enabled = True


def comparable(response: httpx.Response) -> dict[str, Any]:
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    if isinstance(body, dict):
        body.pop("request_id", None)
    headers = {
        name: response.headers.get(name)
        for name in ("content-type", "idempotent-replayed", "allow", "retry-after")
    }
    return {
        "status": response.status_code,
        "body": body,
        "headers": headers,
        "rate_limited": "ratelimit-limit" in response.headers,
        "request_id": response.headers.get("x-request-id", "").startswith("req_"),
    }


BAD_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("valid", {"json": {"channel": "bvn", "number": "22212345670"}}),
    ("a hit and a mismatch", {"json": {"channel": "bvn", "number": "22212345716"}}),
    ("missing field", {"json": {"channel": "bvn"}}),
    ("wrong type", {"json": {"channel": "bvn", "number": 22212345670}}),
    ("unknown channel", {"json": {"channel": "nope", "number": "1"}}),
    ("a list, not an object", {"json": []}),
    ("empty body", {"content": b"", "headers": {"Content-Type": "application/json"}}),
    ("no body at all", {}),
    ("text body", {"content": b"hello", "headers": {"Content-Type": "text/plain"}}),
    ("broken JSON", {"content": b'{"channel": ', "headers": {"Content-Type": "application/json"}}),
    ("NUL in a string", {"json": {"channel": "bvn", "number": "2221\x0034567"}}),
    (
        "lone surrogate",
        {"content": b'{"channel": "\\ud800"}', "headers": {"Content-Type": "application/json"}},
    ),
    ("too large", {"content": b"{" + b" " * 300_000 + b"}"}),
    ("deep nesting", {"content": b"[" * 2000 + b"]" * 2000}),
    ("big number", {"content": b'{"channel": "bvn", "number": "1", "threshold": 1e999}'}),
]


@pytest.mark.parametrize("name,call", BAD_CALLS, ids=[name for name, _ in BAD_CALLS])
async def test_every_answer_is_the_one_fastapis_path_gives(
    app: FastAPI,
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    name: str,
    call: dict[str, Any],
) -> None:
    account = await make_account("sandbox")
    options = dict(call)
    headers = {**account.headers, **options.pop("headers", {})}
    if "content" in options and "Content-Type" not in headers:
        headers["Content-Type"] = "application/json"
    direct = await client.post(AML, headers=headers, **options)
    with through_fastapi(app):
        fastapi = await client.post(AML, headers=headers, **options)
    assert comparable(direct) == comparable(fastapi)
    assert direct.status_code < 500


@pytest.mark.parametrize(
    "credentials",
    ["", "Bearer nonsense", f"Bearer hk_test_{'0' * 24}:hks_{'s' * 43}"],
    ids=["none", "malformed", "unknown"],
)
async def test_refusals_before_the_body_are_the_same(
    app: FastAPI, client: httpx.AsyncClient, credentials: str
) -> None:
    headers = {"Authorization": credentials} if credentials else {}
    body = {"channel": "bvn", "number": "22212345670"}
    direct = await client.post(AML, json=body, headers=headers)
    with through_fastapi(app):
        fastapi = await client.post(AML, json=body, headers=headers)
    assert direct.status_code == 401
    assert comparable(direct) == comparable(fastapi)


async def test_a_key_without_the_scope_is_refused_alike(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["fraud:read"])
    body = {"channel": "bvn", "number": "22212345670"}
    direct = await client.post(AML, json=body, headers=account.headers)
    with through_fastapi(app):
        fastapi = await client.post(AML, json=body, headers=account.headers)
    assert direct.status_code == 403
    assert comparable(direct) == comparable(fastapi)


async def test_an_idempotent_replay_is_the_same_on_both_paths(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Idempotency-Key": "direct-route-replay-1"}
    body = {"channel": "bvn", "number": "22212345670"}
    first = await client.post(AML, json=body, headers=headers)
    with through_fastapi(app):
        replayed = await client.post(AML, json=body, headers=headers)
    again = await client.post(AML, json=body, headers=headers)
    assert first.status_code == replayed.status_code == again.status_code == 200
    assert replayed.headers["idempotent-replayed"] == again.headers["idempotent-replayed"]
    assert first.json() == replayed.json() == again.json()
    other = await client.post(AML, json={**body, "number": "22212345671"}, headers=headers)
    with through_fastapi(app):
        other_fastapi = await client.post(
            AML, json={**body, "number": "22212345671"}, headers=headers
        )
    assert other.status_code == 409
    assert comparable(other) == comparable(other_fastapi)


async def test_other_methods_and_paths_keep_fastapis_answers(client: httpx.AsyncClient) -> None:
    wrong_method = await client.get(AML)
    assert wrong_method.status_code == 405
    assert wrong_method.headers["allow"] == "POST"
    trailing = await client.post(AML + "/", json={})
    assert trailing.status_code == 404
    assert AML in trailing.json()["message"]
