"""Run Alembic migrations programmatically (``hakiki migrate`` and embedded ``serve``)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from hakiki.core.settings import Settings

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_REVISION = re.compile(
    r"""^(down_revision|revision)\s*(?::[^=\n]*)?=\s*(?:["']([^"'\n]+)["']|None)\s*$""",
    re.MULTILINE,
)


def alembic_config(settings: Settings) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["settings"] = settings
    return config


def upgrade_unless_current(settings: Settings) -> None:
    """:func:`upgrade`, skipped when a SQLite file is already at the newest revision: that is
    read with the standard library, without importing Alembic and running its environment
    (a second of CPU at every start of ``hakiki serve``)."""
    if settings.is_sqlite and settings.jobs_backend == "embedded":
        newest = newest_revision()
        if newest is not None and sqlite_revision(settings) == newest:
            return
    upgrade(settings)


def newest_revision() -> str | None:
    """The head of the migrations, read from each file's ``revision`` and ``down_revision``
    lines; None unless every file has one plain line of each and there is one head (Alembic
    then decides)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found = _REVISION.findall(path.read_text("utf-8"))
        values = dict(found)
        if len(found) != 2 or set(values) != {"revision", "down_revision"}:
            return None
        if not values["revision"]:
            return None
        revisions.add(values["revision"])
        if values["down_revision"]:
            parents.add(values["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def sqlite_revision(settings: Settings) -> str | None:
    """The revision recorded in the SQLite database, or None (no file, no table)."""
    database = _sqlite_file(settings.resolved_database_url)
    if database is None or not database.exists():
        return None
    try:
        connection = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return str(rows[0][0]) if len(rows) == 1 else None


def _sqlite_file(url: str) -> Path | None:
    """The file of a plain ``sqlite[+driver]:///path`` URL; None for anything fancier (a query,
    escapes, memory), which then takes Alembic's path."""
    scheme, separator, rest = url.partition(":///")
    if not separator or not scheme.startswith("sqlite") or not rest or any(c in rest for c in "?%"):
        return None
    return None if rest == ":memory:" else Path(rest).absolute()


def upgrade(settings: Settings) -> None:
    """Bring the database to the newest schema (and, in procrastinate mode, add procrastinate's
    own). Safe to run again."""
    from alembic import command

    command.upgrade(alembic_config(settings), "head")
    if settings.jobs_backend == "procrastinate":
        from hakiki.core.jobs.scaled.schema import ensure_schema

        asyncio.run(ensure_schema(settings))


async def upgrade_async(settings: Settings) -> None:
    # env.py runs its own event loop, so it must run outside ours.
    await asyncio.to_thread(upgrade, settings)


def pending(settings: Settings) -> bool:
    """Whether the database is behind the newest migration (or has none applied, or lacks
    procrastinate's schema in procrastinate mode)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(settings)).get_current_head()
    return asyncio.run(_pending_async(settings, head))


async def _pending_async(settings: Settings, head: str | None) -> bool:
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import text

    from hakiki.core.database import create_engine

    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            current = await connection.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_revision()
            )
            missing = settings.jobs_backend == "procrastinate" and not (
                await connection.scalar(text("SELECT to_regclass('procrastinate_jobs')"))
            )
    finally:
        await engine.dispose()
    return current != head or missing
