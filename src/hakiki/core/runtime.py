"""Everything a running service holds: built once at start-up, shared by all requests.

The plumbing every endpoint shares is typed here; each domain's own state (identity providers,
screening engines, the face bank, ...) is a *part*, added by the composition root
(``hakiki/runtime.py``) and read by the domain with ``runtime.part(FaceBank)``, so core never
imports a domain."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

import httpx

from hakiki.core.auth import KeyCache, SessionCheck
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

if TYPE_CHECKING:
    from hakiki.core.jobs.worker import JobWorker


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
    jobs: JobWorker | None = None  # the embedded job worker, when this process runs jobs
    session_check: SessionCheck | None = None  # console sessions, registered by the root
    parts: dict[type, Any] = field(default_factory=dict)  # each domain's state, by its type
    _outbound: httpx.AsyncClient | None = None
    _embedder: FaceEmbedder | None = None

    # Screenings over the full lists run here, off the event loop, so a heavy query delays
    # only other screenings, never the server's I/O. One worker: the GIL allows no more.
    scoring: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="scoring")
    )

    def add_part(self, part: object) -> None:
        self.parts[type(part)] = part

    def part(self, kind: type[T]) -> T:
        """The domain state of type ``kind`` that the composition root added."""
        try:
            return cast(T, self.parts[kind])
        except KeyError:
            raise LookupError(f"this runtime holds no {kind.__name__}") from None

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
