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
from starlette.routing import Match, Mount
from starlette.types import Scope

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


class ApiHTTPError(StarletteHTTPException):
    """An :class:`ApiError` raised where only HTTPException passes: FastAPI turns any other
    error while it reads a request body into a bare 400 (the body limit, counted as the body
    streams in, is raised there)."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.status_code, error.message, error.headers)
        self.error = error


def payload_too_large(limit: int) -> ApiError:
    return ApiError(
        413,
        "payload_too_large",
        f"The request body is larger than this endpoint's limit of {limit:,} bytes; "
        "it was not read further.",
        details=[{"field": "body", "problem": f"larger than {limit:,} bytes"}],
    )


def unsupported_media_type(expected: str, sent: str | None) -> ApiError:
    got = f"the Content-Type sent is {sent!r}" if sent else "no Content-Type was sent"
    return ApiError(
        415,
        "unsupported_media_type",
        f"Send the body as {expected} with the header Content-Type: {expected}; {got}.",
        details=[{"field": "body", "problem": f"Content-Type must be {expected}"}],
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
        field = _field_name(tuple(err.get("loc", ())))
        if err.get("type") == "missing":
            problem = "is required"
        elif err.get("type") == "json_invalid":
            # FastAPI's location is ("body", <character offset>): the field is the body.
            field, problem = "body", f"is not valid JSON: {err.get('ctx', {}).get('error', '')}"
        details.append({"field": field, "problem": problem})
    return details


def validation_error(errors: list[Any]) -> ApiError:
    details = validation_details(errors)
    summary = "; ".join(f"{d['field']}: {d['problem']}" for d in details)
    return ApiError(400, "invalid_request", f"The request is invalid: {summary}.", details=details)


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _routes_match(app: FastAPI, scope: Scope, *, path: str, method: str) -> Match:
    """How well the app's routes (not its mounts, which take any method) match ``method`` on
    ``path``: FULL, PARTIAL (the path only) or NONE."""
    probe = {**scope, "path": path, "method": method, "path_params": {}}
    # FastAPI keeps routing state in a dict of the scope: the probe gets its own copy.
    probe["fastapi"] = dict(scope.get("fastapi", {}))
    best = Match.NONE
    for route in app.router.routes:
        if isinstance(route, Mount):
            continue
        match = route.matches(probe)[0]
        if match is Match.FULL:
            return match
        best = Match.PARTIAL if match is Match.PARTIAL else best
    return best


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route serves on this request's path (a 405's ``Allow``): a path may
    be served by several routes, one per method."""
    path = scope["path"]
    return [m for m in _METHODS if _routes_match(app, scope, path=path, method=m) is Match.FULL]


def _slash_hint(app: FastAPI, scope: Scope) -> str:
    """For a 404: the path without (or with) its trailing slash, when that one exists. The
    server never redirects there itself: a redirect built from the request's Host header
    would send clients to any host the header names."""
    path: str = scope["path"]
    if path == "/":
        return ""
    other = path.rstrip("/") if path.endswith("/") else path + "/"
    if _routes_match(app, scope, path=other, method=scope["method"]) is not Match.NONE:
        return f" Did you mean {other}?"
    return ""


ERROR_LOGGED = 300  # characters of an error's message kept in the request log


def noted(request: Request, error: ApiError) -> Response:
    """The error's answer, its code and message noted for the request log's row (the
    console's request log shows why a call failed; messages name fields, never values)."""
    state = request.scope.setdefault("state", {})
    state["error"] = f"{error.error}: {error.message}"[:ERROR_LOGGED]
    return error_response(error)


def install_error_handlers(app: FastAPI) -> None:
    async def on_api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return noted(request, exc)

    async def on_validation_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return noted(request, validation_error(list(exc.errors())))

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if isinstance(exc, ApiHTTPError):
            return noted(request, exc.error)
        headers = dict(exc.headers or {})
        if exc.status_code == 400:
            # Starlette's multipart parser and FastAPI's body reading: the body is unreadable.
            message = f"The request body could not be read: {exc.detail}"
            return error_response(invalid_request(message, field="body", problem=str(exc.detail)))
        error, message = _STATUS_ERRORS.get(exc.status_code, ("http_error", str(exc.detail)))
        if exc.status_code == 405 and (allowed := allowed_methods(app, request.scope)):
            headers["Allow"] = ", ".join(allowed)
        elif exc.status_code == 404:
            message += _slash_hint(app, request.scope)
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
