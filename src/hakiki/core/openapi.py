"""The OpenAPI document and the pages that show it: error responses, so every documented route
lists its errors; the rate-limit headers and the bearer security scheme of every authenticated
route; and /docs (Swagger UI) and /redoc served from files installed with the package
(``fastapi-offline`` ships them), so they work on a server with no internet."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI
from fastapi._compat import get_definitions, get_flat_models_from_fields, get_model_name_map
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.openapi.utils import get_fields_from_routes, get_openapi
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from hakiki.core.endpoints import CATALOGUE
from hakiki.core.errors import (
    ErrorBody,
    payload_too_large,
    rate_limited,
    unauthorized,
    unsupported_media_type,
)

_DESCRIPTIONS = {
    400: "invalid_request: a field is missing or malformed; `details` names each field.",
    401: "unauthorized: credentials missing, malformed, unknown or revoked "
    "(send `Authorization: Bearer <client_id>:<secret>`).",
    402: "insufficient_funds: the wallet cannot cover a live call; nothing was done.",
    403: "insufficient_scope, or account_not_approved for live keys of an unapproved organisation; "
    "csrf_failed: a call authenticated by a console session lacks its X-CSRF-Token.",
    404: "not_found.",
    409: "idempotency_conflict: the Idempotency-Key was used with another body, or its first "
    "request is still running; conflict: the resource's state or a unique name refuses the "
    "change (the message says which).",
    429: "rate_limited: this key made more calls than its limit allows in the current window; "
    "retry after `Retry-After` seconds. Nothing was done.",
    413: "payload_too_large: the body is larger than this endpoint's limit (docs/api.md); "
    "it was not read further.",
    415: "unsupported_media_type: the body was not sent with the Content-Type this endpoint "
    "reads (application/json, or multipart/form-data for uploads).",
    500: "internal_error: logged on our side; never carries a stack trace.",
    503: "channel_unavailable: no live provider is configured for the channel (not charged); "
    "service_unavailable: the database is unreachable, or none of the requested screening "
    "checks has a list on this server (not charged).",
}


# One real answer per status, shown as the example of every operation's error response
# (tests/test_openapi_examples.py provokes each one it can and compares).
ERROR_EXAMPLES: dict[int, dict[str, Any]] = {
    400: {
        "error": "invalid_request",
        "message": "The request is invalid: number: is required.",
        "details": [{"field": "number", "problem": "is required"}],
    },
    401: unauthorized("No Authorization header was sent.").body(),
    402: {
        "error": "insufficient_funds",
        "message": "The wallet's available balance is below this call's price of 200 KES "
        "minor units; top up the wallet and retry.",
    },
    403: {
        "error": "insufficient_scope",
        "message": "This key lacks the scope 'fraud:read' this call needs.",
    },
    404: {"error": "not_found", "message": "No such resource."},
    409: {
        "error": "idempotency_conflict",
        "message": "This Idempotency-Key was used with a different request; use a new key.",
    },
    413: payload_too_large(1 << 20).body(),
    415: unsupported_media_type("application/json", "text/plain").body(),
    429: rate_limited("100 per 1 second", 1).body(),
    500: {
        "error": "internal_error",
        "message": "Something went wrong on our side; it was logged.",
    },
    503: {
        "error": "channel_unavailable",
        "message": "No provider is configured for TZ drivers_license in live mode; nothing was "
        "charged. GET /v3/screening/channels shows what is available.",
    },
}


def _error_content(status: int) -> dict[str, Any]:
    return {"application/json": {"example": ERROR_EXAMPLES[status]}}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {
        s: {"model": ErrorBody, "description": _DESCRIPTIONS[s], "content": _error_content(s)}
        for s in statuses
    }


AUTHENTICATED = (401, 403, 500)

# Read from the request by the route mechanism rather than declared as a parameter: FastAPI's
# per-parameter resolution costs more than the header is worth on the hot path.
IDEMPOTENCY_HEADER = {
    "parameters": [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "schema": {"type": "string", "minLength": 1, "maxLength": 255},
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
    "content": {
        "application/json": {
            "schema": {"$ref": "#/components/schemas/ErrorBody"},
            "example": ERROR_EXAMPLES[429],
        }
    },
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


SECURITY_SCHEME = "bearer"
BEARER = {
    "type": "http",
    "scheme": "bearer",
    "description": "`client_id:secret` of an API key (Swagger's Authorize: paste "
    "`hk_test_...:hks_...`); sent as `Authorization: Bearer <client_id>:<secret>`.",
}


def _document_body_limits(operation: dict[str, Any]) -> None:
    """An operation that reads a body can refuse it: too large, or of another Content-Type."""
    if "requestBody" not in operation:
        return
    for status in (413, 415):
        operation["responses"].setdefault(
            str(status),
            {
                "description": _DESCRIPTIONS[status],
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/ErrorBody"},
                        "example": ERROR_EXAMPLES[status],
                    }
                },
            },
        )


def _restore_example_nulls(app: FastAPI, schema: dict[str, Any]) -> None:
    """get_openapi encodes the document without its nulls (``exclude_none``), the nulls of the
    models' examples too, so an example would lack the fields its answer carries as null
    (``"transaction_id": null``): put each model's examples back as pydantic writes them."""
    fields = get_fields_from_routes(list(app.routes))
    names = get_model_name_map(get_flat_models_from_fields(fields, known_models=set()))
    _, definitions = get_definitions(
        fields=fields,
        model_name_map=names,
        separate_input_output_schemas=app.separate_input_output_schemas,
    )
    documented = schema.get("components", {}).get("schemas", {})
    for name, definition in definitions.items():
        if "examples" in definition and name in documented:
            documented[name]["examples"] = copy.deepcopy(definition["examples"])


def _show_captured_examples(schema: dict[str, Any], examples: Mapping[str, Any]) -> None:
    """Each catalogued operation's success example, as the sandbox answers its documented
    request (``python -m hakiki.devtools.capture_examples`` writes them)."""
    for key, example in examples.items():
        spec = CATALOGUE.get(key)
        operation = schema["paths"].get(spec.path, {}).get(spec.method.lower()) if spec else None
        if spec is None or operation is None:
            continue
        media = operation["responses"][str(spec.status_code)]["content"]["application/json"]
        media["example"] = copy.deepcopy(example)


def customise_openapi(app: FastAPI, examples: Mapping[str, Any] | None = None) -> None:
    """FastAPI documents a 422 on every route with input; we answer 400 instead
    (docs/api.md#conventions).
    Authenticated routes also document their 429 and RateLimit headers, and the bearer scheme
    (so /docs can send a key). ``examples``: success examples captured from the sandbox, by
    catalogue key."""

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
                _document_body_limits(operation)
                if "401" in responses:
                    operation["security"] = [{SECURITY_SCHEME: []}]
        components = schema.setdefault("components", {})
        components.setdefault("schemas", {}).pop("HTTPValidationError", None)
        components["schemas"].pop("ValidationError", None)
        components.setdefault("securitySchemes", {})[SECURITY_SCHEME] = BEARER
        _restore_example_nulls(app, schema)
        _show_captured_examples(schema, examples or {})
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


DOCS_ASSETS = "/docs-assets"
_ASSETS_DIRECTORY = Path(fastapi_offline.__file__).parent / "static"
# ReDoc's bundle draws its side menu's "API docs by Redocly" logo from Redocly's CDN: the
# bundle is served with that address pointing at a logo of ours, so the page loads nothing
# from outside (issue 35).
REDOC_CDN_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
REDOC_LOGO = f"{DOCS_ASSETS}/redoc-logo-mini.svg"
_LOGO = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">'
    b'<rect width="16" height="16" rx="3" fill="#32329f"/>'
    b'<path d="M4 12V4h2v3h4V4h2v8h-2V9H6v3z" fill="#fff"/></svg>'
)


def redoc_bundle() -> bytes:
    """fastapi-offline's ReDoc bundle with its one outside address made local."""
    bundle = (_ASSETS_DIRECTORY / "redoc.standalone.js").read_bytes()
    return bundle.replace(REDOC_CDN_LOGO, REDOC_LOGO.encode())


def install_docs(app: FastAPI) -> None:
    """/docs and /redoc on files served by this app (Swagger UI 5 and ReDoc 2 as shipped by
    ``fastapi-offline``), never a CDN. The app is created with ``docs_url=None`` and
    ``redoc_url=None`` so FastAPI's CDN pages are not there."""
    bundle: list[bytes] = []  # read once, at the first /redoc

    # Before the mount, which would answer these paths from the package's files.
    @app.get(f"{DOCS_ASSETS}/redoc.standalone.js", include_in_schema=False)
    async def redoc_js() -> Response:
        if not bundle:
            bundle.append(redoc_bundle())
        return Response(bundle[0], media_type="text/javascript")

    @app.get(REDOC_LOGO, include_in_schema=False)
    async def redoc_logo() -> Response:
        return Response(_LOGO, media_type="image/svg+xml")

    app.mount(DOCS_ASSETS, StaticFiles(directory=_ASSETS_DIRECTORY), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=redirect_url,
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
            # No badge fetched from the public validator (the page loads nothing from outside).
            swagger_ui_parameters={"validatorUrl": None},
        )

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{DOCS_ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS}/favicon.png",
            with_google_fonts=False,
        )
