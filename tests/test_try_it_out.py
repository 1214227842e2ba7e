"""Swagger's "Try it out" as a new user meets it (issue 35): every operation without a path
parameter, sent with the values /docs prefills (the request body's first example, each form
field's and query parameter's example, a sample file of examples/ for a file part) and a
sandbox key, succeeds. The statements upload and the webhook endpoint failed on
`host 'lender.example' does not resolve`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from hakiki.app import create_app
from hakiki.core.scopes import ALL_SCOPES
from tests.conftest import AccountFactory

ROOT = Path(__file__).resolve().parents[1]
SPEC: dict[str, Any] = create_app().openapi()
# The file a user picks for each operation's file part: the repository's sample files.
FILES = {
    ("/v3/statements/analyze", "file"): ("mpesa-statement.pdf", "application/pdf"),
    ("/v3/fraud/face-scan", "image"): ("selfie.jpg", "image/jpeg"),
    ("/v3/fraud/bulk-scan/upload", "file"): ("applicants.csv", "text/csv"),
    ("/v3/credit/models", "file"): ("loans.csv", "text/csv"),
}


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SPEC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _first_example(media: dict[str, Any]) -> Any:
    if "example" in media:
        return media["example"]
    if media.get("examples"):
        return next(iter(media["examples"].values()))["value"]
    return (_resolve(media.get("schema", {})).get("examples") or [None])[0]


def _prefilled(path: str, operation: dict[str, Any]) -> dict[str, Any]:
    request: dict[str, Any] = {}
    params = {}
    for parameter in operation.get("parameters", []):
        schema = parameter.get("schema", {})
        example = parameter.get("example", (schema.get("examples") or [None])[0])
        if parameter["in"] == "query" and example is not None:
            params[parameter["name"]] = example
    if params:
        request["params"] = params
    content = operation.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        request["json"] = _first_example(content["application/json"])
    elif "multipart/form-data" in content:
        form = _resolve(content["multipart/form-data"]["schema"])
        data, files = {}, {}
        for name, field in form.get("properties", {}).items():
            if "contentMediaType" in field or field.get("format") == "binary":
                filename, media_type = FILES[(path, name)]
                files[name] = (filename, (ROOT / "examples" / filename).read_bytes(), media_type)
            elif field.get("examples"):
                example = field["examples"][0]
                data[name] = example if isinstance(example, list) else str(example)
        request["data"], request["files"] = data, files
    else:
        for media_type, media in content.items():  # a raw body (a CSV)
            request["content"] = str(_first_example(media)).encode()
            request["headers"] = {"Content-Type": media_type}
    return request


def _operations() -> list[Any]:
    return [
        pytest.param(path, method, operation, id=f"{method.upper()} {path}")
        for path, methods in SPEC["paths"].items()
        for method, operation in methods.items()
        if "{" not in path
    ]


@pytest.mark.parametrize(("path", "method", "operation"), _operations())
async def test_the_prefilled_request_succeeds_with_a_sandbox_key(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    method: str,
    operation: dict[str, Any],
) -> None:
    account = await make_account("sandbox", scopes=list(ALL_SCOPES))  # the admin reads too
    request = _prefilled(path, operation)
    headers = {**account.headers, **request.pop("headers", {})}
    response = await client.request(method.upper(), path, headers=headers, **request)
    assert 200 <= response.status_code < 300, (request.get("json"), response.text[:2000])
