"""Everything a running service holds: built once at start-up, shared by all requests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import httpx

from hakiki.core.auth import KeyCache
from hakiki.core.crypto import Vault
from hakiki.core.database import Database
from hakiki.core.rate_limit import RateLimiter
from hakiki.core.request_log.service import RequestLogWriter
from hakiki.core.settings import Settings
from hakiki.core.settlement import SettlementWriter
from hakiki.engines.face import FaceEmbedder
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.results import ScreeningResult
from hakiki.engines.screening.subject import Subject
from hakiki.fraud.face_bank import FaceBank
from hakiki.media.service import MediaLibrary
from hakiki.providers.base import IdentityProvider

if TYPE_CHECKING:
    from hakiki.jobs.worker import JobWorker
    from hakiki.screening.review_service import ReviewPresence

T = TypeVar("T")
SMALL_ENGINE = 1000  # entities; below this a screening takes microseconds


@dataclass
class Runtime:
    settings: Settings
    db: Database
    vault: Vault
    key_cache: KeyCache
    rate_limiter: RateLimiter
    request_log: RequestLogWriter
    settlements: SettlementWriter  # finished calls' writes, committed in groups
    providers: list[IdentityProvider]
    screening: ScreeningEngine  # the official lists, for live keys
    sandbox_screening: ScreeningEngine  # the sandbox's fictional lists, for sandbox keys
    reviews: ReviewPresence  # which organisations have reviewed hits
    media: MediaLibrary = field(default_factory=MediaLibrary)  # ingested news, live only
    faces: FaceBank = field(default_factory=FaceBank)  # faces seen with numbers and reports
    jobs: JobWorker | None = None  # the embedded job worker, when this process runs jobs
    _outbound: httpx.AsyncClient | None = None
    _embedder: FaceEmbedder | None = None

    # Screenings over the full lists run here, off the event loop, so a heavy query delays
    # only other screenings, never the server's I/O. One worker: the GIL allows no more.
    scoring: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="scoring")
    )

    async def screen(
        self,
        engine: ScreeningEngine,
        subject: Subject,
        *,
        checks: Collection[str],
        threshold: float,
        limit: int = 10,
    ) -> ScreeningResult:
        """Screen with ``engine``: small engines (the sandbox's) inline, large ones in the
        scoring thread."""
        work: Callable[[], ScreeningResult] = lambda: engine.screen(  # noqa: E731
            subject, checks=checks, threshold=threshold, limit=limit
        )
        if engine.entity_count < SMALL_ENGINE:
            return work()
        return await self.offload(work)

    async def offload(self, work: Callable[[], T]) -> T:
        """Run CPU-heavy work in the scoring thread."""
        return await asyncio.get_running_loop().run_in_executor(self.scoring, work)

    def face_embedder(self) -> FaceEmbedder:
        """dlib's models, loaded on first use (about 0.5 s), then shared."""
        if self._embedder is None:
            self._embedder = FaceEmbedder()
        return self._embedder

    def outbound_http(self) -> httpx.AsyncClient:
        """One client for calls to customers' URLs (webhooks): its TLS context and connections
        are reused (a new client costs tens of ms); redirects are never followed."""
        if self._outbound is None:
            self._outbound = httpx.AsyncClient(follow_redirects=False)  # timeouts per call
        return self._outbound

    async def aclose_outbound(self) -> None:
        if self._outbound is not None:
            await self._outbound.aclose()
            self._outbound = None

    def price(self, endpoint: str) -> int:
        return self.settings.price(endpoint)
