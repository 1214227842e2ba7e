"""Every query of the credit model registry and of the stored decisions."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.credit.tables import credit_decisions, credit_model_activations, credit_models

SUMMARY = [c for c in credit_models.c if c.name not in ("book_encrypted", "document")]


async def insert_model(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(credit_models).values(**row))


def _owned(org_id: str, environment: str, status: str | None) -> list[Any]:
    where = [credit_models.c.org_id == org_id, credit_models.c.environment == environment]
    if status is not None:
        where.append(credit_models.c.status == status)
    return where


async def count_models(
    conn: AsyncConnection, org_id: str, environment: str, status: str | None = None
) -> int:
    query = select(func.count()).where(*_owned(org_id, environment, status))
    return int((await conn.execute(query)).scalar_one())


async def get_model(conn: AsyncConnection, model_id: str) -> dict[str, Any] | None:
    found = await conn.execute(select(credit_models).where(credit_models.c.id == model_id))
    row = found.mappings().first()
    return dict(row) if row else None


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, model_id: str
) -> dict[str, Any] | None:
    found = await get_model(conn, model_id)
    if found is None or (found["org_id"], found["environment"]) != (org_id, environment):
        return None
    return found


async def list_owned(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    status: str | None,
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    query = (
        select(*SUMMARY, credit_models.c.document)
        .where(*_owned(org_id, environment, status))
        .order_by(credit_models.c.created_at.desc(), credit_models.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r) for r in (await conn.execute(query)).mappings()]


async def update_model(conn: AsyncConnection, model_id: str, values: dict[str, Any]) -> None:
    await conn.execute(update(credit_models).where(credit_models.c.id == model_id).values(**values))


async def add_activation(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(credit_model_activations).values(**row))


async def activations(
    conn: AsyncConnection, org_id: str, environment: str, limit: int
) -> list[dict[str, Any]]:
    """The newest ``limit`` activations and rollbacks, newest first."""
    query = (
        select(credit_model_activations)
        .where(
            credit_model_activations.c.org_id == org_id,
            credit_model_activations.c.environment == environment,
        )
        .order_by(credit_model_activations.c.seq.desc())
        .limit(limit)
    )
    return [dict(r) for r in (await conn.execute(query)).mappings()]


async def activation_history(
    conn: AsyncConnection, org_id: str, environment: str
) -> list[str | None]:
    """The model of every activation and rollback, oldest first (None: the demo model)."""
    query = (
        select(credit_model_activations.c.model_id)
        .where(
            credit_model_activations.c.org_id == org_id,
            credit_model_activations.c.environment == environment,
        )
        .order_by(credit_model_activations.c.seq)
    )
    return list((await conn.execute(query)).scalars())


async def save_decision(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(credit_decisions).values(**row))


async def get_decision(
    conn: AsyncConnection, org_id: str, environment: str, reference: str
) -> dict[str, Any] | None:
    query = select(credit_decisions).where(
        credit_decisions.c.reference == reference,
        credit_decisions.c.org_id == org_id,
        credit_decisions.c.environment == environment,
    )
    row = (await conn.execute(query)).mappings().first()
    return dict(row) if row else None
