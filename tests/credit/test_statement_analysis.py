"""The credit decision reading a statement analysis by its id, on both databases: sandbox
samples uploaded through the API and analysed by the job, the verdict's overrides, the score
mapped, 404 for another organisation's or an unknown id and 409 for an unfinished one, both
before any charge."""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.account import service as accounts
from hakiki.core.database import Database
from hakiki.core.wallet import service as wallet
from hakiki.credit.sandbox import STRONG
from hakiki.credit.statement_inputs import cash_flow_score
from tests.conftest import AccountFactory, debit_count
from tests.statements.conftest import sandbox_analysis, unfinished_copy

URL = "/v3/credit/decision"
HOLDER, HOLDER_PHONE = "JANE WANJIKU MWANGI", "0722000111"


def with_analysis(analysis_id: str) -> dict[str, Any]:
    body = {key: value for key, value in STRONG.items() if key != "statement"}
    return {**body, "statement_analysis_id": analysis_id}


async def decide(
    client: httpx.AsyncClient, headers: dict[str, str], body: dict[str, Any], status: int = 200
) -> dict[str, Any]:
    response = await client.post(URL, json=body, headers=headers)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def override_codes(result: dict[str, Any]) -> list[str]:
    return [o["code"] for o in result["data"]["overrides"]]


def test_the_analysis_score_is_rescaled_to_0_100() -> None:
    assert [cash_flow_score(s) for s in (300, 520, 575, 850, None)] == [0, 40, 50, 100, None]
    assert cash_flow_score(519) == 40 and cash_flow_score(514) == 39


async def test_a_genuine_analysis_feeds_the_decision(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    done = await sandbox_analysis(
        client, account.headers, "mpesa-genuine.pdf",
        declared_name=HOLDER, declared_phone=HOLDER_PHONE,
    )  # fmt: skip
    assert done["verdict"] == "genuine"
    result = await decide(client, account.headers, with_analysis(done["analysis_id"]))
    score = done["score"]["score"]
    assert result["data"]["statement"] == {
        "source": "analysis",
        "analysis_id": done["analysis_id"],
        "verdict": "genuine",
        "analysis_score": score,
        "cash_flow_score": cash_flow_score(score),
    }
    assert "statement_tampered" not in override_codes(result)
    assert result["billing"]["charged"] is False
    # the statement's figures reach the scorecard: without them the balance bin is unknown
    without = {key: value for key, value in STRONG.items() if key != "statement"}
    bare = await decide(client, account.headers, without)
    assert bare["data"]["variables"]["account_balance"] is None
    assert result["data"]["variables"]["account_balance"] is not None
    given = await decide(client, account.headers, STRONG)
    assert given["data"]["statement"] == {
        "source": "given",
        "analysis_id": None,
        "verdict": None,
        "analysis_score": None,
        "cash_flow_score": None,
    }


async def test_a_tampered_statement_declines_and_a_suspicious_one_refers(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    tampered = await sandbox_analysis(client, account.headers, "mpesa-tampered.pdf")
    assert tampered["verdict"] == "tampered"
    result = await decide(client, account.headers, with_analysis(tampered["analysis_id"]))
    assert result["data"]["decision"] == "decline" and "statement_tampered" in override_codes(
        result
    )
    suspicious = await sandbox_analysis(
        client, account.headers, "mpesa-genuine.pdf",
        declared_name="PETER OTIENO", declared_phone="0733999888",
    )  # fmt: skip
    assert suspicious["verdict"] == "suspicious"
    result = await decide(client, account.headers, with_analysis(suspicious["analysis_id"]))
    assert "statement_suspicious" in override_codes(result)
    assert result["data"]["decision"] in ("refer", "decline") and result["data"]["statement"][
        "verdict"
    ] == ("suspicious")


async def test_unknown_foreign_and_unfinished_analyses_are_refused_before_any_charge(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    owner = await make_account("sandbox")
    done = await sandbox_analysis(client, owner.headers, "mpesa-genuine.pdf")
    live_key = await accounts.create_key(db, owner.org_name, "live", None)
    await wallet.credit(db, owner.org_id, 10_000, "test top-up")
    live = {"Authorization": f"Bearer {live_key.client_id}:{live_key.secret}"}
    stranger = await make_account("live", balance=10_000)
    body = with_analysis(done["analysis_id"])
    for headers in (stranger.headers, live):  # another organisation; another environment
        answer = await decide(client, headers, body, 404)
        assert answer["error"] == "not_found"
        assert answer["details"] == [
            {"field": "statement_analysis_id", "problem": "unknown analysis"}
        ]
    for status in ("pending", "running", "failed"):
        unfinished = await unfinished_copy(db, done["analysis_id"], status)
        answer = await decide(client, owner.headers, with_analysis(unfinished), 409)
        assert answer["error"] == "conflict" and status in answer["message"]
        assert answer["details"][0]["field"] == "statement_analysis_id"
    both = {**with_analysis(done["analysis_id"]), "statement": STRONG["statement"]}
    answer = await decide(client, live, both, 400)
    assert answer["details"][0]["field"] == "statement"
    for bad in ("", "sta_\u0000", "x" * 65, 7):
        answer = await decide(client, live, with_analysis(bad), 400)  # type: ignore[arg-type]
        assert answer["details"][0]["field"] == "statement_analysis_id"
    assert await debit_count(db, owner.org_id) == 0
    assert await debit_count(db, stranger.org_id) == 0


async def test_a_live_decision_on_a_live_analysis_is_charged_once(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=100_000)
    done = await sandbox_analysis(client, account.headers, "mpesa-tampered.pdf")
    assert done["live"] is True and done["charged_amount"] > 0
    assert await debit_count(db, account.org_id) == 1  # the analysis
    result = await decide(client, account.headers, with_analysis(done["analysis_id"]))
    assert result["live"] is True and result["billing"]["charged"] is True
    assert (
        result["data"]["decision"] == "decline"
        and result["data"]["statement"]["verdict"] == "tampered"
    )
    assert await debit_count(db, account.org_id) == 2
