"""The tax endpoints with sandbox keys, through the ASGI app, on SQLite and PostgreSQL: the
golden taxpayers, determinism, PENDING completed by the job with a webhook, the status call,
and requests an attacker would send."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory
from tests.kyc.helpers import events_for
from tests.tax.helpers import post, status, stored_rows, wait_final
from tests.webhooks.conftest import create_endpoint, eventually
from tests.webhooks.receiver import run_receiver

PIN = "A000000000W"
TCC = {"country_code": "KE", "pin": PIN, "certificate_number": "KRAEON00000000"}
WHT = {
    "country_code": "KE",
    "certificate_number": "KRAWHT00000000",
    "withholder_pin": "P000000000K",
    "payee_pin": PIN,
}


@pytest.mark.parametrize(
    ("country", "number", "name", "kind"),
    [
        ("KE", "A000000000W", "WANJIRU AKINYI KAMAU", "individual"),
        ("KE", "p000000000k", "KILIMA AGRO TRADERS LIMITED", "non_individual"),
        ("UG", "1000000000", "MOSES KATO SSEMPIJJA", "individual"),
        ("TZ", "100-000-000", "BARAKA JUMA MWAKYEMBE", "individual"),
    ],
)
async def test_golden_taxpayers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    country: str,
    number: str,
    name: str,
    kind: str,
) -> None:
    account = await make_account("sandbox")
    body = (await post(client, "pin", account.headers, country_code=country, pin=number)).json()
    assert (body["ok"], body["response_code"], body["status"], body["found"]) == (
        True, "00", "VERIFIED", True,
    )  # fmt: skip
    data = body["data"]
    assert (data["verdict"], data["state"], data["check"]) == ("valid", "completed", "pin")
    assert data["taxpayer"]["name"] == name and data["taxpayer"]["type"] == kind
    assert data["taxpayer"]["pin"] == data["pin_format"]["number"]
    assert body["billing"]["charged"] is False and body["provider"] == "hakiki-sandbox"
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["data"] == data and polled["message"] == body["message"]


async def test_the_same_request_gets_the_same_answer(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    other = await make_account("sandbox")
    for body in (TCC, WHT):
        check = "tcc" if body is TCC else "withholding"
        first = (await post(client, check, account.headers, **body)).json()
        again = (await post(client, check, account.headers, **body)).json()
        elsewhere = (await post(client, check, other.headers, **body)).json()
        assert first.pop("request_id") != again.pop("request_id")
        elsewhere.pop("request_id")
        assert first == again == elsewhere
    assert len(await stored_rows(db, account.org_id)) == 2  # one row per reference


async def test_by_national_id_and_the_pin_it_should_have(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    found = (
        await post(client, "pin", account.headers, country_code="KE", national_id="20000000")
    ).json()
    assert found["data"]["taxpayer"]["pin"] == PIN and found["data"]["pin_format"] is None
    same = (
        await post(
            client, "pin", account.headers, country_code="KE", national_id="20000000", pin=PIN
        )
    ).json()
    assert (same["status"], same["data"]["pin_matches"]) == ("VERIFIED", True)
    other = (
        await post(
            client,
            "pin",
            account.headers,
            country_code="KE",
            national_id="20000000",
            pin="A000000001W",
        )
    ).json()
    assert (other["status"], other["response_code"], other["data"]["verdict"]) == (
        "MISMATCH", "04", "mismatch",
    )  # fmt: skip
    # A PIN found by ID answers the same outcome when checked itself (same last digit).
    derived = (
        await post(client, "pin", account.headers, country_code="KE", national_id="31415922")
    ).json()
    pin = derived["data"]["taxpayer"]["pin"]
    checked = (await post(client, "pin", account.headers, country_code="KE", pin=pin)).json()
    assert (
        checked["status"] == "VERIFIED"
        and checked["data"]["taxpayer"]["name"] == derived["data"]["taxpayer"]["name"]
    )


async def test_tcc_verdicts(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    expired = (
        await post(
            client, "tcc", account.headers, **{**TCC, "certificate_number": "KRAEON00000004"}
        )
    ).json()
    assert (expired["status"], expired["data"]["verdict"]) == ("VERIFIED", "expired")
    assert expired["data"]["certificate"]["expiry_date"] == "2025-06-30"
    assert expired["message"] == "The certificate expired on 2025-06-30."
    other = (
        await post(
            client, "tcc", account.headers, **{**TCC, "certificate_number": "KRAEON00000006"}
        )
    ).json()
    assert other["status"] == "MISMATCH" and other["data"]["certificate"]["pin"] != PIN


async def test_withholding_mismatch_names_the_party(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = (
        await post(
            client,
            "withholding",
            account.headers,
            **{**WHT, "certificate_number": "KRAWHT00000006"},
        )
    ).json()
    assert (
        body["status"] == "MISMATCH" and body["message"] == "The certificate names another payee."
    )
    certificate = body["data"]["certificate"]
    assert certificate["withholder"]["pin"] == "P000000000K" and certificate["payee"]["pin"] != PIN
    assert certificate["tax_amount"] * 100 in (
        certificate["gross_amount"] * 5,
        certificate["gross_amount"] * 2,
    )


async def test_pending_completes_through_the_job_with_a_webhook(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "tax_sandbox_pending_seconds", 0.2)
    account = await make_account("sandbox")
    request = {**TCC, "certificate_number": "KRAEON00000007"}
    with run_receiver() as receiver:
        endpoint = await create_endpoint(
            client, account, receiver.url, events=["verification.completed"]
        )
        receiver.secrets = [endpoint["secret"]]
        first = (await post(client, "tcc", account.headers, **request)).json()
        assert (first["status"], first["response_code"], first["async_pending"]) == (
            "PENDING",
            "05",
            True,
        )
        assert first["data"]["state"] == "pending" and first["data"]["certificate"] is None
        final = await wait_final(client, account.headers, first["reference"])
        [message] = await eventually(receiver.accepted)
    assert (final["status"], final["data"]["verdict"], final["data"]["state"]) == (
        "VERIFIED", "valid", "completed",
    )  # fmt: skip
    assert final["data"]["certificate"]["taxpayer_name"] == "WANJIRU AKINYI KAMAU"
    assert message.problem is None
    event = message.json
    assert (event["type"], event["resource_id"]) == ("verification.completed", first["reference"])
    assert event["data"] == {
        "reference": first["reference"],
        "status": "VERIFIED",
        "response_code": "00",
        "state": "completed",
        "found": True,
        "check": {"type": "tax.tcc", "country": "KE"},
        "verdict": "valid",
        "request_id": first["request_id"],
    }
    assert PIN not in message.body.decode()  # no personal data in events
    # The same request again answers PENDING as before; the stored check stays final.
    again = (await post(client, "tcc", account.headers, **request)).json()
    assert again["status"] == "PENDING"
    assert (await status(client, account.headers, first["reference"])).json()[
        "status"
    ] == "VERIFIED"
    assert len(await events_for(db, account.org_id, first["reference"])) == 1


async def test_status_of_another_organisation_or_environment_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = (await post(client, "pin", account.headers, country_code="KE", pin=PIN)).json()
    stranger = await make_account("sandbox")
    live = await make_account("live")
    for headers in (stranger.headers, live.headers):
        missing = await status(client, headers, body["reference"])
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert (await status(client, account.headers, "ref_nothing")).status_code == 404
    assert (await status(client, account.headers, "r" * 5000)).status_code == 404
    nul = await client.get("/v3/tax/status/ref%00x", headers=account.headers)
    assert nul.status_code == 400 and nul.json()["details"][0]["field"] == "reference"


async def test_the_scope_is_tax_read(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["identity:read"])
    response = await post(client, "pin", account.headers, country_code="KE", pin=PIN)
    assert response.status_code == 403 and response.json()["error"] == "insufficient_scope"


@pytest.mark.parametrize(
    ("check", "body", "field"),
    [
        ("pin", {"country_code": "KE", "pin": "A12345678\u0000Z"}, "pin"),
        ("pin", {"country_code": "KE", "pin": 12345678901}, "pin"),
        ("pin", {"country_code": "KE", "pin": ["A000000000W"]}, "pin"),
        ("pin", {"country_code": "KE", "pin": "A" * 5000}, "pin"),
        ("pin", {"country_code": "KE", "pin": "A٠٠٠٠٠٠٠٠٠W"}, "pin"),
        ("pin", {"country_code": "KE", "pin": "<script>"}, "pin"),
        ("pin", {"country_code": "KE", "pin": "A000000000W", "pins": "x"}, "pins"),
        ("pin", {"country_code": "KE", "national_id": "2000000O"}, "national_id"),
        ("pin", {"country_code": "KE", "national_id": "1' OR '1'='1"}, "national_id"),
        ("pin", {"country_code": 254, "pin": PIN}, "country_code"),
        ("pin", {"country_code": "ke\u0000", "pin": PIN}, "country_code"),
        ("pin", {"pin": PIN}, "country_code"),
        ("pin", {"country_code": "UG", "pin": "100000000"}, "pin"),
        ("pin", {"country_code": "TZ", "pin": "A000000000W"}, "pin"),
        ("tcc", {"country_code": "KE", "pin": PIN}, "certificate_number"),
        (
            "tcc",
            {"country_code": "KE", "pin": PIN, "certificate_number": True},
            "certificate_number",
        ),
        (
            "tcc",
            {"country_code": "KE", "pin": PIN, "certificate_number": "KRA\u00a0EON"},
            "certificate_number",
        ),
        ("withholding", {**WHT, "withholder_pin": "P00000000K"}, "withholder_pin"),
        ("withholding", {**WHT, "certificate_number": "x" * 65}, "certificate_number"),
        ("withholding", {k: v for k, v in WHT.items() if k != "payee_pin"}, "payee_pin"),
    ],
)
async def test_bad_requests_are_400s_naming_the_field(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    check: str,
    body: dict[str, object],
    field: str,
) -> None:
    account = await make_account("sandbox")
    response = await client.post(f"/v3/tax/{check}", json=body, headers=account.headers)
    assert response.status_code == 400, response.text
    payload = response.json()
    assert payload["error"] == "invalid_request"
    assert payload["details"][0]["field"] == field, payload


async def test_unreadable_bodies(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    cases = [
        (b'{"country_code": "KE", "pin": "\\ud800"}', 400),  # a lone surrogate
        (b'{"country_code": "KE", "pin": ', 400),  # truncated JSON
        (b"\xff\xfe{}", 400),  # not UTF-8
        (b"[" * 5000 + b"]" * 5000, 400),  # nested too deep
        (b'{"country_code": "KE", "pin": "' + b"A" * (1 << 20) + b'"}', 413),
    ]
    for content, expected in cases:
        response = await client.post("/v3/tax/pin", content=content, headers=headers)
        assert response.status_code == expected, (content[:40], response.text[:200])
    text = await client.post("/v3/tax/pin", content=b"pin=A000000000W", headers=account.headers)
    assert text.status_code == 415


async def test_idempotent_replay_and_conflict(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Idempotency-Key": "tax-replay-1"}
    first = await client.post("/v3/tax/tcc", json=TCC, headers=headers)
    again = await client.post("/v3/tax/tcc", json=TCC, headers=headers)
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.content == first.content
    other = await client.post(
        "/v3/tax/tcc", json={**TCC, "certificate_number": "KRAEON00000001"}, headers=headers
    )
    assert other.status_code == 409 and other.json()["error"] == "idempotency_conflict"
