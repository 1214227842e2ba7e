"""The FastAPI application: routers, error handlers, and the runtime built at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from hakiki import __version__
from hakiki.account.router import router as account_router
from hakiki.core.auth import KeyCache
from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.database import create_database
from hakiki.core.errors import install_error_handlers
from hakiki.core.idempotency.service import purge_expired as purge_idempotency
from hakiki.core.middleware import RequestContextMiddleware
from hakiki.core.openapi import customise_openapi
from hakiki.core.rate_limit import RateLimiter
from hakiki.core.request_log.service import RequestLogWriter
from hakiki.core.request_log.service import purge_expired as purge_request_log
from hakiki.core.runtime import Runtime
from hakiki.core.sandbox.watchlist import sandbox_snapshots
from hakiki.core.settings import Settings, get_settings
from hakiki.core.settlement import SettlementWriter
from hakiki.core.wallet.service import release_expired_holds
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.fraud.bulk.router import router as bulk_scan_router
from hakiki.fraud.router import router as fraud_router
from hakiki.fraud.scan_router import router as fraud_scan_router
from hakiki.jobs.worker import job_worker
from hakiki.kyc import tasks as _kyc_tasks  # noqa: F401  (registers the job's task)
from hakiki.kyc.router import router as kyc_router
from hakiki.lists.router import router as lists_router
from hakiki.lists.service import load_current_engine
from hakiki.providers.registry import build_providers
from hakiki.screening.review_router import router as review_router
from hakiki.screening.review_service import ReviewPresence
from hakiki.screening.router import router as screening_router
from hakiki.webhooks.router import router as webhooks_router

logger = logging.getLogger("hakiki")

HOUSEKEEPING_SECONDS = 60.0

DESCRIPTION = """
Identity verification, fraud signals and AML screening for Kenya, Uganda, Tanzania and Nigeria.

Authenticate with `Authorization: Bearer <client_id>:<secret>`. Sandbox keys (`hk_test_...`)
return deterministic mock data and never charge; live keys (`hk_live_...`) run the real engines
and providers and debit the wallet once per billable call. Every POST accepts an
`Idempotency-Key`. Errors are `{"error", "message", "details"?}`; every response carries
`X-Request-Id`. Calls are rate-limited per key: authenticated responses carry
`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); over the limit the
answer is 429 `rate_limited` with `Retry-After`.
"""


async def build_runtime(settings: Settings) -> Runtime:
    db = create_database(settings)
    screening = await asyncio.to_thread(load_current_engine, settings)
    return Runtime(
        settings=settings,
        db=db,
        vault=Vault(load_master_key(settings)),
        key_cache=KeyCache(db, settings.key_cache_seconds),
        rate_limiter=RateLimiter.from_settings(settings),
        request_log=RequestLogWriter(db),
        settlements=SettlementWriter(db),
        providers=build_providers(settings),
        screening=screening,
        sandbox_screening=ScreeningEngine(sandbox_snapshots()),
        reviews=ReviewPresence(db, settings.key_cache_seconds),
    )


async def _housekeeping(runtime: Runtime) -> None:
    """Release holds left by crashed calls; drop expired idempotency keys and old logs."""
    while True:
        try:
            await runtime.media.refresh(runtime.db)
            await runtime.faces.refresh(runtime.db)
            await release_expired_holds(runtime.db)
            await purge_idempotency(runtime.db)
            await purge_request_log(runtime.db, runtime.settings.request_log_retention_days)
        except Exception:
            logger.exception("housekeeping failed; retrying later")
        await asyncio.sleep(HOUSEKEEPING_SECONDS)


@asynccontextmanager
async def started(settings: Settings, *, run_jobs: bool) -> AsyncIterator[Runtime]:
    """A running service without HTTP: the runtime, its writers, housekeeping and (when
    ``run_jobs``, in embedded mode) the job worker; all stopped in order when the block ends.
    In procrastinate mode only `hakiki worker` processes run jobs."""
    runtime = await build_runtime(settings)
    # The screening index is millions of long-lived objects: move them out of the garbage
    # collector's sight, or every full collection pauses the server for hundreds of ms.
    gc.collect()
    gc.freeze()
    await runtime.request_log.start()
    await runtime.settlements.start()
    if run_jobs and settings.jobs_backend == "embedded":
        runtime.jobs = job_worker(runtime)
        await runtime.jobs.start()
    housekeeping = asyncio.create_task(_housekeeping(runtime))
    try:
        yield runtime
    finally:
        housekeeping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await housekeeping
        if runtime.jobs is not None:
            await runtime.jobs.stop()
        await runtime.settlements.stop()
        await runtime.request_log.stop()
        for provider in runtime.providers:
            await provider.aclose()
        await runtime.rate_limiter.aclose()
        await runtime.aclose_outbound()
        await runtime.db.dispose()
        runtime.scoring.shutdown(wait=False)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with started(settings, run_jobs=settings.jobs_in_server) as runtime:
            app.state.runtime = runtime
            yield

    app = FastAPI(
        title="Hakiki",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.add_middleware(RequestContextMiddleware)
    app.include_router(screening_router)
    app.include_router(kyc_router)
    app.include_router(fraud_router)
    app.include_router(fraud_scan_router)
    app.include_router(bulk_scan_router)
    app.include_router(account_router)
    app.include_router(lists_router)
    app.include_router(review_router)
    app.include_router(webhooks_router)
    customise_openapi(app)
    return app
