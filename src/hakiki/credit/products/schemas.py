"""Request and response models of the credit products (/v3/credit/products)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
)

from hakiki.core.pagination import Pagination
from hakiki.credit.schemas import Purpose

ProductAmount = Annotated[StrictInt, Field(gt=0, le=10**15)]
ProductTerm = Annotated[StrictInt, Field(ge=1, le=360)]
Currency = Annotated[
    StrictStr,
    StringConstraints(pattern=r"^[A-Z]{3}$"),
    Field(description="ISO 4217, the currency of the amounts.", examples=["KES"]),
]
ProductName = Annotated[StrictStr, StringConstraints(min_length=1, max_length=100)]
Description = Annotated[StrictStr, StringConstraints(max_length=1000)]
ModelId = Annotated[StrictStr, StringConstraints(min_length=1, max_length=40)]

EXAMPLE_REQUEST: dict[str, Any] = {
    "name": "School fees loan",
    "description": "Term-time school fees, repaid over the school year.",
    "currency": "KES",
    "min_amount": 500_000,
    "max_amount": 20_000_000,
    "min_term_months": 3,
    "max_term_months": 12,
    "purposes": ["education"],
}
EXAMPLE_PRODUCT: dict[str, Any] = {
    "product_id": "cpr_06h1z1qg8h3vq1m6yxe2d3c4b5",
    **EXAMPLE_REQUEST,
    "model_id": None,
    "active": True,
    "live": False,
    "created_at": "2026-11-28T03:00:00Z",
    "updated_at": "2026-11-28T03:00:00Z",
}


class ProductRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE_REQUEST]})

    name: ProductName = Field(description="Unique in this environment (case-insensitive).")
    description: Description | None = None
    currency: Currency
    min_amount: ProductAmount = Field(description="Minor units, at most max_amount.")
    max_amount: ProductAmount = Field(description="Minor units.")
    min_term_months: ProductTerm = Field(description="At most max_term_months.")
    max_term_months: ProductTerm
    purposes: list[Purpose] = Field(
        default_factory=list,
        max_length=50,
        description="The loan purposes allowed, each one the model knows (the product's model, "
        "else the demo model's or one of your trained models'); empty: any purpose.",
    )
    model_id: ModelId | None = Field(
        None,
        description="A trained model of yours (GET /v3/credit/models) that decides this "
        "product's applications whichever model is active; null: the active model.",
    )
    active: StrictBool = Field(True, description="Decisions may name it.")


class ProductUpdate(BaseModel):
    """The fields to change; the others stay. `model_id: null` returns to the active model."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"max_amount": 30_000_000}]}
    )

    name: ProductName | None = None
    description: Description | None = None
    currency: Currency | None = None
    min_amount: ProductAmount | None = None
    max_amount: ProductAmount | None = None
    min_term_months: ProductTerm | None = None
    max_term_months: ProductTerm | None = None
    purposes: list[Purpose] | None = Field(None, max_length=50)
    model_id: ModelId | None = None
    active: StrictBool | None = None


class CreditProduct(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE_PRODUCT]})

    product_id: str
    name: str
    description: str | None
    currency: str
    min_amount: int = Field(description="Minor units.")
    max_amount: int = Field(description="Minor units.")
    min_term_months: int
    max_term_months: int
    purposes: list[str] = Field(description="Allowed loan purposes; empty: any.")
    model_id: str | None = Field(description="The model deciding it; null: the active model.")
    active: bool
    live: bool
    created_at: datetime
    updated_at: datetime


class CreditProductList(BaseModel):
    data: list[CreditProduct]
    pagination: Pagination
