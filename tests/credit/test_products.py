"""A lender's credit products through the API, on SQLite and PostgreSQL: create (idempotent,
409 on a conflicting replay or a taken name), list (paginated), read, update, deactivate; 400s
naming the fields (bounds the wrong way round, an unknown purpose, an unknown or unusable
model); another organisation's product is 404 and a read-only key 403; a decision naming a
product must fit its bounds (400 naming the field, the bound and the product), is decided by
the product's model when it names one, and names the product; without one, nothing changes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.devtools import loan_book as generator
from tests.conftest import AccountFactory
from tests.console.test_credit_models_page import _document, stored_model

URL = "/v3/credit/products"
DECISION = "/v3/credit/decision"
PRODUCT = {
    "name": "Business stock loan",
    "description": "Stock for a shop.",
    "currency": "KES",
    "min_amount": 1_000_000,
    "max_amount": 10_000_000,
    "min_term_months": 3,
    "max_term_months": 12,
    "purposes": ["business", "other"],
}
LOAN = {
    "loan": {"amount": 5_000_000, "term_months": 6, "purpose": "business"},
    "applicant": {
        "monthly_income": 5_000_000,
        "monthly_obligations": 1_000_000,
        "employment_months": 24,
    },
}


@pytest.fixture(scope="module")
def documents() -> dict[str, dict[str, Any]]:
    """A lender model with enough data (1,000 loans) and one with too little (300)."""
    assert generator.generate  # the documented generator (docs/credit-model.md)
    return {"enough": _document(1_000, 7, "lender-1"), "little": _document(300, 5, "lender-2")}


async def create(
    client: httpx.AsyncClient, headers: dict[str, str], body: dict[str, Any], status: int = 201
) -> dict[str, Any]:
    response = await client.post(URL, json=body, headers=headers)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def fields(answer: dict[str, Any]) -> list[str]:
    return [d["field"] for d in answer["details"]]


async def test_create_list_read_update_and_deactivate(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = account.headers
    made = await create(client, headers, PRODUCT)
    assert made["product_id"].startswith("cpr_") and made["active"] and not made["live"]
    assert {k: made[k] for k in PRODUCT} == PRODUCT and made["model_id"] is None
    product_id = made["product_id"]

    keyed = {**headers, "Idempotency-Key": "product-1"}
    second = {**PRODUCT, "name": "Asset loan", "purposes": []}
    first = await client.post(URL, json=second, headers=keyed)
    assert first.status_code == 201, first.text
    replay = await client.post(URL, json=second, headers=keyed)
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()
    conflicting = await client.post(URL, json={**second, "max_amount": 9}, headers=keyed)
    assert conflicting.status_code == 409, conflicting.text
    taken = await create(client, headers, {**PRODUCT, "name": "business STOCK loan"}, 409)
    assert fields(taken) == ["name"]

    listed = (await client.get(URL, params={"page_size": 1}, headers=headers)).json()
    assert listed["pagination"] == {
        "page": 1, "page_size": 1, "total_pages": 2, "total_items": 2
    }  # fmt: skip
    assert [p["name"] for p in listed["data"]] == ["Asset loan"]
    page_two = (await client.get(URL, params={"page_size": 1, "page": 2}, headers=headers)).json()
    assert [p["product_id"] for p in page_two["data"]] == [product_id]

    read = await client.get(f"{URL}/{product_id}", headers=headers)
    assert read.status_code == 200 and read.json() == made

    changed = await client.patch(
        f"{URL}/{product_id}", json={"max_amount": 20_000_000}, headers=headers
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["max_amount"] == 20_000_000 and changed.json()["name"] == PRODUCT["name"]
    wrong = await client.patch(
        f"{URL}/{product_id}", json={"min_amount": 30_000_000}, headers=headers
    )
    assert wrong.status_code == 400 and fields(wrong.json()) == ["min_amount"]
    assert "max_amount 20000000" in wrong.json()["message"]
    null = await client.patch(f"{URL}/{product_id}", json={"currency": None}, headers=headers)
    assert null.status_code == 400 and fields(null.json()) == ["currency"]

    off = await client.post(f"{URL}/{product_id}/deactivate", headers=headers)
    assert off.status_code == 200 and off.json()["active"] is False, off.text
    active = (await client.get(URL, params={"active": "true"}, headers=headers)).json()
    assert [p["name"] for p in active["data"]] == ["Asset loan"]
    refused = await client.post(DECISION, json={**LOAN, "product": product_id}, headers=headers)
    assert refused.status_code == 400 and fields(refused.json()) == ["product"]
    assert "deactivated" in refused.json()["message"]
    back = await client.patch(f"{URL}/{product_id}", json={"active": True}, headers=headers)
    assert back.status_code == 200 and back.json()["active"] is True


async def test_bad_products_are_400_naming_the_fields(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    documents: dict[str, dict[str, Any]],
) -> None:
    account = await make_account("sandbox")
    headers = account.headers
    upside = await create(
        client,
        headers,
        {**PRODUCT, "min_amount": 20_000_000, "min_term_months": 24, "max_term_months": 6},
        400,
    )
    assert fields(upside) == ["min_amount", "min_term_months"]
    assert "give a min_amount at most max_amount" in upside["message"]
    unknown = await create(client, headers, {**PRODUCT, "purposes": ["business", "horoscope"]}, 400)
    assert fields(unknown) == ["purposes.1"] and "new_car" in unknown["message"]
    no_model = await create(client, headers, {**PRODUCT, "model_id": "cmo_nothing"}, 400)
    assert fields(no_model) == ["model_id"] and "GET /v3/credit/models" in no_model["message"]
    little = await stored_model(db, account.org_id, documents["little"])
    too_little = await create(client, headers, {**PRODUCT, "model_id": little}, 400)
    assert fields(too_little) == ["model_id"] and "too little" in too_little["message"]
    other = await make_account("sandbox")
    theirs = await stored_model(db, other.org_id, documents["enough"])
    assert fields(await create(client, headers, {**PRODUCT, "model_id": theirs}, 400)) == [
        "model_id"
    ]
    # A lender model's purposes: school_fees is known once the model is named, the German
    # purposes are not.
    mine = await stored_model(db, account.org_id, documents["enough"])
    ok = await create(client, headers, {**PRODUCT, "model_id": mine, "purposes": ["school_fees"]})
    assert ok["model_id"] == mine
    german = await create(
        client, headers, {**PRODUCT, "name": "X", "model_id": mine, "purposes": ["new_car"]}, 400
    )
    assert fields(german) == ["purposes.0"]
    listed = (await client.get(URL, headers=headers)).json()
    assert listed["pagination"]["total_items"] == 1


async def test_another_organisation_gets_404_and_a_read_only_key_403(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    owner = await make_account("sandbox")
    product_id = (await create(client, owner.headers, PRODUCT))["product_id"]
    other = await make_account("sandbox")
    live = await make_account("live")
    for account in (other, live):
        for method, path, body in (
            ("GET", f"{URL}/{product_id}", None),
            ("PATCH", f"{URL}/{product_id}", {"name": "Mine"}),
            ("POST", f"{URL}/{product_id}/deactivate", None),
        ):
            response = await client.request(method, path, json=body, headers=account.headers)
            assert response.status_code == 404, (method, path, response.text)
    decided = await client.post(
        DECISION, json={**LOAN, "product": product_id}, headers=other.headers
    )
    assert decided.status_code == 404 and fields(decided.json()) == ["product"]
    assert (await client.get(URL, headers=other.headers)).json()["data"] == []
    reader = await make_account("sandbox", scopes=["credit:read"])
    assert (await client.post(URL, json=PRODUCT, headers=reader.headers)).status_code == 403
    patch = await client.patch(f"{URL}/{product_id}", json={"name": "x"}, headers=reader.headers)
    assert patch.status_code == 403
    assert (await client.get(URL, headers=reader.headers)).status_code == 200


async def test_a_decision_naming_a_product_fits_its_bounds_and_names_it(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = account.headers
    product = await create(client, headers, PRODUCT)
    named = {**LOAN, "product": product["product_id"]}
    inside = await client.post(DECISION, json=named, headers=headers)
    assert inside.status_code == 200, inside.text
    data = inside.json()["data"]
    assert data["product"] == {"product_id": product["product_id"], "name": PRODUCT["name"]}
    assert data["model"]["demo"] is True  # no model named: the active (demo) model
    without = await client.post(DECISION, json=LOAN, headers=headers)
    assert without.status_code == 200 and without.json()["data"]["product"] is None
    assert without.json()["data"]["score"] == data["score"]

    for loan, field, words in (
        ({"amount": 500_000}, "loan.amount", "min_amount 1000000, max_amount 10000000"),
        ({"amount": 10_000_001}, "loan.amount", "max_amount 10000000"),
        ({"term_months": 24}, "loan.term_months", "min_term_months 3, max_term_months 12"),
        ({"purpose": "new_car"}, "loan.purpose", "purposes business, other"),
        ({"purpose": None}, "loan.purpose", "requires a purpose"),
    ):
        body = {**named, "loan": {**LOAN["loan"], **loan}}
        response = await client.post(DECISION, json=body, headers=headers)
        assert response.status_code == 400, response.text
        answer = response.json()
        assert fields(answer) == [field], answer
        assert words in answer["message"] and PRODUCT["name"] in answer["message"]
        assert product["product_id"] in answer["message"]


async def test_the_products_model_decides_whichever_model_is_active(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    documents: dict[str, dict[str, Any]],
) -> None:
    account = await make_account("sandbox")
    headers = account.headers
    mine = await stored_model(db, account.org_id, documents["enough"])
    product = await create(
        client,
        headers,
        {**PRODUCT, "model_id": mine, "purposes": ["school_fees"], "max_amount": 20_000_000},
    )
    loan = {**LOAN, "loan": {"amount": 8_000_000, "term_months": 12, "purpose": "school_fees"}}
    decided = await client.post(
        DECISION, json={**loan, "product": product["product_id"]}, headers=headers
    )
    assert decided.status_code == 200, decided.text
    model = decided.json()["data"]["model"]
    assert model["model_id"] == mine and model["version"] == "lender-1" and not model["demo"]
    # The environment's active model is still the demo's, which knows no school_fees.
    plain = await client.post(DECISION, json=loan, headers=headers)
    assert plain.status_code == 400 and fields(plain.json()) == ["loan.purpose"]
    # Replay scores the stored inputs with the product's model.
    reference = decided.json()["reference"]
    replayed = await client.get(f"/v3/credit/decisions/{reference}/replay", headers=headers)
    assert replayed.status_code == 200 and replayed.json()["reproduced"] is True
    assert replayed.json()["model_id"] == mine
    # Back to the active model: the product's decisions use the demo model.
    cleared = await client.patch(
        f"{URL}/{product['product_id']}",
        json={"model_id": None, "purposes": ["business"]},
        headers=headers,
    )
    assert cleared.status_code == 200 and cleared.json()["model_id"] is None, cleared.text
    again = await client.post(
        DECISION, json={**LOAN, "product": product["product_id"]}, headers=headers
    )
    assert again.status_code == 200 and again.json()["data"]["model"]["demo"] is True
