"""Credit products: a lender's catalogue of loan products per environment (bounds of amount
and term, allowed purposes, the model that decides them), and what a decision naming one must
fit. Nothing about a borrower is kept here."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.credit.products import repository
from hakiki.credit.products.schemas import (
    CreditProduct,
    CreditProductList,
    ProductRequest,
    ProductUpdate,
)
from hakiki.credit.registry import repository as models
from hakiki.engines.credit import features

Owner = tuple[str, str]  # (organisation id, environment)
FIELDS = tuple(ProductRequest.model_fields)


def product_out(row: dict[str, Any]) -> CreditProduct:
    return CreditProduct(
        product_id=row["id"],
        name=row["name"],
        description=row["description"],
        currency=row["currency"],
        min_amount=row["min_amount"],
        max_amount=row["max_amount"],
        min_term_months=row["min_term_months"],
        max_term_months=row["max_term_months"],
        purposes=list(row["purposes"]),
        model_id=row["model_id"],
        active=row["active"],
        live=row["environment"] == "live",
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def not_found(product_id: str, field: str = "product_id") -> ApiError:
    return ApiError(
        404,
        "not_found",
        f"No credit product {product_id[:60]!r} in this organisation and environment.",
        details=[{"field": field, "problem": "unknown product"}],
    )


def _conflict(name: str) -> ApiError:
    return ApiError(
        409,
        "conflict",
        f"A credit product named {name!r} already exists in this environment; choose another "
        "name or update that product.",
        details=[{"field": "name", "problem": "already used"}],
    )


def _purposes_of(document: str) -> list[str]:
    card = orjson.loads(document).get("card", {})
    return list(card.get("loan_purposes", []))


async def _problems(
    conn: AsyncConnection, owner: Owner, fields: dict[str, Any]
) -> list[dict[str, str]]:
    """What is wrong with a product's fields (the whole product, after an update): each
    problem names its field, what was wrong and how to fix it."""
    problems: list[dict[str, str]] = []
    if fields["min_amount"] > fields["max_amount"]:
        problems.append(
            {
                "field": "min_amount",
                "problem": f"{fields['min_amount']} is above max_amount {fields['max_amount']}; "
                "give a min_amount at most max_amount",
            }
        )
    if fields["min_term_months"] > fields["max_term_months"]:
        problems.append(
            {
                "field": "min_term_months",
                "problem": f"{fields['min_term_months']} is above max_term_months "
                f"{fields['max_term_months']}; give a min_term_months at most max_term_months",
            }
        )
    org_id, environment = owner
    model_id = fields["model_id"]
    known: set[str] | None = None
    if model_id is not None:
        model = await models.get_owned(conn, org_id, environment, model_id)
        if model is None:
            problems.append(
                {
                    "field": "model_id",
                    "problem": f"no credit model {model_id!r} in this environment; give the "
                    "model_id of one of your trained models (GET /v3/credit/models) or null",
                }
            )
        elif model["status"] != "trained" or not model["activatable"] or not model["document"]:
            why = (
                f"it is {model['status']}"
                if model["status"] != "trained"
                else "its data was too little to use it"
            )
            problems.append(
                {
                    "field": "model_id",
                    "problem": f"model {model_id} cannot decide applications: {why}; give a "
                    "trained model that may be activated, or null",
                }
            )
        else:
            known = set(_purposes_of(model["document"]))
    if known is None and not any(p["field"] == "model_id" for p in problems):
        known = set(features.PURPOSES)
        for document in await repository.trained_documents(conn, org_id, environment):
            known.update(_purposes_of(document))
    if known is not None:
        for n, purpose in enumerate(fields["purposes"]):
            if purpose not in known:
                whose = f"model {model_id}" if model_id else "the demo model and your models"
                problems.append(
                    {
                        "field": f"purposes.{n}",
                        "problem": f"{purpose!r} is not a purpose {whose} know(s); use one of "
                        f"{', '.join(sorted(known))}",
                    }
                )
    return problems


def _refused(problems: list[dict[str, str]]) -> ApiError:
    message = "; ".join(f"{p['field']}: {p['problem']}" for p in problems) + "."
    return ApiError(400, "invalid_request", message, details=problems)


def _values(fields: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: fields[k] for k in FIELDS},
        "purposes": list(dict.fromkeys(fields["purposes"])),
        "name_key": fields["name"].casefold(),
    }


async def create(call: Call, body: ProductRequest) -> bytes:
    principal = call.principal
    owner = (principal.org_id, principal.environment)
    now = utcnow()
    row: dict[str, Any] = {
        "id": new_id("cpr"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        **_values(body.model_dump()),
        "created_at": now,
        "updated_at": now,
    }

    async def write(conn: AsyncConnection) -> None:
        problems = await _problems(conn, owner, row)
        if problems:
            raise _refused(problems)
        if await repository.name_taken(conn, *owner, row["name_key"], None):
            raise _conflict(body.name)
        await repository.insert_product(conn, row)

    try:
        return await finish_write(
            call,
            write,
            lambda: product_out(row).model_dump_json().encode(),
            description="Credit product created",
            status_code=201,
        )
    except IntegrityError as error:  # a concurrent create with the same name won
        raise _conflict(body.name) from error


async def get_product(db: Database, owner: Owner, product_id: str) -> CreditProduct:
    async with read(db) as conn:
        row = await repository.get_owned(conn, *owner, product_id)
    if row is None:
        raise not_found(product_id)
    return product_out(row)


async def list_products(
    db: Database, owner: Owner, page: PageRequest, active: bool | None
) -> CreditProductList:
    async with read(db) as conn:
        total = await repository.count_products(conn, *owner, active)
        rows = await repository.list_owned(
            conn, *owner, active, offset=page.offset, limit=page.page_size
        )
    return CreditProductList(data=[product_out(r) for r in rows], pagination=page.describe(total))


async def update(db: Database, owner: Owner, product_id: str, body: ProductUpdate) -> CreditProduct:
    """Change the fields given (the whole product is checked again, as on create)."""
    given = body.model_dump(exclude_unset=True)
    for name in FIELDS:
        if name in given and given[name] is None and name not in ("description", "model_id"):
            raise ApiError(
                400,
                "invalid_request",
                f"{name}: cannot be null; leave it out to keep it.",
                details=[{"field": name, "problem": "cannot be null"}],
            )
    try:
        async with transaction(db) as conn:
            row = await repository.get_owned(conn, *owner, product_id)
            if row is None:
                raise not_found(product_id)
            merged = {**{k: row[k] for k in FIELDS}, **given}
            problems = await _problems(conn, owner, merged)
            if problems:
                raise _refused(problems)
            values = {**_values(merged), "updated_at": utcnow()}
            if await repository.name_taken(conn, *owner, values["name_key"], product_id):
                raise _conflict(values["name"])
            await repository.update_product(conn, product_id, values)
    except IntegrityError as error:
        raise _conflict(str(given.get("name"))) from error
    return product_out(row | values)


async def deactivate(call: Call, product_id: str) -> bytes:
    """Decisions may no longer name the product (it stays listed; PATCH active: true undoes
    it)."""
    principal = call.principal
    owner = (principal.org_id, principal.environment)
    found: list[dict[str, Any]] = []

    async def write(conn: AsyncConnection) -> None:
        row = await repository.get_owned(conn, *owner, product_id)
        if row is None:
            raise not_found(product_id)
        values = {"active": False, "updated_at": utcnow() if row["active"] else row["updated_at"]}
        await repository.update_product(conn, product_id, values)
        found.append(row | values)

    return await finish_write(
        call,
        write,
        lambda: product_out(found[0]).model_dump_json().encode(),
        description="Credit product deactivated",
    )


def _outside(field: str, problem: str) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        f"{field}: {problem}.",
        details=[{"field": field, "problem": problem}],
    )


async def for_decision(
    db: Database, owner: Owner, product_id: str, amount: int, term_months: int, purpose: str | None
) -> dict[str, Any]:
    """The active product a decision names, with the loan inside its bounds: 404 when it is not
    the owner's, 400 naming the field, the bound and the product otherwise."""
    async with read(db) as conn:
        row = await repository.get_owned(conn, *owner, product_id)
    if row is None:
        raise not_found(product_id, "product")
    named = f"product {row['id']} ({row['name']})"
    if not row["active"]:
        raise _outside(
            "product",
            f"{named} is deactivated; reactivate it (PATCH active: true) or name another",
        )
    if not row["min_amount"] <= amount <= row["max_amount"]:
        raise _outside(
            "loan.amount",
            f"{amount} is outside {named}'s bounds: min_amount {row['min_amount']}, max_amount "
            f"{row['max_amount']} ({row['currency']} minor units)",
        )
    if not row["min_term_months"] <= term_months <= row["max_term_months"]:
        raise _outside(
            "loan.term_months",
            f"{term_months} is outside {named}'s bounds: min_term_months "
            f"{row['min_term_months']}, max_term_months {row['max_term_months']}",
        )
    if row["purposes"]:
        allowed = ", ".join(row["purposes"])
        if purpose is None:
            raise _outside(
                "loan.purpose", f"{named} requires a purpose, one of {allowed}; give one"
            )
        if purpose not in row["purposes"]:
            raise _outside(
                "loan.purpose", f"{purpose!r} is not allowed by {named}: purposes {allowed}"
            )
    return row
