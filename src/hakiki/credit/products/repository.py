"""Every query of the credit products."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.credit.tables import credit_models, credit_products


def _owned(org_id: str, environment: str) -> list[Any]:
    return [credit_products.c.org_id == org_id, credit_products.c.environment == environment]


async def insert_product(conn: AsyncConnection, row: dict[str, Any]) -> None:
    await conn.execute(insert(credit_products).values(**row))


async def update_product(conn: AsyncConnection, product_id: str, values: dict[str, Any]) -> None:
    query = update(credit_products).where(credit_products.c.id == product_id).values(**values)
    await conn.execute(query)


async def get_owned(
    conn: AsyncConnection, org_id: str, environment: str, product_id: str
) -> dict[str, Any] | None:
    query = select(credit_products).where(
        credit_products.c.id == product_id, *_owned(org_id, environment)
    )
    row = (await conn.execute(query)).mappings().first()
    return dict(row) if row else None


async def name_taken(
    conn: AsyncConnection, org_id: str, environment: str, name_key: str, except_id: str | None
) -> bool:
    query = select(credit_products.c.id).where(
        credit_products.c.name_key == name_key, *_owned(org_id, environment)
    )
    if except_id is not None:
        query = query.where(credit_products.c.id != except_id)
    return (await conn.execute(query)).first() is not None


async def count_products(
    conn: AsyncConnection, org_id: str, environment: str, active: bool | None = None
) -> int:
    query = select(func.count()).where(*_owned(org_id, environment))
    if active is not None:
        query = query.where(credit_products.c.active == active)
    return int((await conn.execute(query)).scalar_one())


async def list_owned(
    conn: AsyncConnection,
    org_id: str,
    environment: str,
    active: bool | None,
    *,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    query = select(credit_products).where(*_owned(org_id, environment))
    if active is not None:
        query = query.where(credit_products.c.active == active)
    query = (
        query.order_by(credit_products.c.created_at.desc(), credit_products.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [dict(r) for r in (await conn.execute(query)).mappings()]


async def trained_documents(conn: AsyncConnection, org_id: str, environment: str) -> list[str]:
    """The model files of the owner's trained models (for the purposes they know)."""
    query = select(credit_models.c.document).where(
        credit_models.c.org_id == org_id,
        credit_models.c.environment == environment,
        credit_models.c.status == "trained",
        credit_models.c.document.is_not(None),
    )
    return [d for d in (await conn.execute(query)).scalars() if d is not None]
