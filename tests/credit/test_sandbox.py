"""The credit endpoints with sandbox keys, on SQLite and PostgreSQL: every documented file and
decision, never charged; and bad input from an attacker, each a clear 4xx."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.credit.sandbox import MIDDLE, STRONG, WEAK
from tests.conftest import AccountFactory


def bureau_body(number: str, **more: Any) -> dict[str, Any]:
    return {
        "country_code": "KE",
        "id_type": "national_id",
        "id_number": number,
        "report_reason": "new_application",
        "consent": True,
        **more,
    }


async def test_sandbox_files_and_decisions_by_reference(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    files = {}
    for number in ("12345670", "12345673", "12345674", "12345676"):
        response = await client.post(
            "/v3/credit/bureau", json=bureau_body(number), headers=account.headers
        )
        body = response.json()
        assert body["billing"]["charged"] is False and body["live"] is False
        files[number[-1]] = body
    assert (
        files["3"]["data"]["report"]["file"] == "thin"
        and files["3"]["data"]["report"]["accounts"] == []
    )
    assert files["4"]["data"]["report"]["summary"]["max_days_past_due"] == 45
    assert files["6"]["data"]["report"]["summary"]["non_performing_accounts"] == 1
    again = await client.post(
        "/v3/credit/bureau", json=bureau_body("12345670"), headers=account.headers
    )
    assert again.json()["data"]["report"]["accounts"] == files["0"]["data"]["report"]["accounts"]

    def decide(reference: str) -> dict[str, Any]:
        return {**STRONG, "bureau": None, "bureau_reference": reference}

    decisions = {}
    for digit, body in files.items():
        response = await client.post(
            "/v3/credit/decision", json=decide(body["reference"]), headers=account.headers
        )
        assert response.status_code == 200, response.text
        decisions[digit] = response.json()
    assert decisions["0"]["data"]["decision"] == "approve"
    assert decisions["6"]["data"]["decision"] == "decline"
    assert decisions["3"]["data"]["variables"]["repayment_history"] == "no_credit"
    assert decisions["4"]["data"]["variables"]["repayment_history"] == "delayed"
    assert decisions["0"]["data"]["score"] > decisions["4"]["data"]["score"]


async def test_decision_answer_explains_itself(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    weak = (await client.post("/v3/credit/decision", json=WEAK, headers=account.headers)).json()
    assert (
        weak["data"]["decision"] == "decline"
        and weak["data"]["band"] == "E"
        and 300 <= weak["data"]["score"] < 560
    )
    assert 1 <= len(weak["data"]["reasons"]) <= 4
    lost = [r["points_lost"] for r in weak["data"]["reasons"]]
    assert lost == sorted(lost, reverse=True) and lost[0] > 0
    assert weak["data"]["reasons"][0]["variable"] == "loan_term_months"
    assert (
        "Central Bank of Kenya" in weak["data"]["notice"]
        and "not the sole reason" in weak["data"]["notice"]
    )
    assert weak["data"]["model"]["version"] == "hakiki-german-1.0.0"
    assert (
        weak["data"]["model"]["holdout_auc"]
        > weak["data"]["model"]["plain_logistic_holdout_auc"] - 0.05
    )
    assert {o["code"] for o in weak["data"]["overrides"]} == {"negative_cash_flow"}
    middle = (await client.post("/v3/credit/decision", json=MIDDLE, headers=account.headers)).json()
    assert middle["data"]["decision"] == "refer" and middle["data"]["cutoffs"] == {
        "approve": 620,
        "refer": 560,
    }
    strict = {**MIDDLE, "cutoffs": {"approve": 700, "refer": 600}}
    assert (await client.post("/v3/credit/decision", json=strict, headers=account.headers)).json()[
        "data"
    ]["decision"] == "decline"
    lenient = {**MIDDLE, "cutoffs": {"approve": 500, "refer": 400}}
    assert (await client.post("/v3/credit/decision", json=lenient, headers=account.headers)).json()[
        "data"
    ]["decision"] == "approve"
    bare = (
        await client.post(
            "/v3/credit/decision", json={"loan": STRONG["loan"]}, headers=account.headers
        )
    ).json()
    assert bare["data"]["variables"]["repayment_history"] is None and bare["data"]["bureau"] is None
    assert any(r["description"].endswith("(not supplied)") for r in bare["data"]["reasons"])


@pytest.mark.parametrize(
    ("signals", "code", "decision"),
    [
        ({"confirmed_fraud": True}, "confirmed_fraud", "decline"),
        ({"sanctions_hit": True}, "sanctions_hit", "decline"),
        ({"pep": True}, "pep", "refer"),
    ],
)
async def test_signals_override_the_score(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    signals: dict[str, bool],
    code: str,
    decision: str,
) -> None:
    account = await make_account("sandbox")
    body = (
        await client.post(
            "/v3/credit/decision", json={**STRONG, "signals": signals}, headers=account.headers
        )
    ).json()
    assert (body["data"]["score_decision"], body["data"]["decision"]) == ("approve", decision)
    assert [o["code"] for o in body["data"]["overrides"]] == [code]


async def test_unaffordable_loan_is_referred(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    heavy = {**STRONG, "applicant": {**STRONG["applicant"], "monthly_obligations": 9_000_000}}
    body = (await client.post("/v3/credit/decision", json=heavy, headers=account.headers)).json()
    assert body["data"]["decision"] == "refer" and "affordability" in [
        o["code"] for o in body["data"]["overrides"]
    ]


BAD_BUREAU = [
    ({"consent": False}, "consent"),
    ({"consent": "true"}, "consent"),
    ({"consent": None}, "consent"),
    ({"id_number": "1234\u0000567"}, "id_number"),
    ({"id_number": "9" * 40}, "id_number"),
    ({"id_number": "ABCDEFGH"}, "id_number"),
    ({"country_code": "RW"}, "country_code"),
    ({"report_reason": "curiosity"}, "report_reason"),
    ({"loan_amount": -5}, "loan_amount"),
    ({"loan_amount": True}, "loan_amount"),
    ({"id_type": "nin"}, "id_type"),
    ({"extra": 1}, "extra"),
]


@pytest.mark.parametrize(("change", "field"), BAD_BUREAU)
async def test_bad_bureau_requests_are_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory, change: dict[str, Any], field: str
) -> None:
    account = await make_account("sandbox")
    response = await client.post(
        "/v3/credit/bureau", json=bureau_body("12345670", **change), headers=account.headers
    )
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] == "invalid_request"
    assert field in str(body.get("details")) or field in body["message"]


BAD_DECISIONS = [
    ({"loan": {"amount": 0, "term_months": 12}}, "loan.amount"),
    ({"loan": {"amount": 10**20, "term_months": 12}}, "loan.amount"),
    ({"loan": {"amount": 1000, "term_months": 100000}}, "loan.term_months"),
    ({"loan": {"amount": 1000, "term_months": 12, "purpose": "holiday"}}, "loan.purpose"),
    ({"loan": {"amount": "1000", "term_months": 12}}, "loan.amount"),
    ({"loan": {"amount": 1000.5, "term_months": 12}}, "loan.amount"),
    ({"loan": STRONG["loan"], "applicant": {"age": 30}}, "applicant.age"),
    ({"loan": STRONG["loan"], "applicant": {"gender": "female"}}, "applicant.gender"),
    ({"loan": STRONG["loan"], "signals": {"sanctions_hit": "yes"}}, "signals.sanctions_hit"),
    ({"loan": STRONG["loan"], "cutoffs": {"approve": 600, "refer": 700}}, "cutoffs.refer"),
    ({"loan": STRONG["loan"], "cutoffs": {"approve": 900, "refer": 500}}, "cutoffs.approve"),
    ({"loan": STRONG["loan"], "bureau_reference": "x" * 65}, "bureau_reference"),
    (
        {"loan": STRONG["loan"], "bureau": {"accounts": 1, "lender_types": ["bank"] * 7}},
        "bureau.lender_types",
    ),
    ({"loan": STRONG["loan"], "statement": {"months": 6}}, "statement.average_monthly_inflow"),
]


@pytest.mark.parametrize(("body", "field"), BAD_DECISIONS)
async def test_bad_decisions_are_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory, body: dict[str, Any], field: str
) -> None:
    account = await make_account("sandbox")
    response = await client.post("/v3/credit/decision", json=body, headers=account.headers)
    assert response.status_code == 400, response.text
    assert field in str(response.json().get("details")) or field in response.json()["message"]


async def test_oversized_and_malformed_bodies(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    huge = b'{"loan": {"amount": 1, "term_months": 1}, "pad": "' + b"x" * (2 << 20) + b'"}'
    assert (
        await client.post("/v3/credit/decision", content=huge, headers=headers)
    ).status_code == 413
    broken = await client.post(
        "/v3/credit/bureau", content=b'{"country_code": "KE",', headers=headers
    )
    assert broken.status_code == 400
    surrogate = b'{"loan": {"amount": 1, "term_months": 1}, "bureau_reference": "crb_\\ud800"}'
    lone = await client.post("/v3/credit/decision", content=surrogate, headers=headers)
    assert lone.status_code == 400 and "bureau_reference" in lone.text
    nul = b'{"loan": {"amount": 1, "term_months": 1}, "bureau_reference": "crb_\\u0000"}'
    assert (
        await client.post("/v3/credit/decision", content=nul, headers=headers)
    ).status_code == 400
    nested = b'{"loan": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    assert (
        await client.post("/v3/credit/decision", content=nested, headers=headers)
    ).status_code == 400


async def test_scope_and_sandbox_is_free(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    narrow = await make_account("sandbox", scopes=["tax:read"])
    response = await client.post(
        "/v3/credit/bureau", json=bureau_body("12345670"), headers=narrow.headers
    )
    assert response.status_code == 403 and response.json()["error"] == "insufficient_scope"
    account = await make_account("sandbox")
    body = (await client.post("/v3/credit/decision", json=STRONG, headers=account.headers)).json()
    assert body["billing"] == {
        "charged": False,
        "amount": 0,
        "currency": "KES",
        "transaction_id": None,
    }
