"""Run Alembic migrations programmatically (``hakiki migrate`` and embedded ``serve``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from hakiki.core.settings import Settings

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(settings: Settings) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["settings"] = settings
    return config


def upgrade(settings: Settings) -> None:
    """Bring the database to the newest schema (and, in procrastinate mode, add procrastinate's
    own). Safe to run again."""
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
