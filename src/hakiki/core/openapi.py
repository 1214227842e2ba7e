"""Error responses for the OpenAPI document, so every documented route lists its errors."""

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
    500: "internal_error: logged on our side; never carries a stack trace.",
    503: "channel_unavailable: no live provider is configured for the channel (not charged); "
    "service_unavailable: the database is unreachable, or none of the requested screening "
    "checks has a list on this server (not charged).",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorBody, "description": _DESCRIPTIONS[s]} for s in statuses}


AUTHENTICATED = (401, 403, 500)


def without_422(app: FastAPI) -> None:
    """FastAPI documents a 422 on every route with input; we answer 400 instead (DESIGN §3)."""

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
        components = schema.get("components", {}).get("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
