"""Check types, countries, system packages and custom packages: every validation, another
organisation's 404, attacker inputs; on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx

from tests.background.helpers import candidate, invite, request_of
from tests.conftest import AccountFactory

BASE = "/v3/background"


def package(name: object = "Loan officers", **extra: object) -> dict[str, object]:
    return {
        "name": name,
        "country_code": "KE",
        "check_types": ["identity", "sanctions_pep", "criminal_record"],
        **extra,
    }


async def test_check_types_per_country_and_unknown_country(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    every = (await client.get(f"{BASE}/check-types", headers=headers)).json()
    codes = {c["code"] for c in every["data"]}
    assert {"identity", "sanctions_pep", "criminal_record", "credit_bureau"} <= codes
    credit = next(c for c in every["data"] if c["code"] == "credit_bureau")
    assert credit["available"] is True and credit["kind"] == "automated"
    for country in ("KE", "UG", "TZ", "NG"):
        listed = await client.get(f"{BASE}/check-types?country_code={country}", headers=headers)
        assert listed.status_code == 200 and listed.json()["country_code"] == country
        kinds = {c["kind"] for c in listed.json()["data"]}
        assert kinds == {"automated", "manual"}
    nigeria = await client.get(f"{BASE}/check-types?country_code=ng", headers=headers)
    assert "tax_compliance" not in {c["code"] for c in nigeria.json()["data"]}
    kenya = await client.get(f"{BASE}/check-types?country_code=KE", headers=headers)
    identity = next(c for c in kenya.json()["data"] if c["code"] == "identity")
    assert "IPRS" in identity["name"] and identity["needs"] == ["id_number", "date_of_birth"]
    for bad in ("ZZ", "K", "KEN", "\u202eKE", "ke%00"):
        refused = await client.get(
            f"{BASE}/check-types", params={"country_code": bad}, headers=headers
        )
        assert refused.status_code == 400, bad
        assert refused.json()["error"] == "invalid_request"
    countries = (await client.get(f"{BASE}/countries", headers=headers)).json()["data"]
    assert [c["country_code"] for c in countries] == ["KE", "UG", "TZ", "NG"]
    assert all(c["automated"] and c["manual"] for c in countries)


async def test_system_packages_three_per_country(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    for country in ("KE", "UG", "TZ", "NG"):
        listed = await client.get(f"{BASE}/system-packages?country_code={country}", headers=headers)
        data = listed.json()["data"]
        assert len(data) >= 3 and all(p["country_code"] == country for p in data)
        assert all(p["system"] and p["price"] > 0 and p["check_types"] for p in data)
    one = await client.get(f"{BASE}/system-packages/spk_ke_driver", headers=headers)
    assert one.status_code == 200
    assert one.json()["check_types"] == ["identity", "criminal_record", "references"]
    missing = await client.get(f"{BASE}/system-packages/spk_zz_driver", headers=headers)
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    everything = await client.get(f"{BASE}/system-packages?page_size=100", headers=headers)
    assert everything.json()["pagination"]["total_items"] >= 12


async def test_custom_package_crud_and_conflict(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    made = await client.post(f"{BASE}/packages", json=package(), headers=headers)
    assert made.status_code == 201, made.text
    created = made.json()
    assert created["id"].startswith("bpk_") and created["system"] is False
    assert created["price"] == 2000 + 1000 + 0 and created["turnaround_hours"] == 72
    again = await client.post(f"{BASE}/packages", json=package("LOAN OFFICERS"), headers=headers)
    assert again.status_code == 409 and again.json()["error"] == "conflict"
    read = await client.get(f"{BASE}/packages/{created['id']}", headers=headers)
    assert read.json()["name"] == "Loan officers"
    other = await client.post(f"{BASE}/packages", json=package("Drivers"), headers=headers)
    renamed = await client.put(
        f"{BASE}/packages/{other.json()['id']}", json=package("Loan Officers"), headers=headers
    )
    assert renamed.status_code == 409
    updated = await client.put(
        f"{BASE}/packages/{created['id']}",
        json=package("Loan officers", check_types=["identity"], description="Only identity."),
        headers=headers,
    )
    assert updated.status_code == 200 and updated.json()["check_types"] == ["identity"]
    listed = (await client.get(f"{BASE}/packages", headers=headers)).json()
    assert listed["pagination"]["total_items"] == 2
    gone = await client.delete(f"{BASE}/packages/{created['id']}", headers=headers)
    assert gone.status_code == 204
    assert (
        await client.get(f"{BASE}/packages/{created['id']}", headers=headers)
    ).status_code == 404
    assert (
        await client.delete(f"{BASE}/packages/{created['id']}", headers=headers)
    ).status_code == 404
    # the name is free again
    assert (
        await client.post(f"{BASE}/packages", json=package(), headers=headers)
    ).status_code == 201


async def test_check_type_validation_names_the_item(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    cases = [
        (["identity", "horoscope"], "check_types.1", "not a check type"),
        (["identity", "identity"], "check_types.1", "twice"),
    ]
    for codes, field, words in cases:
        refused = await client.post(
            f"{BASE}/packages", json=package(check_types=codes), headers=headers
        )
        assert refused.status_code == 400, refused.text
        assert refused.json()["details"][0]["field"] == field
        assert words in refused.json()["details"][0]["problem"]
    uganda = package(country_code="UG", check_types=["identity", "credit_bureau"])
    refused = await client.post(f"{BASE}/packages", json=uganda, headers=headers)
    assert refused.status_code == 400
    assert refused.json()["details"][0]["field"] == "check_types.1"
    assert "credit_bureau is unavailable" in refused.json()["details"][0]["problem"]
    not_here = await client.post(
        f"{BASE}/packages",
        json=package(country_code="NG", check_types=["identity", "directorships"]),
        headers=headers,
    )
    assert not_here.status_code == 400
    assert not_here.json()["details"][0] == {
        "field": "check_types.1",
        "problem": "directorships is not offered in NG",
    }


async def test_attacker_inputs_are_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    bad_bodies: list[tuple[object, str]] = [
        (package(name=""), "name"),
        (package(name="a\x00b"), "name"),
        (package(name="line\nbreak"), "name"),
        (package(name="x" * 121), "name"),
        (package(name=12), "name"),
        (package(country_code="ZZ"), "country_code"),
        (package(check_types=[]), "check_types"),
        (package(check_types="identity"), "check_types"),
        (package(check_types=[1]), "check_types.0"),
        (package(check_types=["x"] * 21), "check_types"),
        (package(description="d" * 1001), "description"),
        (package(extra=True), "extra"),
        ([], "body"),
    ]
    for body, field in bad_bodies:
        refused = await client.post(f"{BASE}/packages", json=body, headers=headers)
        assert refused.status_code == 400, (body, refused.text)
        fields = [d["field"] for d in refused.json().get("details", [])]
        assert any(f == field or f.startswith(field) for f in fields) or field == "body", (
            field,
            refused.json(),
        )
    surrogate = b'{"name": "\\ud800", "country_code": "KE", "check_types": ["identity"]}'
    refused = await client.post(
        f"{BASE}/packages",
        content=surrogate,
        headers=headers | {"Content-Type": "application/json"},
    )
    assert refused.status_code == 400
    huge = await client.post(
        f"{BASE}/packages",
        content=b'{"name": "' + b"a" * (2 << 20) + b'"}',
        headers=headers | {"Content-Type": "application/json"},
    )
    assert huge.status_code == 413
    long_id = await client.get(f"{BASE}/packages/{'x' * 41}", headers=headers)
    assert long_id.status_code == 400


async def test_another_organisations_package_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    mine = (await make_account()).headers
    theirs = (await make_account()).headers
    made = (await client.post(f"{BASE}/packages", json=package(), headers=mine)).json()
    path = f"{BASE}/packages/{made['id']}"
    assert (await client.get(path, headers=theirs)).status_code == 404
    assert (await client.put(path, json=package(), headers=theirs)).status_code == 404
    assert (await client.delete(path, headers=theirs)).status_code == 404
    invited = await invite(client, theirs, made["id"], candidate())
    assert invited.status_code == 404
    # the same name is free in another organisation
    assert (
        await client.post(f"{BASE}/packages", json=package(), headers=theirs)
    ).status_code == 201


async def test_scopes(client: httpx.AsyncClient, make_account: AccountFactory) -> None:
    reader = (await make_account(scopes=["background:read"])).headers
    assert (await client.get(f"{BASE}/packages", headers=reader)).status_code == 200
    refused = await client.post(f"{BASE}/packages", json=package(), headers=reader)
    assert refused.status_code == 403 and refused.json()["error"] == "insufficient_scope"
    nobody = (await make_account(scopes=["fraud:read"])).headers
    assert (await client.get(f"{BASE}/countries", headers=nobody)).status_code == 403


async def test_deleting_a_package_in_use_keeps_its_requests(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account()).headers
    made = (await client.post(f"{BASE}/packages", json=package(), headers=headers)).json()
    invited = await invite(client, headers, made["id"], candidate())
    assert invited.status_code == 201, invited.text
    reference = invited.json()["data"]["requests"][0]["reference"]
    assert (
        await client.delete(f"{BASE}/packages/{made['id']}", headers=headers)
    ).status_code == 204
    still = await client.get(f"{BASE}/candidates/{reference}", headers=headers)
    assert still.status_code == 200
    body = request_of(still.json())
    assert body["package"]["name"] == "Loan officers"
    assert [c["code"] for c in body["checks"]] == ["criminal_record", "identity", "sanctions_pep"]
