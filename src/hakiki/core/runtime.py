"""Everything a running service holds: built once at start-up, shared by all requests.

The plumbing every endpoint shares is typed here; each domain's own state (identity providers,
screening engines, the face bank, ...) is a *part*, added by the composition root
(``hakiki/runtime.py``) and read by the domain with ``runtime.part(FaceBank)``, so core never
imports a domain."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

import httpx

from hakiki.core.auth import KeyCache, SessionCheck
from hakiki.core.crypto import Vault
from hakiki.core.database import Database
from hakiki.core.pools import WorkPool
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
UserLookup = Callable[[Database, Vault, str], Awaitable[dict[str, Any] | None]]
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
    # A console user by e-mail address (the row, or None), registered by the root: screening's
    # alert queue assigns alerts to users without importing the console (which shows the queue).
    user_by_email: UserLookup | None = None
    parts: dict[type, Any] = field(default_factory=dict)  # each domain's state, by its type
    _outbound: httpx.AsyncClient | None = None
    _embedder: FaceEmbedder | None = None

    # CPU-heavy work runs off the event loop in a pool of its own kind, so that one kind never
    # waits behind another: a live screening is never queued behind a document's images. Each
    # organisation has one turn at a time in each pool (docs/decisions.md, issue 30).
    # Screenings (and their adverse-media pass) over the full lists: one thread, as the GIL
    # allows no more for pure-Python scoring.
    scoring: WorkPool = field(default_factory=lambda: WorkPool("scoring", workers=1, per_tenant=1))
    # Image decoding, document analysis and face embedding (documents, face scans, fraud
    # reports, bulk face scans): Pillow and dlib release the GIL while they decode and detect.
    images: WorkPool = field(default_factory=lambda: WorkPool("images", workers=2, per_tenant=1))

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
        tenant: str,
        checks: Collection[str],
        threshold: float,
        limit: int = 10,
    ) -> ScreeningResult:
        """Screen with ``engine`` for the organisation ``tenant``: small engines (the
        sandbox's) inline, large ones in the scoring pool."""
        work: Callable[[], ScreeningResult] = lambda: engine.screen(  # noqa: E731
            subject, checks=checks, threshold=threshold, limit=limit
        )
        if engine.entity_count < SMALL_ENGINE:
            return work()
        return await self.scoring.run(work, tenant=tenant)

    def shutdown_pools(self) -> None:
        self.scoring.shutdown()
        self.images.shutdown()

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
