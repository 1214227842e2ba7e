"""Nigeria's CAC through Prembly's "Advance CAC" against the fake registries, with live keys on
SQLite and PostgreSQL: a company and its directors, shareholders and persons with significant
control; a business name; CAC numbers read locally; outages free; a Nigerian name still goes to
the global fallback."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.engines.kyb.numbers import RegistrationNumberError, parse_registration_number
from tests.conftest import AccountFactory, debit_count
from tests.kyb.conftest import UseRegistries
from tests.kyb.fake_registries import NG_BUSINESS_NAME, NG_FOUND, FakeRegistries, FaultMode
from tests.kyb.helpers import post

NG = {"country_code": "NG", "registration_number": NG_FOUND}


@pytest.mark.parametrize(
    ("raw", "number", "entity_type"),
    [
        ("RC 1234567", "RC1234567", "company"),
        ("rc-092932", "RC092932", "company"),
        ("BN 2345678", "BN2345678", "business_name"),
        ("IT/12345", "IT12345", "incorporated_trustees"),
        ("LLP 123", "LLP123", "limited_liability_partnership"),
        ("1234567", "1234567", None),
    ],
)
def test_cac_numbers_are_read_with_their_type(
    raw: str, number: str, entity_type: str | None
) -> None:
    parsed = parse_registration_number("NG", raw)
    assert (parsed.number, parsed.entity_type, parsed.scheme) == (number, entity_type, "NG-CAC")


@pytest.mark.parametrize("raw", ["RC", "XY 12345", "RC 123456789", "PVT-AB12CD34"])
def test_anything_else_is_not_a_cac_number(raw: str) -> None:
    with pytest.raises(RegistrationNumberError, match="Nigerian CAC number"):
        parse_registration_number("NG", raw)


async def test_nigerian_ownership_comes_from_cac_with_its_significant_controllers(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    body = (await post(client, "ownership", account.headers, **NG)).json()
    assert (body["status"], body["provider"]) == ("VERIFIED", "prembly"), body
    data = body["data"]
    company = data["company"]
    assert company["name"] == "ZARIA AGRO-ALLIED NIGERIA LIMITED"
    assert (company["registration_number"], company["country"], company["registration_date"]) == (
        "RC1234567", "NG", "2015-03-02",
    )  # fmt: skip
    assert company["entity_type"] == "company" and company["status"] == "registered"
    owners = data["ownership"]
    assert [(d["name"], d["role"]) for d in owners["directors"]] == [
        ("Halima Bello", "director"), ("Aisha Musa", "secretary"),
    ]  # fmt: skip
    assert [(s["name"], s["percentage"]) for s in owners["shareholders"]] == [
        ("Halima Bello", 70.0), ("Emeka John Okafor", 27.0), ("Tunde Adeyemi", 3.0),
    ]  # fmt: skip
    # Over 5% by shareholding, and the listed person with significant control (3% only).
    assert [b["name"] for b in owners["beneficial_owners"]] == [
        "Halima Bello", "Emeka John Okafor", "Tunde Adeyemi",
    ]  # fmt: skip
    assert owners["share_capital"] == "10,000,000"
    assert await debit_count(db, account.org_id) == 1
    paths = [c[1] for c in fake_registries.calls("prembly")]
    assert paths == ["/prembly/verification/cac/advance"]


async def test_a_business_name_is_asked_as_bn(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_registries: UseRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    body = (
        await post(
            client, "business", account.headers, country_code="NG",
            registration_number=NG_BUSINESS_NAME,
        )
    ).json()  # fmt: skip
    assert body["status"] == "VERIFIED", body
    company = body["data"]["company"]
    assert (company["name"], company["entity_type"], company["status"]) == (
        "MAMA NKECHI KITCHEN", "business_name", "inactive",
    )  # fmt: skip


async def test_an_unknown_number_is_not_found_and_an_outage_is_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    account = await make_account("live", balance=20_000)
    missing = (
        await post(client, "business", account.headers, country_code="NG",
                   registration_number="RC 7654321")
    ).json()  # fmt: skip
    assert missing["status"] == "NOT_FOUND"
    charged = await debit_count(db, account.org_id)
    for mode in (
        FaultMode.SERVICE_DOWN,
        FaultMode.HTTP_503,
        FaultMode.GARBAGE,
        FaultMode.UNEXPECTED_JSON,
    ):
        fake_registries.set_mode(mode)
        down = (await post(client, "business", account.headers, **NG)).json()
        assert down["status"] == "SOURCE_UNAVAILABLE", (mode, down)
    fake_registries.set_mode(FaultMode.UNAUTHORIZED)
    refused = (await post(client, "business", account.headers, **NG)).json()
    assert refused["status"] == "FAILED"
    assert await debit_count(db, account.org_id) == charged


async def test_without_prembly_a_nigerian_number_goes_to_the_global_fallback(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    use_registries: UseRegistries,
    fake_registries: FakeRegistries,
) -> None:
    use_registries(prembly=False, opencorporates=True)
    account = await make_account("live", balance=20_000)
    body = (await post(client, "business", account.headers, **NG)).json()
    assert body["provider"] == "opencorporates"
    assert not [c for c in fake_registries.calls("prembly") if c[1].endswith("/cac/advance")]
