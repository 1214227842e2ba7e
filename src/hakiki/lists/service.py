"""List updates, the engine built from the newest good versions, and the lists' status.

* :func:`update_lists` downloads each official list, parses and validates it, stores the files
  and makes the version current; a failure keeps the last good version. Every attempt is a row
  in ``list_versions``.
* :func:`load_current_engine` (in ``loading``) builds the :class:`ScreeningEngine` the API and
  ``hakiki screen`` use: the newest good downloaded version of each list, else the bundled
  snapshot.
* :func:`reload` builds that engine in a thread and swaps it into the runtime's
  ``ScreeningEngines``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import httpx
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.settings import Settings
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListSnapshot
from hakiki.lists import repository, store
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.fetch import DownloadError, download_to, make_client
from hakiki.lists.loading import (
    LoadedList,
    bundled_by_code,
    bundled_count,
    describe_engine,
    load_current_engine,
    planned_lists,
)
from hakiki.lists.outcomes import age_days, is_stale
from hakiki.lists.sources import (
    STREAMED_FORMATS,
    ListsConfig,
    ListSource,
    configured_sources,
    enabled_sources,
    parse_source,
    parse_stream,
    undated_version,
)
from hakiki.webhooks import service as webhooks

if TYPE_CHECKING:
    from hakiki.core.runtime import Runtime

logger = logging.getLogger("hakiki.lists")


class ListValidationError(ValueError):
    """A downloaded version was refused (empty, collapsed, too many unusable records)."""


@dataclass(frozen=True, slots=True)
class UpdateOutcome:
    code: str
    status: Literal["ok", "failed"]
    version: str | None
    entity_count: int | None
    sha256: str | None
    error: str | None
    fetched_at: datetime
    previous_version: str | None  # the downloaded version in use before (None: bundled or none)
    # A new version (another file set than the one in use): recorded as current in the
    # database and announced, by this update only (two updates of one list never both).
    changed: bool = False
    published: str | None = None  # the publisher's date inside the files (None: unknown)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["fetched_at"] = self.fetched_at.isoformat()
        return data


async def reload(runtime: Runtime, settings: Settings | None = None) -> ScreeningEngine:
    """Build the current engine in a child process (``build_elsewhere``: the build's garbage
    never enters the serving process), load it here from the index cache it wrote, then swap
    it in with one assignment.

    Requests already screening keep the engine they started with; the next ones get the new
    one. Call it after :func:`update_lists` reported a changed list.
    """
    engine = await asyncio.to_thread(
        lambda: load_current_engine(settings or runtime.settings, build_elsewhere=True)
    )
    runtime.part(ScreeningEngines).live = engine
    logger.info(
        "screening lists reloaded: %s",
        ", ".join(f"{v.code} {v.version}" for v in engine.lists),
    )
    return engine


# ---------------------------------------------------------------------------------------------
# Updating


def select_sources(config: ListsConfig, codes: list[str] | None) -> list[ListSource]:
    """The enabled sources, or exactly the named ones (named lists run even when disabled)."""
    if not codes:
        return enabled_sources(config)
    by_code = {source.code: source for source in configured_sources(config)}
    unknown = [code for code in codes if code not in by_code]
    if unknown:
        raise ValueError(f"unknown list {', '.join(unknown)}; known: {', '.join(sorted(by_code))}")
    return [by_code[code] for code in dict.fromkeys(codes)]


async def update_lists(
    settings: Settings,
    db: Database,
    *,
    codes: list[str] | None = None,
    config: ListsConfig | None = None,
) -> list[UpdateOutcome]:
    """Download, validate and store a new version of each list; record every attempt."""
    config = config or ListsConfig()
    sources = select_sources(config, codes)
    outcomes: list[UpdateOutcome] = []
    async with make_client(config.timeout_seconds) as client:
        for source in sources:
            outcome = await _update_one(settings, db, config, client, source)
            outcomes.append(outcome)
    return outcomes


async def load_file(
    settings: Settings, db: Database, source: ListSource, config: ListsConfig | None = None
) -> UpdateOutcome:
    """Store a list from the operator's own file(s) (``hakiki lists load``): read, parse,
    validate and record it exactly as an update would (``source.files`` are paths)."""
    config = config or ListsConfig()
    async with make_client(config.timeout_seconds) as client:
        return await _update_one(settings, db, config, client, source)


async def _update_one(
    settings: Settings,
    db: Database,
    config: ListsConfig,
    client: httpx.AsyncClient,
    source: ListSource,
) -> UpdateOutcome:
    fetched_at = utcnow()
    before = store.current_version(settings.data_dir, source.code)
    downloaded: list[Path] = []
    try:
        # each file goes to disk a chunk at a time, then is parsed from there (a line at a
        # time for the streamed formats) and gzipped into the store as a stream
        files: dict[str, Path] = {}
        incoming = await asyncio.to_thread(store.incoming_folder, settings.data_dir, source.code)
        for role, url in source.files.items():
            files[role], temporary = await download_to(
                client,
                url,
                incoming,
                max_bytes=config.max_bytes,
                retries=config.retries,
                backoff_seconds=config.retry_backoff_seconds,
                headers=source.headers,
            )
            if temporary:
                downloaded.append(files[role])
        stored = await asyncio.to_thread(
            _validate_and_store, settings.data_dir, source, files, config, fetched_at
        )
        gzipped = await asyncio.to_thread(store.gzipped_files, settings.data_dir, stored)
    except Exception as exc:
        error = _describe_error(exc)
        logger.warning("list %s not updated: %s", source.code, error)
        outcome = UpdateOutcome(
            source.code,
            "failed",
            None,
            None,
            None,
            error,
            fetched_at,
            before.version if before else None,
        )
        async with transaction(db) as conn:
            await repository.record_attempt(
                conn, code=outcome.code, fetched_at=fetched_at, status="failed", error=error
            )
        return outcome
    finally:
        for path in downloaded:
            path.unlink(missing_ok=True)
    async with transaction(db) as conn:
        await repository.record_attempt(
            conn,
            code=source.code,
            fetched_at=fetched_at,
            status="ok",
            version=stored.version,
            entity_count=stored.entity_count,
            sha256=stored.sha256,
        )
        outcome = await _make_current(conn, stored, gzipped, before, fetched_at)
    return outcome


async def _make_current(
    conn: AsyncConnection,
    stored: store.StoredVersion,
    gzipped: dict[str, bytes],
    before: store.StoredVersion | None,
    fetched_at: datetime,
) -> UpdateOutcome:
    """Record ``stored`` as the version every process screens with (its files too, for the
    processes on other machines) and announce it when it is new: under the list's row lock, so
    of two updates that store the same version, one announces it."""
    current = await repository.lock_current(conn, stored.code)
    previous_version: str | None
    previous_sha: str | None
    if current is not None:
        previous_version, previous_sha = str(current["version"]), str(current["sha256"])
    else:  # nothing recorded yet (the first update, or one from before the table existed)
        previous_version = before.version if before else None
        previous_sha = before.sha256 if before else None
    if current is None or current["sha256"] != stored.sha256:
        if not await repository.has_files(conn, stored.sha256):
            for role, data in sorted(gzipped.items()):
                await repository.save_file(conn, stored.sha256, role, data)
        await repository.set_current(
            conn,
            code=stored.code,
            version=stored.version,
            folder=stored.folder,
            sha256=stored.sha256,
            manifest=json.dumps(stored.manifest),
        )
    outcome = UpdateOutcome(
        stored.code,
        "ok",
        stored.version,
        stored.entity_count,
        stored.sha256,
        None,
        fetched_at,
        previous_version,
        changed=stored.sha256 != previous_sha,
        published=stored.published,
    )
    if outcome.changed:
        await webhooks.broadcast(
            conn,
            event_type="screening.list_updated",
            resource_id=outcome.code,
            data=_list_updated(outcome),
        )
    return outcome


def _list_updated(outcome: UpdateOutcome) -> dict[str, Any]:
    """The data of a screening.list_updated event."""
    return {
        "list_code": outcome.code,
        "version": str(outcome.version),
        "previous_version": outcome.previous_version,
        "entity_count": outcome.entity_count,
        # The publisher's date inside the files; null when the files carry none (OFAC CSV).
        "published": outcome.published,
        "fetched_at": outcome.fetched_at.isoformat(),
    }


def _describe_error(exc: Exception) -> str:
    if isinstance(exc, DownloadError | ListValidationError):
        text = str(exc)
    else:  # parsers meeting garbage may raise anything
        text = f"could not parse: {exc.__class__.__name__}: {exc}"
    return text[:1000]


def _validate_and_store(
    data_dir: Path,
    source: ListSource,
    files: dict[str, Path],
    config: ListsConfig,
    fetched_at: datetime,
) -> store.StoredVersion:
    metas = {role: store.file_meta(path) for role, path in files.items()}
    undated = undated_version(store.digest_of({role: sha for role, (sha, _) in metas.items()}))
    role = STREAMED_FORMATS.get(source.format)
    if role is not None and list(files) == [role]:
        with files[role].open("rb") as stream:  # a line at a time, as a stored version loads
            snapshot = parse_stream(source, stream, fallback_version=undated)
    else:  # these parsers read a whole document
        whole = {role: path.read_bytes() for role, path in files.items()}
        snapshot = parse_source(source, whole, fallback_version=undated)
        del whole
    validate(snapshot, previous_count(data_dir, source.code), config)
    return store.save_version(data_dir, source, files, snapshot, fetched_at.isoformat(), metas)


def previous_count(data_dir: Path, code: str) -> int | None:
    """Entities of the version in use: the current download, else the bundled snapshot."""
    stored = store.current_version(data_dir, code)
    if stored is not None:
        return stored.entity_count
    if code in bundled_by_code():
        return bundled_count(code)
    return None


def validate(snapshot: ListSnapshot, previous: int | None, config: ListsConfig) -> None:
    """Refuse an empty or collapsed list, or one with too many unusable records."""
    count = len(snapshot.entities)
    if count == 0:
        raise ListValidationError("no entities parsed: refused")
    unusable = len(snapshot.warnings)
    ratio = unusable / (count + unusable)
    if ratio > config.max_warning_ratio:
        raise ListValidationError(
            f"{unusable} of {count + unusable} records unusable ({ratio:.0%}, limit "
            f"{config.max_warning_ratio:.0%}): refused"
        )
    if previous and count < config.min_entity_ratio * previous:
        raise ListValidationError(
            f"{count} entities, fewer than {config.min_entity_ratio:.0%} of the {previous} in "
            "the version in use: refused as a collapsed list"
        )


# ---------------------------------------------------------------------------------------------
# Status


async def list_status(
    settings: Settings,
    db: Database,
    *,
    engine: ScreeningEngine | None = None,
    config: ListsConfig | None = None,
) -> list[dict[str, Any]]:
    """Per list: the version in use (of ``engine``, else what would load now), its source and
    entity count, and the last update attempt and error."""
    if engine is not None:
        in_use = describe_engine(engine)
    else:
        in_use = await asyncio.to_thread(planned_lists, settings)
    try:
        sources = configured_sources(config or ListsConfig())
    except ValueError:  # a bad HAKIKI_LISTS_SOURCES must not hide the status
        sources = []
    async with read(db) as conn:
        attempts = await repository.latest_attempts(conn)
        failures = await repository.latest_failures(conn)
    by_source = {source.code: source for source in sources}
    by_use = {info.code: info for info in in_use}
    codes = list(dict.fromkeys([*by_use, *by_source, *attempts]))
    rows: list[dict[str, Any]] = []
    for code in codes:
        info = by_use.get(code)
        source = by_source.get(code)
        attempt = attempts.get(code)
        failure = failures.get(code)
        rows.append(
            {
                "code": code,
                "title": info.title if info else (source.title if source else code),
                "checks": list(info.checks if info else sorted(source.checks) if source else []),
                "in_use": info is not None,
                "version": info.version if info else None,
                "date": info.date if info else None,
                "date_note": _date_note(info),
                "published": info.published if info else None,
                "licence": info.licence if info else None,
                "entity_count": info.entity_count if info else None,
                "age_days": age_days(info.date) if info else None,
                "stale": stale_or_unknown(info, settings) if info else False,
                "source": info.source if info else None,
                "update_enabled": bool(source and source.enabled),
                "last_attempt": _attempt(attempt) if attempt else None,
                "last_error": failure["error"] if failure else None,
                "last_error_at": failure["fetched_at"] if failure else None,
            }
        )
    return rows


UNDATED_NOTE = (
    "the list's files carry no publication date (OFAC's CSV files): its age is unknown; "
    "the ofac_xml format (sdn.xml) carries one"
)


def _date_note(info: LoadedList | None) -> str | None:
    """Why an in-use list has no date (never the download day in its place)."""
    return UNDATED_NOTE if info is not None and age_days(info.date) is None else None


def stale_or_unknown(info: LoadedList, settings: Settings) -> bool | None:
    """Whether a list is past ``list_max_age_days``; None when its date is unknown."""
    return None if age_days(info.date) is None else is_stale(info, settings)


def warn_if_stale(engine: ScreeningEngine, settings: Settings) -> list[LoadedList]:
    """Log a warning for each list of ``engine`` older than ``list_max_age_days``; return them."""
    described = describe_engine(engine)
    for info in described:
        if age_days(info.date) is None:
            logger.warning("screening list %s %s: %s", info.code, info.version, UNDATED_NOTE)
    stale = [info for info in described if is_stale(info, settings)]
    for info in stale:
        logger.warning(
            "screening list %s is %d days old (%s %s, over %d): screening misses everyone "
            "listed since; run `hakiki lists update` (docs/lists.md)",
            info.code,
            age_days(info.date),
            info.source,
            info.version,
            settings.list_max_age_days,
        )
    return stale


def _attempt(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "at": row["fetched_at"],
        "status": row["status"],
        "version": row["version"],
        "entity_count": row["entity_count"],
        "error": row["error"],
    }
