"""The error catalogue: JSON bodies, no 422, no stack traces, X-Request-Id everywhere."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from tests.conftest import AccountFactory


async def test_unknown_path_is_json_404_with_request_id(client: httpx.AsyncClient) -> None:
    response = await client.get("/v3/nowhere")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert response.headers["x-request-id"].startswith("req_")


async def test_wrong_method_is_json_405(client: httpx.AsyncClient) -> None:
    response = await client.get("/v3/screening/aml-with-id")
    assert response.status_code == 405
    assert response.json()["error"] == "method_not_allowed"


async def test_validation_is_never_422(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await client.get(
        "/v3/account/wallet/transactions?page=0&page_size=500", headers=account.headers
    )
    assert response.status_code == 400
    fields = {d["field"] for d in response.json()["details"]}
    assert fields == {"page", "page_size"}


async def test_unexpected_errors_are_500_without_trace(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    async def explode() -> None:
        raise RuntimeError("secret internals /etc/passwd")

    app.add_api_route("/_test/explode", explode)
    try:
        response = await client.get("/_test/explode")
    finally:
        app.router.routes.pop()
    assert response.status_code == 500
    assert response.json() == {
        "error": "internal_error",
        "message": "Something went wrong on our side; it was logged.",
    }
    assert "secret internals" not in response.text
    assert response.headers["x-request-id"].startswith("req_")
