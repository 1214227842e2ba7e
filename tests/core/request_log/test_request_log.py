"""The request log: one row per call, the body reduced to the endpoint's allow-list (every other
value masked), identity number encrypted and hashed."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from hakiki.core.endpoints import CATALOGUE, Endpoint
from hakiki.core.request_log.service import redact
from hakiki.core.tables import request_logs
from tests.conftest import AccountFactory
from tests.identity.providers.fake_prembly import BVN_FOUND, FakePrembly

URL = "/v3/screening/aml-with-id"


async def log_row(app: FastAPI, request_id: str) -> dict[str, object]:
    runtime = app.state.runtime
    await runtime.request_log.flush()
    async with runtime.db.reader.connect() as conn:
        row = (
            await conn.execute(select(request_logs).where(request_logs.c.id == request_id))
        ).one()
    return dict(row._mapping)


async def test_sandbox_call_is_logged_redacted_and_encrypted(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = {
        "channel": "bvn",
        "number": "22212345670",
        "compare": True,
        "first_name": "Grace",
        "last_name": "Wanjiru",
    }
    response = await client.post(URL, json=body, headers=account.headers)
    row = await log_row(app, response.json()["request_id"])
    # The allow-list of aml-with-id keeps the channel and the flags; the rest is masked.
    assert row["request_body"] == {
        "channel": "bvn",
        "number": "<str:11>",
        "compare": True,
        "first_name": "<str:5>",
        "last_name": "<str:7>",
    }
    vault = app.state.runtime.vault
    assert vault.decrypt(str(row["subject_encrypted"])) == "22212345670"
    assert row["subject_hash"] == vault.lookup_hash("NG", "bvn", "22212345670")
    assert (row["status_code"], row["response_code"], row["environment"]) == (200, "00", "sandbox")
    assert row["org_id"] == account.org_id


async def test_billed_call_row_names_its_transaction(
    app: FastAPI,
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    fake_prembly: FakePrembly,
) -> None:
    account = await make_account("live", balance=10_000)
    response = await client.post(
        URL, json={"channel": "bvn", "number": BVN_FOUND}, headers=account.headers
    )
    body = response.json()
    row = await log_row(app, body["request_id"])
    assert row["transaction_id"] == body["billing"]["transaction_id"]


async def test_errors_after_authentication_are_logged(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await client.post(URL, json={"channel": "bvn"}, headers=account.headers)
    assert response.status_code == 400
    row = await log_row(app, response.headers["x-request-id"])
    assert row["status_code"] == 400 and row["org_id"] == account.org_id


async def test_a_fraud_report_logs_only_its_allowed_fields(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live")
    report = {
        "subject": {
            "first_name": "Musa",
            "country": "NG",
            "identifiers": [{"type": "bvn", "value": "22123456789"}],
            "phones": ["0803 123 4567", "0803 765 4321"],
            "emails": ["musa.o@example.com"],
            "address": "12 Broad Street, Lagos",
        },
        "incident": {
            "category": "synthetic_identity",
            "date": "2026-10-02",
            "description": "Loan taken with a BVN whose face matched two others.",
            "amount": 25_000_000,
            "currency": "NGN",
            "account_number": "0123456789",
        },
        "evidence": ["case-2026-1142"],
    }
    response = await client.post("/v3/fraud/reports", json=report, headers=account.headers)
    assert response.status_code == 201, response.text
    row = await log_row(app, response.headers["x-request-id"])
    assert row["request_body"] == {
        "subject": {
            "first_name": "<str:4>",
            "country": "NG",
            "identifiers": [{"type": "bvn", "value": "<str:11>"}],
            "phones": ["<str:13>", "<str:13>"],
            "emails": ["<str:18>"],
            "address": "<str:22>",
        },
        "incident": {
            "category": "synthetic_identity",
            "date": "<str:10>",
            "description": "<str:52>",
            "amount": "<int>",
            "currency": "NGN",
            "account_number": "<str:10>",
        },
        "evidence": ["<str:14>"],
    }


def test_redaction_keeps_only_the_allow_list_at_any_depth() -> None:
    payload = {
        "channel": "nin",
        "number": "12345678901",
        "checks": ["sanction", "pep"],
        "limit": 5,
        "threshold": 0.9,
        "flag": True,
        "missing": None,
        "nested": {"kind": "x", "deeper": {"kind": "y", "secret": "z"}, "list": [{"kind": "k"}]},
        "names": ["Ada", "Obi"],
    }
    allowed = ("channel", "checks", "limit", "nested.deeper.kind", "nested.list.kind")
    assert redact(payload, allowed) == {
        "channel": "nin",
        "number": "<str:11>",
        "checks": ["sanction", "pep"],
        "limit": 5,
        "threshold": "<float>",
        "flag": "<bool>",
        "missing": None,
        "nested": {
            "kind": "<str:1>",
            "deeper": {"kind": "y", "secret": "<str:1>"},
            "list": [{"kind": "k"}],
        },
        "names": ["<str:3>", "<str:3>"],
    }
    # Naming an object allows none of its fields: a path names a leaf.
    assert redact({"subject": {"name": "Ada"}}, ("subject",)) == {"subject": {"name": "<str:3>"}}


def test_an_endpoint_logs_nothing_it_does_not_list() -> None:
    """A new endpoint's default: every value of its body masked."""
    new = Endpoint(key="tax.pin", method="POST", path="/v3/tax/pin", scope=None, summary="PIN")
    assert new.logged_fields == ()
    assert redact({"pin": "A012345678Z", "country_code": "KE"}, new.logged_fields) == {
        "pin": "<str:11>",
        "country_code": "<str:2>",
    }
    # Every endpoint that takes a body lists only leaf paths: no personal field by name.
    personal = ("name", "number", "phone", "email", "address", "birth", "description", "value")
    for endpoint in CATALOGUE.values():
        for path in endpoint.logged_fields:
            leaf = path.rsplit(".", 1)[-1]
            assert not any(word in leaf for word in personal), (endpoint.key, path)
