"""The migrations create exactly the schema the code declares, on both databases."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from hakiki.core.database import Database
from hakiki.core.jobs import tables as _jobs_tables  # noqa: F401  (registers its tables)
from hakiki.fraud import tables as _fraud_tables  # noqa: F401  (registers its tables)
from hakiki.media import tables as _media_tables  # noqa: F401  (registers its tables)
from hakiki.tables import metadata
from hakiki.webhooks import tables as _webhooks_tables  # noqa: F401  (registers its tables)


async def test_no_drift_between_migrations_and_tables(db: Database) -> None:
    def diff(connection: Any) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))

    async with db.reader.connect() as conn:
        differences = await conn.run_sync(diff)
    assert differences == []
