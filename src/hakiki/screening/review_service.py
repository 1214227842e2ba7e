"""The review workflow: an analyst marks a hit as a false positive or a true match for one
subject; a false positive is left out of that subject's later screenings until the list entry
changes (its fingerprint). Reviews are appended, never edited: the table is the audit trail."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import orjson

from hakiki.core.auth import Principal
from hakiki.core.cache import RefreshingCache
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.subject import Subject
from hakiki.lists.engines import ScreeningEngines
from hakiki.screening import repository
from hakiki.screening.alerts_service import resolve_for_review
from hakiki.screening.review_schemas import (
    HitReview,
    Review,
    ReviewList,
    ReviewRequest,
    SuppressedHit,
)
from hakiki.screening.schemas import AmlHit, AmlResult

_NOT_WORD = re.compile(r"[^\w]+")


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(_NOT_WORD.sub(" ", stripped.casefold()).split())


def name_subject_key(vault: Vault, subject: Subject) -> str:
    """The same person screened again with the same details gets the same key; the key is a
    keyed hash, so it reveals nothing about the person."""
    return vault.lookup_hash(
        "subject",
        "name",
        subject.schema,
        _plain(subject.full_name),
        subject.birth_date or "",
        ",".join(sorted(subject.country_codes)),
    )


def id_subject_key(vault: Vault, country: str, channel: str, number: str) -> str:
    return vault.lookup_hash("subject", "id", country, channel, number)


def _opened(vault: Vault, row: dict[str, Any]) -> dict[str, Any]:
    """A stored review with its reason and reviewer decrypted (both are personal data)."""
    return {
        **row,
        "reason": vault.decrypt(row["reason_encrypted"]),
        "reviewer": vault.decrypt(row["reviewer_encrypted"]),
    }


def _hit_review(vault: Vault, row: dict[str, Any], fingerprint: str) -> HitReview:
    opened = _opened(vault, row)
    return HitReview(
        id=row["id"],
        decision=row["decision"],
        reviewer=opened["reviewer"],
        reason=opened["reason"],
        created_at=row["created_at"],
        applies=row["entity_fingerprint"] == fingerprint,
    )


class ReviewPresence:
    """Which organisations have any review at all, cached like API keys: most screenings then
    need no review query. A review made on this process counts at once; one made on another
    process within the cache time."""

    def __init__(self, db: Database, ttl_seconds: float) -> None:
        self._db = db
        self._cache: RefreshingCache[tuple[str, str], bool] = RefreshingCache(
            self._load, ttl_seconds
        )

    async def _load(self, key: tuple[str, str]) -> bool:
        async with read(self._db) as conn:
            return await repository.has_reviews(conn, *key)

    async def any(self, principal: Principal) -> bool:
        return await self._cache.get((principal.org_id, principal.environment))

    def mark(self, principal: Principal) -> None:
        self._cache.put((principal.org_id, principal.environment), True)


async def apply_reviews(runtime: Runtime, principal: Principal, aml: AmlResult) -> AmlResult:
    """Leave out the subject's reviewed false positives; annotate other reviewed hits."""
    if not aml.hits or not await runtime.part(ReviewPresence).any(principal):
        return aml  # nothing to review: spare the query
    async with read(runtime.db) as conn:
        rows = await repository.reviews_for_subject(
            conn, principal.org_id, principal.environment, aml.subject_key
        )
    if not rows:
        return aml
    latest = {(row["list_code"], row["entity_id"]): row for row in rows}
    kept: list[AmlHit] = []
    suppressed: list[SuppressedHit] = []
    for hit in aml.hits:
        row = latest.get((hit.list_code, hit.entity_id))
        if row is None:
            kept.append(hit)
            continue
        review = _hit_review(runtime.vault, row, hit.entity_fingerprint)
        if review.decision == "false_positive" and review.applies:
            suppressed.append(
                SuppressedHit(
                    list_code=hit.list_code,
                    entity_id=hit.entity_id,
                    entity_name=hit.entity_name,
                    score=hit.score,
                    review=review,
                )
            )
        else:
            kept.append(hit.model_copy(update={"review": review}))
    return aml.model_copy(update={"hits": kept, "suppressed": suppressed})


def _named(engine: ScreeningEngine, review: Review) -> Review:
    """The review with its entry's name and list title, from the loaded lists (an O(log n)
    look-up of the entry's id key, engine.find_entity): the review row stores neither."""
    entry = engine.find_entity(review.list_code, review.entity_id)
    if entry is None:
        return review
    title = next((v.title for v in engine.lists if v.code == review.list_code), None)
    return review.model_copy(update={"entity_name": entry.primary_name, "list_title": title})


async def create_review(call: Call, body: ReviewRequest) -> bytes:
    # Who reviewed is the caller, never the body (issue 30).
    review = Review(
        id=new_id("rev"), created_at=utcnow(), reviewer=call.principal.actor, **body.model_dump()
    )
    engine = await call.runtime.part(ScreeningEngines).for_environment(call.principal.live)
    review = _named(engine, review)
    vault = call.runtime.vault

    async def write(conn: Any) -> None:
        row = {
            **review.model_dump(exclude={"reason", "reviewer", "entity_name", "list_title"}),
            "reason_encrypted": vault.encrypt(review.reason),
            "reviewer_encrypted": vault.encrypt(review.reviewer),
            "org_id": call.principal.org_id,
            "environment": call.principal.environment,
            "api_key_id": call.principal.key_id,
        }
        await repository.insert_review(conn, row)
        await resolve_for_review(conn, vault, row, actor=review.reviewer, reason=review.reason)

    body_bytes = await finish_write(
        call,
        write,
        lambda: orjson.dumps(review.model_dump(mode="json")),
        description="Screening review",
        status_code=201,
    )
    call.runtime.part(ReviewPresence).mark(call.principal)
    return body_bytes


async def list_reviews(
    runtime: Runtime, principal: Principal, filters: dict[str, str | None], page: PageRequest
) -> ReviewList:
    async with read(runtime.db) as conn:
        total = await repository.count_reviews(
            conn, principal.org_id, principal.environment, filters
        )
        rows = await repository.list_reviews(
            conn,
            principal.org_id,
            principal.environment,
            filters,
            offset=page.offset,
            limit=page.page_size,
        )
    engine = await runtime.part(ScreeningEngines).for_environment(principal.live)
    return ReviewList(
        data=[_named(engine, Review(**_opened(runtime.vault, row))) for row in rows],
        pagination=page.describe(total),
    )
