"""The console's credit products page (issue 38): the organisation's products of the session's
environment, newest first, with their bounds, purposes and model (linked to its card), in the
navigation beside Credit models; every role reads it; another organisation's products and the
other environment's are not shown."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from hakiki.core.database import Database
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in
from tests.console.test_credit_models_page import _document, stored_model

PAGE = "/console/credit-products"
PRODUCT = {
    "name": "Boda boda loan",
    "currency": "KES",
    "min_amount": 2_000_000,
    "max_amount": 15_000_000,
    "min_term_months": 6,
    "max_term_months": 18,
    "purposes": ["school_fees"],
}


async def test_every_role_reads_the_products_and_strangers_see_none(
    app: FastAPI, make_user: UserFactory, db: Database
) -> None:
    document: dict[str, Any] = _document(1_000, 7, "lender-1")
    owner = await make_user("owner")
    model_id = await stored_model(db, owner.org_id, document)
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        empty = await http.get(PAGE)
        assert empty.status_code == 200 and "No credit product in this environment" in empty.text
        made = await http.post(
            "/v3/credit/products",
            json={**PRODUCT, "model_id": model_id},
            headers={"X-CSRF-Token": csrf},
        )
        assert made.status_code == 201, made.text
        second = await http.post(
            "/v3/credit/products",
            json={**PRODUCT, "name": "Salary advance", "purposes": []},
            headers={"X-CSRF-Token": csrf},
        )
        assert second.status_code == 201, second.text
        off = await http.post(
            f"/v3/credit/products/{second.json()['product_id']}/deactivate",
            headers={"X-CSRF-Token": csrf},
        )
        assert off.status_code == 200, off.text
        html = (await http.get(PAGE)).text
        assert '<a href="/console/credit-products" aria-current="page">Credit products</a>' in html
        assert "2 products, newest first" in html
        rows = [r for r in html.split("<tr")[1:] if "<td>" in r]
        assert "Salary advance" in rows[0] and "<td>deactivated</td>" in rows[0]
        assert "<td>any</td>" in rows[0] and "the active model" in rows[0]
        assert "Boda boda loan" in rows[1] and "<td>active</td>" in rows[1]
        assert "KES 2,000,000 to 15,000,000" in rows[1] and "<td>6 to 18</td>" in rows[1]
        assert "<td>school_fees</td>" in rows[1]
        assert f'<a href="/console/credit-models/{model_id}">lender-1</a>' in rows[1]
    viewer = await make_user("viewer", org=owner)
    async with browser(app) as http:
        await signed_in(http, viewer)
        page = await http.get(PAGE)
        assert page.status_code == 200 and "Boda boda loan" in page.text
    stranger = await make_user("owner")
    async with browser(app) as http:
        await signed_in(http, stranger)
        page = await http.get(PAGE)
        assert "Boda boda loan" not in page.text and "No credit product" in page.text
    async with browser(app) as http:
        assert (await http.get(PAGE)).status_code in (302, 303)  # signed out: to the login
