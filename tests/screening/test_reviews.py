"""The hit-review workflow, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import AccountFactory, unique

REVIEWS = "/v3/account/screening-reviews"


async def sanction_screen(
    client: httpx.AsyncClient, headers: dict[str, str], **extra: Any
) -> dict[str, Any]:
    body = {"name": "Sandbox Sanction Person", **extra}
    response = await client.post("/v3/screening/sanction", json=body, headers=headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def review_of(result: dict[str, Any], decision: str, **overrides: str) -> dict[str, str]:
    hit = result["data"]["aml"]["hits"][0]
    return {
        "subject_key": result["data"]["aml"]["subject_key"],
        "list_code": hit["list_code"],
        "entity_id": hit["entity_id"],
        "entity_fingerprint": hit["entity_fingerprint"],
        "decision": decision,
        "reason": "Customer born 1994 in Kano; listed person born 1970.",
        **overrides,
    }


async def test_false_positive_is_suppressed_for_that_subject_only(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    first = await sanction_screen(client, account.headers)
    assert first["data"]["aml"]["status"] == "POTENTIAL_MATCH"
    response = await client.post(
        REVIEWS, json=review_of(first, "false_positive"), headers=account.headers
    )
    assert response.status_code == 201, response.text
    review = response.json()
    assert review["id"].startswith("rev_") and review["decision"] == "false_positive"

    again = await sanction_screen(client, account.headers)
    assert again["data"]["aml"]["status"] == "CLEAR"
    assert again["data"]["aml"]["hits"] == []
    suppressed = again["data"]["aml"]["suppressed"]
    assert [s["review"]["id"] for s in suppressed] == [review["id"]]
    assert suppressed[0]["review"]["reviewer"] == account.client_id  # the caller, not the body

    # Another subject (other birth date) and another organisation still see the hit.
    other = await sanction_screen(client, account.headers, birth_date="1970-01-01")
    assert other["data"]["aml"]["subject_key"] != first["data"]["aml"]["subject_key"]
    assert other["data"]["aml"]["status"] == "POTENTIAL_MATCH"
    stranger = await make_account("sandbox")
    assert (await sanction_screen(client, stranger.headers))["data"]["aml"]["status"] == (
        "POTENTIAL_MATCH"
    )


async def test_true_match_is_shown_with_its_review_and_overrides_earlier_ones(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    result = await sanction_screen(client, account.headers, countries=["NG"])
    for decision in ("false_positive", "true_match"):
        response = await client.post(
            REVIEWS, json=review_of(result, decision), headers=account.headers
        )
        assert response.status_code == 201
    again = await sanction_screen(client, account.headers, countries=["NG"])
    hit = again["data"]["aml"]["hits"][0]
    assert hit["review"]["decision"] == "true_match" and hit["review"]["applies"] is True
    trail = (
        await client.get(
            REVIEWS,
            params={"subject_key": result["data"]["aml"]["subject_key"]},
            headers=account.headers,
        )
    ).json()
    assert [r["decision"] for r in trail["data"]] == ["true_match", "false_positive"]
    assert trail["pagination"]["total_items"] == 2


async def test_review_lapses_when_the_list_entry_changes(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    result = await sanction_screen(client, account.headers, birth_date="1994")
    stale = review_of(result, "false_positive", entity_fingerprint="0" * 20)
    assert (await client.post(REVIEWS, json=stale, headers=account.headers)).status_code == 201
    again = await sanction_screen(client, account.headers, birth_date="1994")
    hit = again["data"]["aml"]["hits"][0]
    assert hit["review"]["decision"] == "false_positive"
    assert hit["review"]["applies"] is False  # shown again: the entry is not the one reviewed
    assert again["data"]["aml"]["suppressed"] == []


async def test_reviews_apply_to_the_combined_screening(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = {"channel": "bvn", "number": "22222222220"}  # golden: sanctions hit
    first = (
        await client.post("/v3/screening/aml-with-id", json=body, headers=account.headers)
    ).json()
    assert len(first["data"]["aml"]["hits"]) == 1
    review = review_of(first, "false_positive")
    assert (await client.post(REVIEWS, json=review, headers=account.headers)).status_code == 201
    again = (
        await client.post("/v3/screening/aml-with-id", json=body, headers=account.headers)
    ).json()
    assert again["data"]["aml"]["hits"] == []
    assert len(again["data"]["aml"]["suppressed"]) == 1


async def test_review_posts_are_idempotent_and_validated(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    result = await sanction_screen(client, account.headers, birth_date="1980")
    headers = {**account.headers, "Idempotency-Key": unique("review")}
    body = review_of(result, "false_positive")
    one = await client.post(REVIEWS, json=body, headers=headers)
    two = await client.post(REVIEWS, json=body, headers=headers)
    assert one.status_code == two.status_code == 201
    assert one.json() == two.json()
    trail = (
        await client.get(
            REVIEWS, params={"subject_key": body["subject_key"]}, headers=account.headers
        )
    ).json()
    assert trail["pagination"]["total_items"] == 1

    for field, value in (("subject_key", "nothex"), ("decision", "maybe"), ("reason", "")):
        response = await client.post(REVIEWS, json={**body, field: value}, headers=account.headers)
        assert response.status_code == 400
        assert field in [d["field"] for d in response.json()["details"]]


async def test_reviewing_needs_the_write_scope(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["screening:read"])
    result = await sanction_screen(client, account.headers)
    response = await client.post(
        REVIEWS, json=review_of(result, "false_positive"), headers=account.headers
    )
    assert response.status_code == 403
    assert response.json()["error"] == "insufficient_scope"


async def test_reviews_name_the_list_entry_they_decided(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """A review stores no entity name; the audit trail names the entry and its list from the
    loaded lists, and says nothing (null) of an entry no longer listed."""
    account = await make_account("sandbox")
    result = await sanction_screen(client, account.headers)
    hit = result["data"]["aml"]["hits"][0]
    made = await client.post(REVIEWS, json=review_of(result, "true_match"), headers=account.headers)
    assert made.json()["entity_name"] == hit["entity_name"]
    gone = review_of(result, "false_positive", entity_id="no-such-entry")
    assert (await client.post(REVIEWS, json=gone, headers=account.headers)).status_code == 201
    trail = (await client.get(REVIEWS, headers=account.headers)).json()["data"]
    assert [(r["entity_name"], r["list_title"] is None) for r in trail] == [
        (None, True),
        (hit["entity_name"], False),
    ]
