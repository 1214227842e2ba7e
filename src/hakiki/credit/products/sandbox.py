"""Test values of the credit products: a product created (201), bounds the wrong way round
and an unknown purpose (400 naming the fields), and a new organisation's list (none)."""

from __future__ import annotations

from hakiki.core.endpoints import Examples, TestValue
from hakiki.credit.products.schemas import EXAMPLE_REQUEST

INVALID = {"http_status": 400, "error": "invalid_request"}

PRODUCT_CREATE = Examples(
    [
        TestValue(
            description="a school fees product: 201, active, decided by the active model",
            body=EXAMPLE_REQUEST,
            expect={
                "http_status": 201,
                "name": "School fees loan",
                "active": True,
                "model_id": None,
                "purposes.0": "education",
            },
        ),
        TestValue(
            description="min_amount above max_amount: 400 naming min_amount",
            body={**EXAMPLE_REQUEST, "name": "Upside down", "min_amount": 30_000_000},
            expect={**INVALID, "details.0.field": "min_amount"},
        ),
        TestValue(
            description="a purpose no model knows: 400 naming purposes.0",
            body={**EXAMPLE_REQUEST, "name": "Horoscope", "purposes": ["horoscope"]},
            expect={**INVALID, "details.0.field": "purposes.0"},
        ),
    ]
)
PRODUCT_LIST = Examples(
    [
        TestValue(
            description="a new organisation's products: none",
            query={"page": 1},
            expect={"http_status": 200, "data": [], "pagination.total_items": 0},
        ),
        TestValue(
            description="page_size over 100: 400",
            query={"page_size": 101},
            expect={**INVALID},
        ),
    ]
)
