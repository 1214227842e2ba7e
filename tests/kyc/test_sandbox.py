"""The KYC endpoints with sandbox keys, through the ASGI app, on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.runtime import Runtime
from tests.conftest import AccountFactory
from tests.kyc.helpers import post, status, td3, wait_final

PATHS = {"national_id": "national-id", "drivers_license": "drivers-license", "passport": "passport"}


@pytest.mark.parametrize(
    ("document", "country", "number", "channel", "first_name"),
    [
        ("national_id", "NG", "70000000000", "nin", "Adaeze"),
        ("national_id", "KE", "20000000", "national_id", "Wanjiru"),
        ("national_id", "UG", "CM900000000A00", "nin", "Moses"),
        ("national_id", "TZ", "19850101000000000000", "nida", "Baraka"),
        ("passport", "KE", "AK0000000", "passport", "Wanjiru"),
        ("passport", "UG", "A0000000", "passport", "Moses"),
        ("passport", "TZ", "TAE000000", "passport", "Baraka"),
        ("drivers_license", "KE", "KDL0000000", "drivers_license", "Wanjiru"),
        ("drivers_license", "UG", "100000000", "drivers_license", "Moses"),
        ("drivers_license", "TZ", "4000000000", "drivers_license", "Baraka"),
    ],
)
async def test_golden_numbers_verify_in_every_country(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    document: str,
    country: str,
    number: str,
    channel: str,
    first_name: str,
) -> None:
    account = await make_account("sandbox")
    response = await post(
        client, PATHS[document], account.headers, country_code=country, number=number
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["ok"], body["response_code"], body["status"], body["found"]) == (
        True, "00", "VERIFIED", True,
    )  # fmt: skip
    assert body["async_pending"] is False and body["soft_error"] is False
    assert body["data"]["document"] == {"type": document, "country": country, "channel": channel}
    assert body["data"]["state"] == "completed"
    assert body["data"]["identity"]["first_name"] == first_name
    assert body["billing"]["charged"] is False and body["provider"] == "hakiki-sandbox"
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["status"] == "VERIFIED" and polled["data"] == body["data"]


@pytest.mark.parametrize(
    ("document", "country", "number", "ok"),
    [
        ("national_id", "NG", "70123456780", True),
        ("national_id", "NG", "7012345678", False),
        ("national_id", "KE", "23456780", True),
        ("national_id", "KE", "123456", False),
        ("national_id", "UG", "CF90012345670A", True),
        ("national_id", "UG", "CX90012345670A", False),
        ("national_id", "TZ", "19850515123450000100", True),
        ("national_id", "TZ", "19851315123450000100", False),
        ("passport", "NG", "A01234560", True),
        ("passport", "NG", "AB1234560", False),
        ("passport", "KE", "AK1234560", True),
        ("passport", "KE", "AK123456", False),
        ("passport", "UG", "B1234560", True),
        ("passport", "UG", "1234560", False),
        ("passport", "TZ", "TAE123450", True),
        ("passport", "TZ", "TAEX12345", False),
        ("drivers_license", "NG", "ABC12345YZ00", True),
        ("drivers_license", "NG", "ABC12345Y00", False),
        ("drivers_license", "KE", "DLA1234560", True),
        ("drivers_license", "KE", "D1234560", False),
        ("drivers_license", "UG", "100123450", True),
        ("drivers_license", "UG", "10012A450", False),
        ("drivers_license", "TZ", "4001234560", True),
        ("drivers_license", "TZ", "40012345600", False),
    ],
)
async def test_number_formats_per_country(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    document: str,
    country: str,
    number: str,
    ok: bool,
) -> None:
    account = await make_account("sandbox")
    names = {"first_name": "Ada", "last_name": "Obi"}  # NG passports and licences need them
    response = await post(
        client, PATHS[document], account.headers, country_code=country, number=number, **names
    )
    if ok:
        assert response.status_code == 200, response.text
        return
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid_request"
    assert body["details"][0]["field"] == "number"
    assert country in body["message"]


async def test_bad_requests_name_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    cases = [
        ({"number": "20000000"}, "country_code"),
        ({"country_code": "GH", "number": "20000000"}, "country_code"),
        ({"country_code": "KE"}, "number"),
        ({"country_code": "KE", "number": "20000000", "colour": "red"}, "colour"),
        ({"country_code": "KE", "number": "20000000", "compare": True}, "first_name"),
    ]
    for body, field in cases:
        response = await client.post("/v3/kyc/national-id", json=body, headers=account.headers)
        assert response.status_code == 400, (body, response.text)
        assert field in {d["field"].split(".")[-1] for d in response.json()["details"]}, body
    licence = await post(
        client, "drivers-license", account.headers, country_code="NG", number="ABC12345YZ00"
    )
    assert licence.status_code == 400
    assert [d["field"] for d in licence.json()["details"]] == ["first_name", "last_name"]


@pytest.mark.parametrize(
    ("number", "code", "status_", "ok", "found", "soft", "state"),
    [
        ("20000005", "01", "NOT_FOUND", True, False, False, "completed"),
        ("20000008", "02", "SOURCE_UNAVAILABLE", False, False, True, "failed"),
        ("20000009", "09", "FAILED", False, False, True, "failed"),
        ("20000007", "05", "PENDING", True, False, False, "pending"),
    ],
)
async def test_sandbox_outcomes_follow_the_last_digit(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    number: str,
    code: str,
    status_: str,
    ok: bool,
    found: bool,
    soft: bool,
    state: str,
) -> None:
    account = await make_account("sandbox")
    body = (
        await post(client, "national-id", account.headers, country_code="KE", number=number)
    ).json()
    assert (body["response_code"], body["status"], body["ok"], body["found"]) == (
        code, status_, ok, found,
    )  # fmt: skip
    assert body["soft_error"] is soft and body["async_pending"] is (code == "05")
    assert body["data"]["state"] == state and body["data"]["identity"] is None


async def test_sandbox_mismatch_with_compare(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    names = {"compare": True, "first_name": "Grace", "last_name": "Wanjiru"}
    verified = await post(
        client, "national-id", account.headers, country_code="KE", number="23456780", **names
    )
    assert verified.json()["status"] == "VERIFIED"
    assert verified.json()["data"]["comparison"]["match"] is True
    mismatch = await post(
        client, "national-id", account.headers, country_code="KE", number="23456786", **names
    )
    assert (mismatch.json()["response_code"], mismatch.json()["status"]) == ("04", "MISMATCH")


async def test_sandbox_pending_completes_through_the_job(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime.settings, "kyc_sandbox_pending_seconds", 0.2)
    account = await make_account("sandbox")
    first = (
        await post(client, "passport", account.headers, country_code="KE", number="AK0000007")
    ).json()
    assert (first["status"], first["async_pending"]) == ("PENDING", True)
    assert first["reference"].startswith("ref_sbx_")
    final = await wait_final(client, account.headers, first["reference"])
    assert (final["status"], final["response_code"], final["async_pending"]) == (
        "VERIFIED", "00", False,
    )  # fmt: skip
    assert final["data"]["state"] == "completed"
    assert final["data"]["identity"]["last_name"] == "Kamau"  # the golden identity
    assert final["billing"]["charged"] is False
    # The same request again answers as before (deterministic), and its status stays final.
    again = (
        await post(client, "passport", account.headers, country_code="KE", number="AK0000007")
    ).json()
    assert again.pop("request_id") != first.pop("request_id")
    assert again == first
    assert (await wait_final(client, account.headers, first["reference"]))["status"] == "VERIFIED"


async def test_passport_mrz_check_digits(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    mrz = td3("AK0000000", "KEN")
    good = await post(
        client, "passport", account.headers, country_code="KE", number="AK0000000", mrz=mrz
    )
    assert good.status_code == 200, good.text
    summary = good.json()["data"]["mrz"]
    assert (summary["document_number"], summary["issuing_state"], summary["surname"]) == (
        "AK0000000", "KEN", "KAMAU",
    )  # fmt: skip
    as_text = await post(
        client,
        "passport",
        account.headers,
        country_code="KE",
        number="AK0000000",
        mrz="\n".join(mrz),
    )
    assert as_text.status_code == 200

    def broken(position: int) -> list[str]:
        line = mrz[1]
        digit = str((int(line[position]) + 1) % 10)
        return [mrz[0], line[:position] + digit + line[position + 1 :]]

    for position, fields in [
        (9, ["mrz.document_number", "mrz.composite"]),
        (19, ["mrz.birth_date", "mrz.composite"]),
        (27, ["mrz.expiry_date", "mrz.composite"]),
        (43, ["mrz.composite"]),
    ]:
        response = await post(
            client,
            "passport",
            account.headers,
            country_code="KE",
            number="AK0000000",
            mrz=broken(position),
        )
        assert response.status_code == 400, response.text
        assert [d["field"] for d in response.json()["details"]] == fields
        assert fields[0].removeprefix("mrz.") in response.json()["message"]

    for mrz_value, number, field in [
        (td3("AK0000010", "KEN"), "AK0000000", "mrz.document_number"),
        (td3("AK0000000", "UGA"), "AK0000000", "mrz.issuing_state"),
        ([mrz[0], mrz[1][:40]], "AK0000000", "mrz"),
        ([mrz[0]], "AK0000000", "mrz"),
    ]:
        response = await post(
            client, "passport", account.headers, country_code="KE", number=number, mrz=mrz_value
        )
        assert response.status_code == 400, response.text
        assert response.json()["details"][0]["field"] == field


async def test_status_of_another_organisation_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    owner = await make_account("sandbox")
    other = await make_account("sandbox")
    body = (
        await post(client, "national-id", owner.headers, country_code="UG", number="CM90012345670A")
    ).json()
    assert (await status(client, owner.headers, body["reference"])).status_code == 200
    response = await status(client, other.headers, body["reference"])
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert (await status(client, owner.headers, "ref_nope")).status_code == 404


async def test_idempotent_replay(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Idempotency-Key": "kyc-1"}
    body = {"country_code": "TZ", "number": "19850515123450000103"}
    first = await client.post("/v3/kyc/national-id", json=body, headers=headers)
    second = await client.post("/v3/kyc/national-id", json=body, headers=headers)
    assert second.headers.get("idempotent-replayed") == "true"
    assert second.content == first.content
    conflict = await client.post(
        "/v3/kyc/national-id", json={**body, "number": "19850515123450000104"}, headers=headers
    )
    assert conflict.status_code == 409
