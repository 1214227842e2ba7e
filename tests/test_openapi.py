"""The OpenAPI document documents every route and its errors."""

from __future__ import annotations

import httpx


async def test_openapi_documents_the_combined_screening(client: httpx.AsyncClient) -> None:
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    operation = spec["paths"]["/v3/screening/aml-with-id"]["post"]
    assert {"200", "400", "401", "402", "403", "409", "500", "503"} <= set(operation["responses"])
    assert "422" not in operation["responses"]
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            assert "401" in op["responses"], (method, path)
            assert "422" not in op["responses"], (method, path)
    assert "AmlWithIdRequest" in spec["components"]["schemas"]


async def test_openapi_documents_rate_limits(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            responses = op["responses"]
            assert "Retry-After" in responses["429"]["headers"], (method, path)
            success = [r for status, r in responses.items() if status.startswith("2")]
            assert success and all("RateLimit-Reset" in r["headers"] for r in success), path
            assert "headers" not in responses["401"], (method, path)


async def test_docs_page(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs")
    assert response.status_code == 200
    assert "swagger" in response.text.lower()
