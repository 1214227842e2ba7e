"""A procrastinate App on the app's own PostgreSQL database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.engine import make_url

from hakiki.core.settings import Settings

if TYPE_CHECKING:
    import procrastinate


def conninfo(settings: Settings) -> str:
    """The libpq URI of ``HAKIKI_DATABASE_URL`` (``postgresql+asyncpg://`` is SQLAlchemy's)."""
    url = make_url(settings.resolved_database_url)
    query = dict(url.query)
    if "ssl" in query:  # asyncpg's name for libpq's sslmode
        query["sslmode"] = query.pop("ssl")
    return url.set(drivername="postgresql", query=query).render_as_string(hide_password=False)


def procrastinate_app(settings: Settings, *, pool_size: int = 2) -> procrastinate.App:
    """An App (not yet opened) whose connection pool holds at most ``pool_size`` connections."""
    import procrastinate  # imported here: embedded deployments never load psycopg

    connector = procrastinate.PsycopgConnector(
        conninfo=conninfo(settings), min_size=1, max_size=pool_size
    )
    return procrastinate.App(connector=connector)
