"""From an uploaded watchlist file to its index: the rows read a line at a time from the sealed
upload, each accepted row marshalled into the engine's entity store as it comes (the list is
never a million Python objects at once), the engine sealed into the index file."""

from __future__ import annotations

import logging
import threading
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

from hakiki.core.crypto import Vault, load_master_key
from hakiki.core.sealed_files import SealedFileError, sealed_chunks
from hakiki.core.settings import Settings
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListEntity, ListSnapshot
from hakiki.engines.screening.parsers.text import ListFormatError
from hakiki.engines.screening.parsers.watchlist_csv import WatchlistReader, text_lines
from hakiki.screening.watchlists import files

KEPT_ISSUES = 100

logger = logging.getLogger("hakiki.watchlists")


def open_reader(
    vault: Vault, data_dir: Path, row: dict[str, Any], max_rows: int
) -> WatchlistReader:
    """A reader over the upload of watchlist ``row`` (its header read: ListFormatError if it
    is not a watchlist; SealedFileError if the file was altered)."""
    path = files.upload_path(data_dir, row["org_id"], row["id"])
    lines = text_lines(sealed_chunks(vault, path), row["encoding"])
    return WatchlistReader(lines, code=row["id"], max_rows=max_rows, keep_issues=KEPT_ISSUES)


def snapshot_of(row: dict[str, Any], reader: WatchlistReader) -> ListSnapshot:
    """The list as the engine sees it: its entities are the reader's, consumed once, as the
    engine's build walks them (ScreeningEngine reads ``entities`` once and keeps none)."""
    entities = cast("tuple[ListEntity, ...]", reader.entities())
    return ListSnapshot(
        code=row["id"],
        title=row["name"],
        version=row["created_at"].date().isoformat(),
        source_url="",
        checks=frozenset({row["list_type"]}),
        entities=entities,
    )


def build_index(
    vault: Vault, data_dir: Path, row: dict[str, Any], reader: WatchlistReader
) -> ScreeningEngine:
    """Read every row through ``reader``, build the engine, seal it into the index file."""
    engine = ScreeningEngine([snapshot_of(row, reader)])
    files.write_index(vault, files.index_path(data_dir, row["org_id"], row["id"]), engine)
    return engine


def load_index(vault: Vault, data_dir: Path, row: dict[str, Any], max_rows: int) -> ScreeningEngine:
    """The ready watchlist's index: read from its sealed file, or built again from the upload
    when this release's engine has none (an upgrade) or the file cannot be read."""
    path = files.index_path(data_dir, row["org_id"], row["id"])
    if path.exists():
        try:
            return files.read_index(vault, path)
        except Exception:
            logger.exception("watchlist index %s unreadable; building it again", row["id"])
    return build_index(vault, data_dir, row, open_reader(vault, data_dir, row, max_rows))


def progress_of(reader: WatchlistReader) -> dict[str, Any]:
    """What the watchlist row shows of a build under way or ended (issues without values)."""
    return {
        "rows_read": reader.rows_read,
        "rows_refused": reader.refused,
        "issue_count": reader.issue_count,
        "issues": [
            {"line": i.line, "problem": i.public(), "refused": i.refused} for i in reader.issues
        ],
    }


def build_in_child(
    settings: Settings, row: dict[str, Any], max_rows: int, counters: Any, out: Connection
) -> None:
    """A child process's work (large lists): build the index, keep ``counters`` (rows read,
    refused, issues) current, and send the outcome on ``out``: the build's peak memory is the
    child's, returned to the system when it exits, never the server's."""
    vault = Vault(load_master_key(settings))
    reader: WatchlistReader | None = None
    stop = threading.Event()

    def report() -> None:
        while not stop.wait(0.5):
            if reader is not None:
                counters[:] = [reader.rows_read, reader.refused, reader.issue_count]

    threading.Thread(target=report, daemon=True).start()
    try:
        reader = open_reader(vault, settings.data_dir, row, max_rows)
        engine = build_index(vault, settings.data_dir, row, reader)
    except (ListFormatError, SealedFileError) as error:
        outcome: dict[str, Any] = {"error": str(error)}
    else:
        outcome = {"entity_count": engine.entity_count}
    stop.set()
    if reader is not None:
        outcome["progress"] = progress_of(reader)
    out.send(outcome)
    out.close()
