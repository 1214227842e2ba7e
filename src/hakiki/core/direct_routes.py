"""The catalogue's JSON POST endpoints answered without FastAPI's per-request machinery.

A call of ``POST /v3/screening/aml-with-id`` spent about a third of its time in FastAPI and
Starlette around the route mechanism: five layers of middleware, matching the path against
every route in turn, and solving the handler's parameters, none of which it needs
(docs/benchmarks.md). :class:`DirectRoutingAPI` is FastAPI with one dictionary in front: a
request whose method and path are those of a :attr:`EndpointRoute.direct` route goes through
the app's own middleware and exception handlers straight to :meth:`EndpointRoute.serve`, which
does what the route and FastAPI would (admission, the body bounded, checked and validated,
the handler, the same errors). Everything else (other routes, 404s, 405s, the docs, the
console) takes FastAPI's path as before, and the routes, their OpenAPI document and their
tests stay FastAPI's.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from hakiki.core.endpoints import CATALOGUE
from hakiki.core.routing import EndpointRoute


class DirectRoutingAPI(FastAPI):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._direct: dict[tuple[str, str], EndpointRoute] | None = None
        self._direct_stack: ASGIApp | None = None
        # False sends every call through FastAPI's own path (the tests compare the two).
        self.direct_enabled = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and self.direct_enabled
            and not self.root_path
            and not scope.get("root_path")
        ):
            if self._direct is None:
                self._direct, self._direct_stack = direct_routes(self), self._build_direct_stack()
            route = self._direct.get((scope["method"], scope["path"]))
            if route is not None:
                assert self._direct_stack is not None
                scope["app"] = self
                scope["route"] = route
                await self._direct_stack(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    def _build_direct_stack(self) -> ASGIApp:
        """The app's own middleware and exception handlers around :func:`_serve`, as
        FastAPI's stack has them around its router (a 500 is the app's middleware's own)."""
        handlers = {
            key: handler
            for key, handler in self.exception_handlers.items()
            if key not in (500, Exception)
        }
        app: ASGIApp = ExceptionMiddleware(_serve, handlers=handlers, debug=self.debug)
        for cls, args, kwargs in reversed(self.user_middleware):
            app = cls(app, *args, **kwargs)
        return app


async def _serve(scope: Scope, receive: Receive, send: Send) -> None:
    route: EndpointRoute = scope["route"]
    await route.serve(scope, receive, send)


def direct_routes(app: FastAPI) -> dict[tuple[str, str], EndpointRoute]:
    """The catalogue's direct routes by (method, path): each one kept only when FastAPI's
    router picks that very route for its method and path, as included (no prefix, extra
    dependencies or body limit of the inclusion's own)."""
    table: dict[tuple[str, str], EndpointRoute] = {}
    for spec in CATALOGUE.values():
        if "{" in spec.path:
            continue
        route, context = _selected(app, spec.method, spec.path)
        if (
            isinstance(route, EndpointRoute)
            and route.spec is spec
            and route.direct
            and (context is None or _as_declared(route, context))
        ):
            table[(spec.method, spec.path)] = route
    return table


def _selected(app: FastAPI, method: str, path: str) -> tuple[BaseRoute | None, Any]:
    """The route FastAPI's router would hand a ``method`` call of ``path``, and its context
    (how its router was included): the first that matches fully, inside included routers."""
    probe: Scope = {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "path_params": {},
        "headers": [],
        "query_string": b"",
    }
    for route in app.router.routes:
        match, _ = route.matches(probe)
        if match is not Match.FULL:
            continue
        selected: BaseRoute | None = route
        context: Any = None
        while selected is not None and hasattr(selected, "_match"):  # an included router
            _match, _scope, selected, context = selected._match(probe)
        return selected, context
    return None, None


def _as_declared(route: EndpointRoute, context: Any) -> bool:
    """Whether the inclusion left the route as declared, so the route's own parameters are
    the ones FastAPI would solve."""
    return (
        context.path_format == route.path
        and list(context.dependencies) == list(route.dependencies)
        and context.max_body_size is None
        and context._embed_body_fields == route._embed_body_fields
    )
