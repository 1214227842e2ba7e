"""The private FastAPI internals that core/routing.py and core/direct_routes.py rely on, each
named here. FastAPI is pinned to a tested range in pyproject.toml; an upgrade that renames or
reshapes any of these fails this file loudly instead of changing how calls are served."""

from __future__ import annotations

import dataclasses
import inspect

import fastapi
import fastapi.routing
from fastapi._compat import ModelField, Undefined
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import get_missing_field_error
from fastapi.routing import APIRoute
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.routing import Match

from hakiki.app import create_app
from hakiki.core.direct_routes import DirectRoutingAPI, direct_routes
from hakiki.core.settings import Settings
from tests.conftest import TEST_SECRET_KEY


def _fields(cls: type) -> set[str]:
    return {field.name for field in dataclasses.fields(cls)}


def test_fastapi_is_in_the_tested_range() -> None:
    major, minor = (int(part) for part in fastapi.__version__.split(".")[:2])
    assert (major, minor) == (0, 165), "a new FastAPI: re-check this file's internals, then widen"


def test_body_validation_internals() -> None:
    """routing._validated validates a single body parameter as FastAPI does."""
    assert list(inspect.signature(get_missing_field_error).parameters) == ["loc"]
    validate = inspect.signature(ModelField.validate).parameters
    assert list(validate)[:3] == ["self", "value", "values"] and "loc" in validate
    assert Undefined is not None
    missing = get_missing_field_error(loc=("body",))
    assert missing["loc"] == ("body",) and missing["type"] == "missing"


def test_dependant_fields_read_by_the_direct_test() -> None:
    """EndpointRoute.direct reads these to decide that FastAPI's solving would do nothing."""
    assert {
        "path_params",
        "query_params",
        "header_params",
        "cookie_params",
        "body_params",
        "dependencies",
        "call",
        "request_param_name",
        "response_param_name",
        "background_tasks_param_name",
        "http_connection_param_name",
        "security_scopes_param_name",
    } <= _fields(Dependant)


def test_route_and_inclusion_internals() -> None:
    """direct_routes follows included routers with ``_match`` and compares their context."""
    assert hasattr(APIRoute, "__init__")
    included = fastapi.routing._IncludedRouter
    assert list(inspect.signature(included._match).parameters) == ["self", "scope"]
    context_fields = _fields(fastapi.routing._EffectiveRouteContext)
    assert {"path_format", "dependencies", "max_body_size", "_embed_body_fields"} <= context_fields
    assert {"handlers", "debug"} <= set(inspect.signature(ExceptionMiddleware).parameters)
    assert Match.FULL is not None


def test_every_direct_route_is_found_through_the_internals() -> None:
    """On the real app: routes carry ``_embed_body_fields``, ``body_field`` and ``dependant``,
    the middleware list keeps its (cls, args, kwargs) shape, and the table of direct routes
    is not empty (an internals change that made every route fall back would show here)."""
    app = create_app(Settings(secret_key=TEST_SECRET_KEY))
    assert isinstance(app, DirectRoutingAPI)
    table = direct_routes(app)
    assert len(table) >= 30
    for route in table.values():
        assert isinstance(route._embed_body_fields, bool)
        assert route.body_field is not None
        assert route.dependant.body_params
    for middleware in app.user_middleware:
        cls, args, kwargs = middleware
        assert callable(cls) and isinstance(kwargs, dict) and args is not None
