"""What the command-line modules share."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import click

from hakiki.core.database import Database, create_database
from hakiki.core.errors import ApiError
from hakiki.core.settings import get_settings

T = TypeVar("T")


def run_with_db(work: Callable[[Database], Awaitable[T]]) -> T:
    """Run ``work(db)`` on a fresh connection pool; print API errors as one line and exit 1."""

    async def main() -> T:
        db = create_database(get_settings())
        try:
            return await work(db)
        finally:
            await db.dispose()

    try:
        return asyncio.run(main())
    except ApiError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
