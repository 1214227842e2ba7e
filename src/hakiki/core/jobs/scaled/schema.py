"""procrastinate's own schema, applied by ``hakiki migrate`` in scaled mode."""

from __future__ import annotations

from hakiki.core.jobs.scaled.connection import procrastinate_app
from hakiki.core.settings import Settings


async def ensure_schema(settings: Settings) -> bool:
    """Apply procrastinate's schema unless its tables exist; return whether it was applied.
    procrastinate is pinned to 3.10.*: a newer minor needs its SQL migrations first."""
    app = procrastinate_app(settings, pool_size=1)
    async with app.open_async():
        if await app.job_manager.check_connection_async():
            return False
        await app.schema_manager.apply_schema_async()
        return True
