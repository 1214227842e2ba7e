"""Organisation watchlists: the upload (streamed into a sealed file as it arrives, its header
checked on the way), status and progress, the listing, deletion; and the screening of an
organisation's ready watchlists beside the official lists (:func:`screen_with_watchlists`)."""

from __future__ import annotations

import codecs
import hashlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.core.sealed_files import SealedWriter
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.parsers.text import ListFormatError
from hakiki.engines.screening.parsers.watchlist_csv import WatchlistReader
from hakiki.engines.screening.results import ScreeningResult
from hakiki.engines.screening.subject import Subject
from hakiki.screening.watchlists import build, files, repository
from hakiki.screening.watchlists.files import WatchlistIndexes
from hakiki.screening.watchlists.presence import WatchlistPresence
from hakiki.screening.watchlists.schemas import (
    RowIssue,
    Watchlist,
    WatchlistList,
)
from hakiki.screening.watchlists.tasks import BUILD_TASK

logger = logging.getLogger("hakiki.watchlists")

HEADER_BYTES = 64 * 1024  # the header line must end within this much
# The checks an organisation's lists of each type answer; a screening asking for any of these
# checks screens them.
SCREENED_BY = {"watchlist": ("sanction", "pep", "watchlist"), "pep": ("pep",)}


def _model(row: dict[str, Any]) -> Watchlist:
    return Watchlist(
        id=row["id"],
        live=row["environment"] == "live",
        name=row["name"],
        list_type=row["list_type"],
        status=row["status"],
        size_bytes=row["size_bytes"],
        sha256=row["sha256"],
        rows_read=row["rows_read"],
        rows_accepted=row["rows_accepted"],
        rows_refused=row["rows_refused"],
        issue_count=row["issue_count"],
        issues=[RowIssue(**issue) for issue in row["issues"]],
        failure_reason=row["failure_reason"],
        created_at=row["created_at"],
        completed_at=row["completed_at"],
    )


def _label(name: str) -> str:
    kept = " ".join("".join(c for c in name if c.isprintable()).split())
    if not kept or len(kept) > 100:
        raise invalid_request(
            "name: give the list a label of 1 to 100 printable characters (?name=...).",
            field="name",
            problem="must be 1 to 100 printable characters",
        )
    return kept


class _Received:
    """What the upload's stream held: its size, digest, encoding and first line."""

    def __init__(self) -> None:
        self.size = 0
        self.digest = hashlib.sha256()
        self.first_line = bytearray()
        self.header_done = False
        self.utf8 = codecs.getincrementaldecoder("utf-8")()
        self.is_utf8 = True

    def take(self, chunk: bytes) -> None:
        self.size += len(chunk)
        self.digest.update(chunk)
        if self.is_utf8:
            try:
                self.utf8.decode(chunk)
            except UnicodeDecodeError:
                self.is_utf8 = False
        if not self.header_done:
            end = chunk.find(b"\n")
            self.first_line += chunk if end < 0 else chunk[: end + 1]
            self.header_done = end >= 0
            if len(self.first_line) > HEADER_BYTES:
                raise _bad_file(
                    f"line 1 (the header) is longer than {HEADER_BYTES:,} bytes: not a "
                    "watchlist CSV"
                )

    @property
    def encoding(self) -> str:
        if self.is_utf8:
            try:
                self.utf8.decode(b"", final=True)
            except UnicodeDecodeError:
                self.is_utf8 = False
        return "utf-8" if self.is_utf8 else "cp1252"

    def check_header(self) -> None:
        if self.size == 0:
            raise _bad_file("the body is empty: send the CSV file, its header row first")
        line = bytes(self.first_line).decode(self.encoding, errors="replace")
        try:
            WatchlistReader([line])
        except ListFormatError as error:
            raise _bad_file(str(error).removeprefix("watchlist CSV: ")) from None


def _bad_file(problem: str) -> ApiError:
    return invalid_request(f"body: {problem}.", field="body", problem=problem)


async def _receive(stream: AsyncIterator[bytes], out: SealedWriter) -> _Received:
    received = _Received()
    async for chunk in stream:
        if chunk:
            received.take(chunk)
            out.write(chunk)
    received.check_header()
    return received


async def upload(call: Call, name: str, list_type: str) -> bytes:
    """Store the CSV body (sealed, as it streams in) and queue the job that builds it."""
    runtime, principal = call.runtime, call.principal
    label = _label(name)
    watchlist_id = new_id("wl")
    data_dir = runtime.settings.data_dir
    path = files.upload_path(data_dir, principal.org_id, watchlist_id)
    try:
        with SealedWriter(runtime.vault, path) as out:
            received = await _receive(call.request.stream(), out)
    except BaseException:
        files.remove_files(data_dir, principal.org_id, watchlist_id)
        raise
    now = utcnow()
    record: dict[str, Any] = {
        "id": watchlist_id,
        "org_id": principal.org_id,
        "environment": principal.environment,
        "api_key_id": principal.key_id,
        "name": label,
        "list_type": list_type,
        "status": "pending",
        "encoding": received.encoding,
        "size_bytes": received.size,
        "sha256": received.digest.hexdigest(),
        "rows_read": 0,
        "rows_accepted": 0,
        "rows_refused": 0,
        "issue_count": 0,
        "issues": [],
        "failure_reason": None,
        "created_at": now,
        "updated_at": now,
        "completed_at": None,
    }

    async def write(conn: AsyncConnection) -> None:
        await repository.insert_watchlist(conn, record)
        await enqueue(conn, BUILD_TASK, {"watchlist_id": watchlist_id})

    try:
        return await finish_write(
            call,
            write,
            lambda: _model(record).model_dump_json().encode(),
            description="Watchlist upload",
            status_code=202,
        )
    except BaseException:
        files.remove_files(data_dir, principal.org_id, watchlist_id)
        raise


def _not_found(watchlist_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No watchlist {watchlist_id} in this environment.")


async def get_watchlist(runtime: Runtime, owner: tuple[str, str], watchlist_id: str) -> Watchlist:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        found = await repository.get_owned(conn, org_id, environment, watchlist_id)
    if found is None:
        raise _not_found(watchlist_id)
    return _model(found)


async def list_watchlists(
    runtime: Runtime, owner: tuple[str, str], page: PageRequest, filters: dict[str, str | None]
) -> WatchlistList:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count_owned(conn, org_id, environment, filters)
        rows = await repository.list_owned(
            conn, org_id, environment, filters, offset=page.offset, limit=page.page_size
        )
    return WatchlistList(data=[_model(row) for row in rows], pagination=page.describe(total))


async def delete_watchlist(runtime: Runtime, owner: tuple[str, str], watchlist_id: str) -> None:
    """Delete the watchlist, its upload and its index: from now on no screening of this
    process uses it (others within HAKIKI_KEY_CACHE_SECONDS); a build under way is dropped."""
    environment, org_id = owner
    async with transaction(runtime.db) as conn:
        found = await repository.get_owned(conn, org_id, environment, watchlist_id)
        if found is None:
            raise _not_found(watchlist_id)
        await repository.delete_watchlist(conn, watchlist_id)
    files.remove_files(runtime.settings.data_dir, org_id, watchlist_id)
    runtime.part(WatchlistIndexes).forget(watchlist_id)
    await runtime.part(WatchlistPresence).refresh(org_id, environment)


async def screen_with_watchlists(
    runtime: Runtime,
    engine: ScreeningEngine,
    subject: Subject,
    *,
    org_id: str,
    environment: str,
    checks: list[str],
    threshold: float,
    limit: int = 10,
) -> ScreeningResult:
    """Screen ``subject`` with ``engine`` (the official lists) and with the organisation's own
    ready watchlists of this environment whose type answers one of ``checks``: one result,
    hits best first. Another organisation's lists are never looked at, nor loaded."""
    result = await runtime.screen(
        engine, subject, tenant=org_id, checks=checks, threshold=threshold, limit=limit
    )
    wanted = [
        row
        for row in await runtime.part(WatchlistPresence).ready(org_id, environment)
        if set(SCREENED_BY[row["list_type"]]).intersection(checks)
    ]
    if not wanted:
        return result
    hits = list(result.hits)
    lists = list(result.lists)
    covered: set[str] = set()
    indexes = runtime.part(WatchlistIndexes)
    max_rows = runtime.settings.watchlist_max_rows
    for row in wanted:
        own = await indexes.engine(
            row["id"],
            lambda row=row: build.load_index(  # type: ignore[misc]
                runtime.vault, runtime.settings.data_dir, row, max_rows
            ),
        )
        found = await runtime.screen(
            own,
            subject,
            tenant=org_id,
            checks=[row["list_type"]],
            threshold=threshold,
            limit=limit,
        )
        hits.extend(found.hits)
        lists.extend(found.lists)
        covered.add(row["list_type"])
    hits.sort(key=lambda hit: -hit.score)
    return ScreeningResult(
        hits=hits[:limit],
        lists=lists,
        checks_without_lists=[c for c in result.checks_without_lists if c not in covered],
    )
