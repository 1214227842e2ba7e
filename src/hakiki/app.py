"""The FastAPI application: routers, error handlers, and the runtime built at start-up."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from hakiki import __version__
from hakiki.api import ROUTERS
from hakiki.core.access_log import install_access_log_filter
from hakiki.core.direct_routes import DirectRoutingAPI
from hakiki.core.errors import install_error_handlers
from hakiki.core.health import health_router
from hakiki.core.middleware import RequestContextMiddleware
from hakiki.core.openapi import customise_openapi, install_docs
from hakiki.core.providers.live import LiveProviders
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings, get_settings
from hakiki.kyc import tasks as _kyc_tasks  # noqa: F401  (registers the job's task)
from hakiki.lists.engines import ScreeningEngines
from hakiki.runtime import started

logger = logging.getLogger("hakiki")

HOUSEKEEPING_SECONDS = 60.0

DESCRIPTION = """
Identity verification, fraud signals and AML screening for Kenya, Uganda, Tanzania and Nigeria.

Authenticate with `Authorization: Bearer <client_id>:<secret>` (here: **Authorize**, then paste
`<client_id>:<secret>`). Sandbox keys (`hk_test_...`)
return deterministic mock data and never charge; live keys (`hk_live_...`) run the real engines
and providers and debit the wallet once per billable call. Every POST accepts an
`Idempotency-Key`. Errors are `{"error", "message", "details"?}`; every response carries
`X-Request-Id`. Calls are rate-limited per key: authenticated responses carry
`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); over the limit the
answer is 429 `rate_limited` with `Retry-After`.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    install_access_log_filter()  # no query values (identity numbers) in the access log

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with started(
            settings, run_jobs=settings.jobs_in_server, load_screening=True
        ) as runtime:
            app.state.runtime = runtime
            yield

    app = DirectRoutingAPI(
        title="Hakiki",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        # Starlette's trailing-slash redirect builds its Location from the Host header (an
        # open redirect); a path with a stray slash is a 404 that names the right one.
        redirect_slashes=False,
        docs_url=None,  # install_docs serves /docs and /redoc from local files, not a CDN
        redoc_url=None,
    )
    install_error_handlers(app)
    app.add_middleware(RequestContextMiddleware)
    app.include_router(
        health_router(
            __version__, {"screening_lists": _screening_lists}, {"providers": _provider_states}
        )
    )
    for router in ROUTERS:
        app.include_router(router)
    customise_openapi(app, _captured_examples())
    install_docs(app)
    return app


def _captured_examples() -> dict[str, Any]:
    """The success examples captured from the sandbox (python -m
    hakiki.devtools.capture_examples), by catalogue key."""
    path = Path(__file__).with_name("openapi_examples.json")
    if not path.exists():
        return {}
    examples: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return examples


def _screening_lists(runtime: Runtime) -> str | None:
    """Ready once the live screening engine holds a list (the bundled ones count)."""
    engines = runtime.part(ScreeningEngines)
    if not engines.live_loaded:
        return "the screening lists are not loaded yet"
    if engines.live.lists:
        return None
    return "no screening list is loaded (run `hakiki lists update`)"


def _provider_states(runtime: Runtime) -> dict[str, Any]:
    """Each configured upstream provider's circuit breaker in this process (docs/providers.md)."""
    return runtime.part(LiveProviders).states()
