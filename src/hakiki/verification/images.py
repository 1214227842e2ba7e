"""Keeping a session's images for review (issue 37): off unless the organisation opts in, per
environment (GET/PUT /v3/account/verification-settings). Opted in, the document photo and the
liveness frames of each submission are sealed (the vault's authenticated encryption) and kept
until ``retention_days`` after it; housekeeping deletes them then (purge_expired). The
setting's change applies to submissions from then on."""

from __future__ import annotations

import base64
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import clock
from hakiki.core.auth import Principal
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction
from hakiki.core.ids import new_id
from hakiki.core.runtime import Runtime
from hakiki.verification import images_repository as repository
from hakiki.verification.schemas import ImageSettings, ImageSettingsRequest

DEFAULT_RETENTION_DAYS = 30


def _out(row: dict[str, Any] | None, vault: Vault) -> ImageSettings:
    if row is None:
        return ImageSettings(
            keep_images=False,
            retention_days=DEFAULT_RETENTION_DAYS,
            updated_at=None,
            updated_by=None,
        )
    return ImageSettings(
        keep_images=row["keep_images"],
        retention_days=row["retention_days"],
        updated_at=row["updated_at"],
        updated_by=vault.decrypt(row["updated_by_encrypted"]),
    )


async def read_settings(runtime: Runtime, owner: tuple[str, str]) -> ImageSettings:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        row = await repository.get_settings(conn, org_id, environment)
    return _out(row, runtime.vault)


async def put_settings(
    runtime: Runtime, principal: Principal, body: ImageSettingsRequest
) -> ImageSettings:
    vault = runtime.vault
    row = {
        "org_id": principal.org_id,
        "environment": principal.environment,
        "keep_images": body.keep_images,
        "retention_days": body.retention_days,
        "updated_at": clock.utcnow(),
        # who set it may be a console user's e-mail address: personal data, encrypted
        "updated_by_encrypted": vault.encrypt(principal.actor),
    }
    async with transaction(runtime.db) as conn:
        await repository.put_settings(conn, row)
    return _out(row, vault)


async def keep_submitted(
    conn: AsyncConnection,
    vault: Vault,
    row: dict[str, Any],
    document: bytes | None,
    frames: list[tuple[int, bytes]],
    now: datetime,
) -> int:
    """Seal and keep the submission's images when the session's organisation opted in (in
    the submission's transaction); how many were kept."""
    setting = await repository.get_settings(conn, row["org_id"], row["environment"])
    if setting is None or not setting["keep_images"]:
        return 0
    delete_after = now + timedelta(days=int(setting["retention_days"]))
    common = {
        "session_id": row["id"],
        "org_id": row["org_id"],
        "environment": row["environment"],
        "created_at": now,
        "delete_after": delete_after,
    }
    kept: list[dict[str, Any]] = []
    if document is not None:
        kept.append(
            {**common, "id": new_id("vim"), "kind": "document", "position": 0, "t_ms": None,
             "image_sealed": vault.seal(document)}
        )  # fmt: skip
    for position, (t_ms, frame) in enumerate(frames):
        kept.append(
            {**common, "id": new_id("vim"), "kind": "frame", "position": position, "t_ms": t_ms,
             "image_sealed": vault.seal(frame)}
        )  # fmt: skip
    await repository.insert_images(conn, kept)
    return len(kept)


def _media_type(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "image/jpeg"


async def kept_images(
    runtime: Runtime, owner: tuple[str, str], session_ids: list[str]
) -> dict[str, list[dict[str, Any]]]:
    """The kept images of these sessions, opened, as data: URLs with their kind, frame time
    and deletion date, by session id (for the console's session page)."""
    environment, org_id = owner
    async with read(runtime.db) as conn:
        rows = await repository.images_of(conn, org_id, environment, session_ids, clock.utcnow())
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        data = runtime.vault.unseal(row["image_sealed"])
        found.setdefault(row["session_id"], []).append(
            {
                "kind": row["kind"],
                "t_ms": row["t_ms"],
                "delete_after": row["delete_after"],
                "src": f"data:{_media_type(data)};base64,{base64.b64encode(data).decode()}",
            }
        )
    return found


async def purge_expired(db: Database) -> int:
    """Delete the kept images whose retention ended (housekeeping)."""
    async with transaction(db) as conn:
        return await repository.purge_images(conn, clock.utcnow())
