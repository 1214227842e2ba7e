"""HTTP handlers of the credit products (/v3/credit/products)."""

from __future__ import annotations

from fastapi import Depends, Path, Query

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.credit.endpoints import (
    PRODUCT_CREATE,
    PRODUCT_DEACTIVATE,
    PRODUCT_LIST,
    PRODUCT_READ,
    PRODUCT_UPDATE,
)
from hakiki.credit.products import service
from hakiki.credit.products.schemas import (
    CreditProduct,
    CreditProductList,
    ProductRequest,
    ProductUpdate,
)

router = EndpointRouter(tags=["Credit"])
ProductId = Path(max_length=40)


def _owner(call: Call) -> tuple[str, str]:
    return call.principal.org_id, call.principal.environment


@router.endpoint(PRODUCT_CREATE, response_model=CreditProduct)
async def create_product(body: ProductRequest, call: Call) -> bytes:
    """201 with the product. A decision naming it (`product` on POST /v3/credit/decision) must
    fit its bounds and purposes, and is decided by its `model_id` (one of your trained models
    that may be activated) or, without one, by the active model. 400 naming each field that
    is wrong: `min_amount` above `max_amount`, `min_term_months` above `max_term_months`, a
    purpose the model does not know (`purposes.N`), an unknown or unusable `model_id`. 409
    when the name is taken in this environment. Free. Sandbox: the same rules; sandbox and
    live products are kept apart."""
    return await service.create(call, body)


@router.endpoint(PRODUCT_LIST, response_model=CreditProductList)
async def list_products(
    call: Call,
    page: PageRequest = Depends(page_params),
    active: bool | None = Query(None, description="Only the active (or deactivated) products."),
) -> CreditProductList:
    """Your organisation's products of this environment, newest first, paginated; filter
    `active`. Free. Sandbox: the products made with sandbox keys."""
    return await service.list_products(call.runtime.db, _owner(call), page, active)


@router.endpoint(PRODUCT_READ, response_model=CreditProduct)
async def get_product(call: Call, product_id: str = ProductId) -> CreditProduct:
    """One of your products of this environment: its bounds (amounts in minor units of its
    currency, terms in months), allowed purposes, the model that decides it (null: the active
    model) and whether decisions may name it. Another organisation's or environment's product
    is 404. Free. Sandbox: the products made with sandbox keys."""
    return await service.get_product(call.runtime.db, _owner(call), product_id)


@router.endpoint(PRODUCT_UPDATE, response_model=CreditProduct)
async def update_product(
    body: ProductUpdate, call: Call, product_id: str = ProductId
) -> CreditProduct:
    """Changes the fields given and keeps the others; the whole product is checked again as
    on create (400 naming the fields, 409 for a taken name). `model_id: null` returns it to
    the active model; `active: true` reactivates it. Decisions already made keep their
    answer. 404 for another organisation's or environment's product. Free. Sandbox: the same
    rules, on the products made with sandbox keys."""
    return await service.update(call.runtime.db, _owner(call), product_id, body)


@router.endpoint(PRODUCT_DEACTIVATE, response_model=CreditProduct)
async def deactivate_product(call: Call, product_id: str = ProductId) -> bytes:
    """Decisions may no longer name the product (400 naming `product`); it stays listed with
    `active: false`, and PATCH `active: true` brings it back. Deactivating it again changes
    nothing. 404 for another organisation's or environment's product. Free. Sandbox: the same,
    on the products made with sandbox keys."""
    return await service.deactivate(call, product_id)
