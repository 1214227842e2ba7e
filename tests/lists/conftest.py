from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from sqlalchemy import delete

from hakiki.core.database import Database, transaction
from hakiki.lists.tables import list_current, list_file_parts, list_update_slots
from tests.lists.server import ListServer, run_list_server


@pytest.fixture
def list_server() -> Iterator[ListServer]:
    with run_list_server() as server:
        yield server


@pytest.fixture(autouse=True)
async def forget_current_lists(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """A test that stores list versions in the session's database leaves no current version
    behind: another test's runtime on that database would adopt it (lists/watch.py)."""
    db = request.getfixturevalue("db") if "db" in request.fixturenames else None
    yield
    if db is not None:
        await forget_lists(db)


async def forget_lists(db: Database) -> None:
    async with transaction(db) as conn:
        for table in (list_current, list_file_parts, list_update_slots):
            await conn.execute(delete(table))
