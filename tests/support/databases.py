"""A database of a test's own, for tests whose processes must not share the session's."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from hakiki.core.migrate import upgrade_async
from hakiki.core.settings import Settings
from tests.conftest import POSTGRES_URL, TEST_SECRET_KEY, require_postgres


async def fresh_postgres_url(suffix: str) -> str:
    """Drop and create ``<test database>_<suffix>``; return its URL."""
    require_postgres()
    base = make_url(POSTGRES_URL)
    name = f"{base.database}_{suffix}"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


async def isolated_settings(
    backend: str, data_dir: Path, suffix: str, *, jobs_backend: str = "embedded"
) -> Settings:
    """Migrated settings on a fresh SQLite file or a fresh PostgreSQL database."""
    url = await fresh_postgres_url(suffix) if backend == "postgresql" else None
    settings = Settings(
        data_dir=data_dir,
        database_url=url,
        secret_key=TEST_SECRET_KEY,
        jobs_backend=jobs_backend,
    )
    await upgrade_async(settings)
    return settings


def process_env(settings: Settings, **extra: str) -> dict[str, str]:
    """The environment that points a ``hakiki`` process at ``settings``' database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAKIKI_")}
    env["HAKIKI_DATA_DIR"] = str(settings.data_dir)
    env["HAKIKI_SECRET_KEY"] = TEST_SECRET_KEY
    env["HAKIKI_JOBS_BACKEND"] = settings.jobs_backend
    if settings.database_url:
        env["HAKIKI_DATABASE_URL"] = settings.database_url
    return {**env, **extra}
