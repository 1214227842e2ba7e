"""Liveness and readiness for load balancers and orchestrators, and a root that points to the
docs (docs/api.md#health). No key, no rate limit, no request-log row: plain routes, outside the
endpoint catalogue, and out of the OpenAPI document.

- ``GET /healthz``: 200 while the process answers;
- ``GET /readyz``: 200 when the database answers and every readiness check passes (the
  composition root adds the domains' checks, e.g. screening lists loaded), else 503
  ``service_unavailable`` naming each failing check; both carry the reports the composition
  root adds (e.g. ``providers``: each upstream provider's circuit breaker), which never make
  the service unready: a provider outage is what fallback is for;
- ``GET /``: the name, version and where the docs are.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import text

from hakiki.core.database import read
from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.health")

READY_TIMEOUT_SECONDS = 2.0

# A readiness check: what is wrong (shown to anyone who asks: no secrets), or None when ready.
ReadinessCheck = Callable[[Runtime], str | None]
# A report: state shown on /readyz for operators (no secrets, no personal data).
ReadinessReport = Callable[[Runtime], Any]


def _json(body: dict[str, Any], status_code: int = 200, **headers: str) -> Response:
    return Response(
        orjson.dumps(body), status_code=status_code, media_type="application/json", headers=headers
    )


async def _database_problem(runtime: Runtime) -> str | None:
    try:
        async with asyncio.timeout(READY_TIMEOUT_SECONDS), read(runtime.db) as conn:
            await conn.execute(text("SELECT 1"))
    except Exception:
        logger.warning("readiness: the database did not answer", exc_info=True)
        return f"the database did not answer within {READY_TIMEOUT_SECONDS:g} s"
    return None


def health_router(
    version: str,
    checks: Mapping[str, ReadinessCheck],
    reports: Mapping[str, ReadinessReport] | None = None,
) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    async def root() -> Response:
        return _json(
            {
                "name": "Hakiki",
                "version": version,
                "docs": "/docs",
                "redoc": "/redoc",
                "openapi": "/openapi.json",
                "health": {"alive": "/healthz", "ready": "/readyz"},
            }
        )

    @router.get("/healthz")
    async def healthz() -> Response:
        return _json({"status": "alive"})

    @router.get("/readyz")
    async def readyz(request: Request) -> Response:
        runtime: Runtime | None = getattr(request.app.state, "runtime", None)
        found: dict[str, str | None] = {"runtime": "the service is still starting"}
        extra: dict[str, Any] = {}
        if runtime is not None:
            found = {"database": await _database_problem(runtime)}
            found.update((name, check(runtime)) for name, check in checks.items())
            extra = {name: report(runtime) for name, report in (reports or {}).items()}
        problems = {name: problem for name, problem in found.items() if problem}
        if not problems:
            return _json({"status": "ready", "checks": {name: "ok" for name in found}, **extra})
        summary = "; ".join(f"{name}: {problem}" for name, problem in problems.items())
        return _json(
            {
                "error": "service_unavailable",
                "message": f"Not ready: {summary}.",
                "details": [{"field": name, "problem": p} for name, p in problems.items()],
                **extra,
            },
            503,
            **{"Retry-After": "5"},
        )

    return router
