"""Conditions that keep a listing to one organisation's environment, plus the caller's filters."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table


def owned_by(
    table: Table, org_id: str, environment: str, filters: dict[str, str | None]
) -> list[Any]:
    """``org_id`` and ``environment`` match, and each filter given (not None) equals its
    column."""
    conditions = [table.c.org_id == org_id, table.c.environment == environment]
    conditions += [
        table.c[column] == value for column, value in filters.items() if value is not None
    ]
    return conditions
