"""``GET /v3/sandbox/test-values``: every catalogued endpoint's documented sandbox inputs and
the outcome each gives, generated from the endpoint catalogue (docs/sandbox.md)."""

from __future__ import annotations

import base64
from typing import Any

from hakiki.core.calls import Call
from hakiki.core.endpoints import CATALOGUE, Endpoint, TestValue
from hakiki.core.errors import ApiError
from hakiki.core.routing import EndpointRouter

TEST_VALUES = Endpoint(
    key="sandbox.test_values",
    method="GET",
    path="/v3/sandbox/test-values",
    scope=None,
    summary="Every endpoint's sandbox test values and the outcome each gives",
    errors=(404,),
)


def entry(endpoint: Endpoint, value: TestValue) -> dict[str, Any]:
    out: dict[str, Any] = {"method": endpoint.method, "path": endpoint.path}
    if value.query is not None:
        out["query"] = dict(value.query)
    if value.body is not None:
        out["body"] = dict(value.body)
    if value.multipart is not None:
        out["multipart"] = {
            "fields": dict(value.multipart.fields),
            "files": {name: dict(file) for name, file in value.multipart.files.items()},
        }
    out["expect"] = dict(value.expect)
    out["description"] = value.description
    return out


def all_entries() -> list[dict[str, Any]]:
    """The catalogue's test values, endpoint by endpoint in the order they were declared."""
    return [
        entry(endpoint, value)
        for endpoint in CATALOGUE.values()
        for value in endpoint.test_values()
    ]


def file_part(filename: str, content_type: str, content: bytes) -> dict[str, str]:
    """A file of a multipart test value, its bytes base64-encoded."""
    return {
        "filename": filename,
        "content_type": content_type,
        "content_base64": base64.b64encode(content).decode("ascii"),
    }


router = EndpointRouter(tags=["Sandbox"])


@router.endpoint(TEST_VALUES)
async def test_values(call: Call) -> dict[str, list[dict[str, Any]]]:
    """Any sandbox key; a live key gets 404 (test values drive outcomes only in the sandbox).
    Each entry is a request (`method`, `path`, and `query`, `body` or `multipart`, whose files
    are base64-encoded) and `expect`: `http_status` and dotted paths into the response body
    with the values they hold."""
    if call.principal.live:
        raise ApiError(404, "not_found", "Test values are served to sandbox keys only.")
    return {"data": all_entries()}
