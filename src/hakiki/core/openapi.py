"""Error responses for the OpenAPI document, so every documented route lists its errors, and
the rate-limit headers of every authenticated route."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from hakiki.core.errors import ErrorBody

_DESCRIPTIONS = {
    400: "invalid_request: a field is missing or malformed; `details` names each field.",
    401: "unauthorized: credentials missing, malformed, unknown or revoked "
    "(send `Authorization: Bearer <client_id>:<secret>`).",
    402: "insufficient_funds: the wallet cannot cover a live call; nothing was done.",
    403: "insufficient_scope, or account_not_approved for live keys of an unapproved organisation.",
    404: "not_found.",
    409: "idempotency_conflict: the Idempotency-Key was used with another body, or its first "
    "request is still running.",
    429: "rate_limited: this key made more calls than its limit allows in the current window; "
    "retry after `Retry-After` seconds. Nothing was done.",
    500: "internal_error: logged on our side; never carries a stack trace.",
    503: "channel_unavailable: no live provider is configured for the channel (not charged); "
    "service_unavailable: the database is unreachable, or none of the requested screening "
    "checks has a list on this server (not charged).",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorBody, "description": _DESCRIPTIONS[s]} for s in statuses}


AUTHENTICATED = (401, 403, 500)

# Read from the request by the route mechanism rather than declared as a parameter: FastAPI's
# per-parameter resolution costs more than the header is worth on the hot path.
IDEMPOTENCY_HEADER = {
    "parameters": [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "schema": {"type": "string", "maxLength": 255},
            "description": "Makes retries safe: the first response is replayed for 24 h.",
        }
    ]
}


def _integer_header(description: str) -> dict[str, Any]:
    return {"description": description, "schema": {"type": "integer"}}


RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": _integer_header("Calls this key may make per window."),
    "RateLimit-Remaining": _integer_header("Calls left in the current window."),
    "RateLimit-Reset": _integer_header("Seconds until the current window resets."),
}
RATE_LIMITED = {
    "description": _DESCRIPTIONS[429],
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    "headers": {
        "Retry-After": _integer_header("Seconds to wait before retrying."),
        **RATE_LIMIT_HEADERS,
    },
}


def _document_rate_limits(responses: dict[str, Any]) -> None:
    """Every route that authenticates (documents a 401) can answer 429, and every answer but
    the 401 carries the RateLimit headers."""
    if "401" not in responses:
        return
    responses["429"] = RATE_LIMITED
    for status, response in responses.items():
        if status not in ("401", "429"):
            response["headers"] = {**response.get("headers", {}), **RATE_LIMIT_HEADERS}


def customise_openapi(app: FastAPI) -> None:
    """FastAPI documents a 422 on every route with input; we answer 400 instead
    (docs/api.md#conventions).
    Authenticated routes also document their 429 and RateLimit headers."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        for methods in schema.get("paths", {}).values():
            for operation in methods.values():
                responses = operation.get("responses", {})
                responses.pop("422", None)
                _document_rate_limits(responses)
        components = schema.get("components", {}).get("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
