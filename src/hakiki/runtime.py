"""The composition root of a running service: builds the core runtime, adds every domain's
state to it as a part, and runs the background work (writers, housekeeping, the job worker).

This module and ``app.py``, ``cli.py``, ``tasks.py`` and ``tables.py`` are the only ones that
know every domain (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

from hakiki import tasks as _tasks  # noqa: F401  (registers every durable task)
from hakiki.console.records import creator_scopes
from hakiki.console.sessions import api_principal
from hakiki.console.sessions import purge_expired as purge_console_sessions
from hakiki.console.throttle import LoginThrottle, ResetThrottle
from hakiki.console.users import find_by_email
from hakiki.core.auth import KeyCache
from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.data_dir import secure_data_dir
from hakiki.core.database import create_database
from hakiki.core.idempotency.service import purge_expired as purge_idempotency
from hakiki.core.jobs.worker import job_worker
from hakiki.core.privacy.audit import AuditWriter
from hakiki.core.providers.breaker import BreakerPolicy
from hakiki.core.providers.live import Lister, LiveProviders, Stater
from hakiki.core.rate_limit import RateLimiter
from hakiki.core.request_log.service import RequestLogWriter
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings
from hakiki.core.settlement import SettlementWriter
from hakiki.core.wallet.service import release_expired_holds
from hakiki.credit.providers.registry import CreditBureaus, build_bureaus
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.evaluation.credit_reports import CreditBureauReports
from hakiki.evaluation.sources import EvaluationSources
from hakiki.evaluation.statement_analyses import StatementCashFlows
from hakiki.fraud.face_bank import FaceBank
from hakiki.fraud.observations import purge_expired as purge_sightings
from hakiki.identity.providers.registry import Providers
from hakiki.kyb.providers.registry import Registries
from hakiki.lists import watch as list_watch
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.sandbox import sandbox_snapshots
from hakiki.lists.service import load_current_engine, warn_if_stale
from hakiki.lists.watch import ListWatch
from hakiki.media.service import MediaLibrary
from hakiki.privacy.retention import apply as apply_retention
from hakiki.screening import monitoring_schedule
from hakiki.screening.review_service import ReviewPresence
from hakiki.screening.watchlists.files import WatchlistIndexes
from hakiki.screening.watchlists.presence import WatchlistPresence
from hakiki.statements.service import purge_files as purge_statement_files
from hakiki.tax.providers.registry import TaxProviders
from hakiki.vehicle.providers import build_vehicle_registries
from hakiki.vehicle.registry import VehicleRegistries
from hakiki.verification.images import purge_expired as purge_verification_images

logger = logging.getLogger("hakiki")

HOUSEKEEPING_SECONDS = 60.0


async def build_runtime(settings: Settings) -> Runtime:
    secure_data_dir(settings.data_dir)  # 0700 and 0600, tightened when found wider
    db = create_database(settings)
    vault = Vault(load_master_key(settings))
    runtime = Runtime(
        settings=settings,
        db=db,
        vault=vault,
        key_cache=KeyCache(db, settings.key_cache_seconds, creator_scopes=creator_scopes),
        rate_limiter=RateLimiter.from_settings(settings),
        request_log=RequestLogWriter(db),
        settlements=SettlementWriter(db, vault),
    )
    runtime.add_part(AuditWriter(db))  # the audit log's batches (docs/privacy.md)
    runtime.add_part(Providers.from_settings(settings))
    runtime.add_part(Registries.from_settings(settings))  # KYB business registries
    runtime.add_part(
        VehicleRegistries(
            build_vehicle_registries(settings),
            settings.provider_order,
            BreakerPolicy(
                settings.provider_breaker_failures, settings.provider_breaker_cooldown_seconds
            ),
        )
    )
    runtime.add_part(TaxProviders.from_settings(settings))
    runtime.add_part(CreditBureaus(build_bureaus(settings)))
    runtime.add_part(_live_providers(runtime))
    runtime.add_part(
        ScreeningEngines.loading(lambda: _official_engine(settings), _sandbox_engine())
    )
    runtime.add_part(ListWatch())  # what this process last read of the lists' versions
    runtime.add_part(ReviewPresence(db, settings.key_cache_seconds))
    runtime.add_part(WatchlistPresence(db, settings.key_cache_seconds))
    runtime.add_part(WatchlistIndexes())  # organisations' own lists, loaded at first use
    runtime.add_part(MediaLibrary())  # ingested news, live only
    runtime.add_part(FaceBank())  # faces seen with numbers and reports
    sources = EvaluationSources.from_settings(settings)  # 360 reference files and hooks
    sources.bureau = CreditBureauReports(db, vault)
    sources.statements = StatementCashFlows(runtime)
    runtime.add_part(sources)
    runtime.add_part(LoginThrottle.from_settings(settings, runtime.rate_limiter.storage))
    runtime.add_part(ResetThrottle.from_settings(settings, runtime.rate_limiter.storage))
    runtime.session_check = api_principal  # the console cookie authenticates API calls
    runtime.user_by_email = find_by_email  # alerts are assigned to console users
    return runtime


class _Listed(Protocol):
    def channels(self) -> list[dict[str, Any]]: ...

    def states(self) -> dict[str, dict[str, Any]]: ...


def _live_providers(runtime: Runtime) -> LiveProviders:
    """Every category's live channels and breakers, read from its part when asked (a part
    replaced at run time is seen)."""
    live = LiveProviders()
    parts: dict[str, type[_Listed]] = {
        "identity": Providers,
        "tax": TaxProviders,
        "kyb": Registries,
        "vehicle": VehicleRegistries,
    }
    for category, kind in parts.items():
        live.add(category, *_readers(runtime, kind))
    return live


def _readers(runtime: Runtime, kind: type[_Listed]) -> tuple[Lister, Stater]:
    def channels() -> list[dict[str, Any]]:
        return runtime.part(kind).channels()

    def states() -> dict[str, dict[str, Any]]:
        return runtime.part(kind).states()

    return channels, states


async def _lists_from_database(runtime: Runtime) -> None:
    try:
        await list_watch.sync_from_database(runtime)
    except Exception:  # the watch looks again every HAKIKI_LISTS_CHECK_SECONDS
        logger.exception("could not read the current list versions; starting with the disk's")


def _official_engine(settings: Settings) -> ScreeningEngine:
    engine = load_current_engine(settings, freeze=True)
    warn_if_stale(engine, settings)
    return engine


def _sandbox_engine() -> ScreeningEngine:
    return ScreeningEngine(sandbox_snapshots())


async def _housekeeping(runtime: Runtime) -> None:
    """Release holds left by crashed calls; drop expired idempotency keys, old logs and
    expired fraud sightings and bureau reports."""
    await runtime.part(MediaLibrary).refresh(runtime.db)
    await runtime.part(FaceBank).refresh(runtime.db)
    await release_expired_holds(runtime.db)
    await purge_idempotency(runtime.db)
    await purge_sightings(runtime.db, runtime.settings.fraud_sighting_retention_days)
    # The request log and bureau reports by each organisation's retention (issue 40).
    await apply_retention(runtime.db, runtime.settings)
    await purge_statement_files(runtime.db, runtime.settings.statement_file_retention_days)
    await purge_console_sessions(runtime.db)
    await purge_verification_images(runtime.db)


async def _every(
    seconds: float, chore: Callable[[Runtime], Awaitable[None]], runtime: Runtime, name: str
) -> None:
    """Run a process's periodic chore now, then every ``seconds`` after each run ends."""
    while True:
        try:
            await chore(runtime)
        except Exception:
            logger.exception("%s failed; retrying later", name)
        await asyncio.sleep(seconds)


async def _monitoring(runtime: Runtime) -> None:
    """Ongoing monitoring's tick (screening/monitoring_schedule.py), in the processes that run
    jobs: a changed list starts a delta run, each day a full pass and a billing run."""
    seconds = runtime.settings.monitoring_check_seconds
    if seconds <= 0:
        return
    while True:
        await asyncio.sleep(seconds)
        try:
            await monitoring_schedule.tick(runtime)
        except Exception:
            logger.exception("monitoring tick failed; retrying later")


@asynccontextmanager
async def started(
    settings: Settings, *, run_jobs: bool, load_screening: bool = False
) -> AsyncIterator[Runtime]:
    """A running service without HTTP: the runtime, its writers, housekeeping and (when
    ``run_jobs``, in embedded mode) the job worker; all stopped in order when the block ends.
    In procrastinate mode only `hakiki worker` processes run jobs. The live screening engine
    is loaded now with ``load_screening`` (the server), else at its first use."""
    runtime = await build_runtime(settings)
    # The screening index is millions of long-lived objects: move them out of the garbage
    # collector's sight, or every full collection pauses the server for hundreds of ms. The
    # start's garbage is collected before the index is loaded (its load makes none), not after:
    # a collection over the index costs a quarter of a second.
    gc.collect()
    if load_screening:
        await _lists_from_database(runtime)  # a version stored from another machine first
        await runtime.part(ScreeningEngines).load_live()
    gc.freeze()
    await runtime.request_log.start()
    await runtime.part(AuditWriter).start()
    await runtime.settlements.start()
    if run_jobs and settings.jobs_backend == "embedded":
        runtime.jobs = job_worker(runtime)
        await runtime.jobs.start()
    chores = [
        asyncio.create_task(_every(HOUSEKEEPING_SECONDS, _housekeeping, runtime, "housekeeping")),
        # Every API and worker process: a new list version in use here without a restart.
        asyncio.create_task(
            _every(settings.lists_check_seconds, list_watch.look, runtime, "list watch")
        ),
    ]
    # the processes that run jobs: embedded servers and workers, and scaled mode's workers
    scaled_mode = settings.jobs_backend == "procrastinate"
    if (run_jobs and not scaled_mode) or (scaled_mode and not load_screening):
        chores.append(asyncio.create_task(_monitoring(runtime)))
    try:
        yield runtime
    finally:
        for chore in chores:
            chore.cancel()
        for chore in chores:
            with contextlib.suppress(asyncio.CancelledError):
                await chore
        if runtime.jobs is not None:
            await runtime.jobs.stop()
        await runtime.settlements.stop()
        await runtime.request_log.stop()
        await runtime.part(AuditWriter).stop()
        await runtime.part(Providers).aclose()
        await runtime.part(Registries).aclose()
        await runtime.part(VehicleRegistries).aclose()
        await runtime.part(TaxProviders).aclose()
        await runtime.part(CreditBureaus).aclose()
        await runtime.rate_limiter.aclose()
        await runtime.aclose_outbound()
        await runtime.db.dispose()
        runtime.shutdown_pools()


async def work(settings: Settings, stop: asyncio.Event, on_ready: Callable[[], None]) -> None:
    """Run jobs without HTTP until ``stop`` is set: the embedded worker, or procrastinate's."""
    scaled_mode = settings.jobs_backend == "procrastinate"
    async with started(settings, run_jobs=not scaled_mode) as runtime:
        if scaled_mode:
            from hakiki.core.jobs.scaled.worker import run

            await run(runtime, stop, on_ready)
        else:
            on_ready()
            await stop.wait()
