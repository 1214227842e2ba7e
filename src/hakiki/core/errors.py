"""The one error catalogue (docs/api.md#conventions) and the handlers that render it.

Every error leaves as ``{"error", "message"}`` (plus ``details`` where useful), never with a
stack trace, and every validation failure is a 400 ``invalid_request`` naming its fields.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

BEARER_FORMAT = "Authorization: Bearer <client_id>:<secret>"


class ApiError(Exception):
    def __init__(
        self,
        status_code: int,
        error: str,
        message: str,
        *,
        details: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.error = error
        self.message = message
        self.details = details
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.error, "message": self.message}
        if self.details is not None:
            body["details"] = self.details
        return body


def invalid_request(
    message: str, *, field: str | None = None, problem: str | None = None
) -> ApiError:
    details = [{"field": field, "problem": problem or message}] if field else None
    return ApiError(400, "invalid_request", message, details=details)


def unauthorized(reason: str) -> ApiError:
    return ApiError(
        401,
        "unauthorized",
        f"API credentials are required: send the header {BEARER_FORMAT}. {reason}",
        headers={"WWW-Authenticate": 'Bearer realm="hakiki"'},
    )


def rate_limited(window: str, retry_after: int) -> ApiError:
    return ApiError(
        429,
        "rate_limited",
        f"Too many calls with this key (its limit is {window}); retry in {retry_after} s.",
        headers={"Retry-After": str(retry_after)},
    )


class ErrorBody(BaseModel):
    """The body of every error response."""

    error: str
    message: str
    details: list[dict[str, Any]] | None = None


_STATUS_ERRORS = {
    404: ("not_found", "No such resource."),
    405: ("method_not_allowed", "This method is not allowed on this path."),
    413: ("payload_too_large", "The request body is too large."),
    415: ("unsupported_media_type", "Send the body as application/json."),
}


def error_response(exc: ApiError) -> Response:
    return Response(
        orjson.dumps(exc.body()),
        status_code=exc.status_code,
        media_type="application/json",
        headers=exc.headers,
    )


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def validation_details(errors: list[Any]) -> list[dict[str, Any]]:
    details = []
    for err in errors:
        problem = str(err.get("msg", "invalid value"))
        if err.get("type") == "missing":
            problem = "is required"
        elif err.get("type") == "json_invalid":
            problem = "the body is not valid JSON"
        details.append({"field": _field_name(tuple(err.get("loc", ()))), "problem": problem})
    return details


def validation_error(errors: list[Any]) -> ApiError:
    details = validation_details(errors)
    summary = "; ".join(f"{d['field']}: {d['problem']}" for d in details)
    return ApiError(400, "invalid_request", f"The request is invalid: {summary}.", details=details)


def install_error_handlers(app: FastAPI) -> None:
    async def on_api_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error_response(exc)

    async def on_validation_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(validation_error(list(exc.errors())))

    async def on_http_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        error, message = _STATUS_ERRORS.get(exc.status_code, ("http_error", str(exc.detail)))
        headers = dict(exc.headers or {})
        return error_response(ApiError(exc.status_code, error, message, headers=headers))

    async def on_database_down(_request: Request, exc: Exception) -> Response:
        if isinstance(exc, DBAPIError) and not (
            isinstance(exc, OperationalError) or exc.connection_invalidated
        ):
            raise exc
        return error_response(
            ApiError(
                503,
                "service_unavailable",
                "The database is unreachable; nothing was done. Retry shortly.",
                headers={"Retry-After": "5"},
            )
        )

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(OperationalError, on_database_down)
    app.add_exception_handler(DBAPIError, on_database_down)
    app.add_exception_handler(PoolTimeoutError, on_database_down)
    app.add_exception_handler(ConnectionError, on_database_down)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    # Anything else is caught by RequestContextMiddleware, which answers 500 internal_error.
