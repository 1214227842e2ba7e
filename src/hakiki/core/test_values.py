"""``GET /v3/sandbox/test-values``: every catalogued endpoint's documented sandbox inputs and
the outcome each gives, generated from the endpoint catalogue (docs/sandbox.md)."""

from __future__ import annotations

import base64
from typing import Any

from fastapi import Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from hakiki.core.calls import Call
from hakiki.core.endpoints import CATALOGUE, Endpoint, TestValue
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest, Pagination, page_params
from hakiki.core.routing import EndpointRouter

TEST_VALUES = Endpoint(
    key="sandbox.test_values",
    method="GET",
    path="/v3/sandbox/test-values",
    scope=None,
    summary="Every endpoint's sandbox test values and the outcome each gives",
    errors=(400, 404),
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
    if value.content is not None:
        out["content"] = {"content_type": value.content.content_type, "text": value.content.text}
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


class SandboxMultipart(BaseModel):
    fields: dict[str, Any] = Field(description="The form fields, by name.")
    files: dict[str, dict[str, str]] = Field(
        description="The file parts, by name: {filename, content_type, content_base64}."
    )


class SandboxValue(BaseModel):
    """One documented sandbox input; a request carries one of ``query``, ``body``,
    ``multipart`` and ``content`` (the others are left out; ``content`` may come with
    ``query``)."""

    method: str
    path: str
    query: dict[str, Any] | None = Field(None, description="A GET's query parameters.")
    body: dict[str, Any] | None = Field(None, description="A JSON body.")
    multipart: SandboxMultipart | None = Field(None, description="A multipart/form-data body.")
    content: dict[str, str] | None = Field(
        None,
        description="A body sent as is, {content_type, text} (a CSV file), with `query` for the "
        "parameters.",
    )
    expect: dict[str, Any] = Field(
        description="`http_status`, and dotted paths into the response body (a number indexes "
        "a list) with the value each holds."
    )
    description: str


_EXAMPLE_ENTRIES: list[dict[str, Any]] = [
    {
        "method": "POST",
        "path": "/v3/screening/aml-with-id",
        "body": {"channel": "bvn", "number": "22222222205"},
        "expect": {
            "http_status": 200,
            "response_code": "01",
            "status": "NOT_FOUND",
            "data.status": "NOT_FOUND",
        },
        "description": "last digit 5: not found",
    },
    {
        "method": "POST",
        "path": "/v3/fraud/bulk-scan/upload",
        "multipart": {
            "fields": {"scan_type": "phone", "country_code": "KE"},
            "files": {
                "file": {
                    "filename": "applicants.csv",
                    "content_type": "text/csv",
                    "content_base64": "cGhvbmUNCjA3MTIgMzQ1Njc4DQowNzEyIDM0NTY3NQ0K",
                }
            },
        },
        "expect": {
            "http_status": 202,
            "live": False,
            "status": "PENDING",
            "async_pending": True,
            "data.state": "pending",
            "data.file_format": "csv",
            "data.processed_records": 0,
            "data.price_per_row": 0,
            "data.charged_amount": 0,
            "data.failure_reason": None,
            "data.scan_type": "phone",
            "data.total_records": 2,
        },
        "description": "a phone scan with the country as a form field: 202 pending",
    },
]


class SandboxValues(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [*_EXAMPLE_ENTRIES],
                    "pagination": {"page": 1, "page_size": 2, "total_pages": 3, "total_items": 6},
                }
            ]
        }
    )

    data: list[SandboxValue] = Field(description="Endpoint by endpoint, in catalogue order.")
    pagination: Pagination


router = EndpointRouter(tags=["Sandbox"])


# exclude_unset: an entry leaves out the inputs it does not use, as all_entries() builds it.
@router.endpoint(TEST_VALUES, response_model=SandboxValues, response_model_exclude_unset=True)
async def test_values(
    call: Call,
    page: PageRequest = Depends(page_params),
    path: str | None = Query(
        None,
        max_length=200,
        description="Only this endpoint's values (its path as documented, e.g. /v3/tax/pin).",
        examples=["/v3/tax/pin"],
    ),
) -> dict[str, Any]:
    """Any sandbox key; a live key gets 404 (test values drive outcomes only in the sandbox).
    Each entry is a request (`method`, `path`, and `query`, `body` or `multipart`, whose files
    are base64-encoded) and `expect`: `http_status` and dotted paths into the response body
    with the values they hold. Paginated like every list (`page`, `page_size`: 20 by default,
    100 at most); `path` keeps one endpoint's values."""
    if call.principal.live:
        raise ApiError(404, "not_found", "Test values are served to sandbox keys only.")
    entries = all_entries()
    if path is not None:
        entries = [e for e in entries if e["path"] == path]
    data, pagination = page.slice(entries)
    return {"data": data, "pagination": pagination.model_dump()}
