"""Nigeria's FIRS TIN: the format read locally, PremblyTinProvider against the fake Prembly TIN
server over real HTTP (every documented answer and every failure mode), and the endpoint with
live keys on SQLite and PostgreSQL (charged once when found, free when not answered, 503 for the
checks no documented API serves)."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.engines.tax.formats import FormatProblem, parse_firs_tin
from hakiki.tax.providers.base import LookupOutcome, TaxpayerRecord, TaxQuery
from hakiki.tax.providers.prembly_tin import PremblyTinProvider
from hakiki.tax.providers.registry import TaxProviders
from tests.conftest import AccountFactory, debit_count
from tests.kyc.helpers import ledger_kinds
from tests.tax.fake_prembly_tin import (
    API_KEY,
    APP_ID,
    COMPANY_NAME,
    PERSON_NAME,
    TIN_COMPANY,
    TIN_PERSON,
    FakePremblyTin,
    Mode,
)
from tests.tax.helpers import post, status


def tin(number: str) -> TaxQuery:
    return TaxQuery("pin", "NG", pin=parse_firs_tin(number).number)


# ---------------------------------------------------------------------- the format


@pytest.mark.parametrize(
    ("raw", "number", "display"),
    [
        ("20304753-0001", "203047530001", "20304753-0001"),
        (" 2030 4753 0001 ", "203047530001", "20304753-0001"),
        ("1234567890", "1234567890", "1234567890"),
        ("80918220000000", "80918220000000", "80918220000000"),
    ],
)
def test_firs_tins_are_read_and_displayed_as_firs_writes_them(
    raw: str, number: str, display: str
) -> None:
    reading = parse_firs_tin(raw)
    assert (reading.number, reading.display, reading.authority) == (number, display, "FIRS")


@pytest.mark.parametrize(
    ("raw", "says"),
    [("", "is empty"), ("2030475", "has 7 digits"), ("RC323479", "holds 'R'")],
)
def test_a_malformed_tin_says_what_is_wrong(raw: str, says: str) -> None:
    with pytest.raises(FormatProblem, match=says):
        parse_firs_tin(raw)


# ---------------------------------------------------------------------- the adapter


async def test_a_company_tin_is_found_with_its_name_and_type(
    prembly_tin: PremblyTinProvider, fake_tin: FakePremblyTin
) -> None:
    result = await prembly_tin.lookup(tin(TIN_COMPANY))
    assert result.outcome is LookupOutcome.FOUND and result.provider == "prembly"
    assert result.record == TaxpayerRecord("203047530001", COMPANY_NAME, "Non Individual", None)
    assert result.provider_reference
    sent = fake_tin.requests[-1]
    assert sent["json"] == {"number": TIN_COMPANY, "channel": "TIN"}
    assert sent["headers"]["app-id"] == APP_ID and sent["headers"]["x-api-key"] == API_KEY


async def test_a_person_tin_has_no_type_and_the_phone_is_never_read(
    prembly_tin: PremblyTinProvider,
) -> None:
    result = await prembly_tin.lookup(tin(TIN_PERSON))
    assert result.record == TaxpayerRecord(TIN_PERSON, PERSON_NAME, None, None)


async def test_an_unknown_tin_is_not_found(prembly_tin: PremblyTinProvider) -> None:
    result = await prembly_tin.lookup(tin("99999999-0009"))
    assert result.outcome is LookupOutcome.NOT_FOUND and result.record is None


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [
        (Mode.HTTP_503, LookupOutcome.UNAVAILABLE),
        (Mode.GARBAGE, LookupOutcome.UNAVAILABLE),
        (Mode.UNEXPECTED_JSON, LookupOutcome.UNAVAILABLE),
        (Mode.FOUND_WITHOUT_NAME, LookupOutcome.UNAVAILABLE),
        (Mode.SERVICE_DOWN, LookupOutcome.UNAVAILABLE),
        (Mode.SLOW, LookupOutcome.UNAVAILABLE),
        (Mode.UNAUTHORIZED, LookupOutcome.FAILED),
        (Mode.INSUFFICIENT_BALANCE, LookupOutcome.FAILED),
    ],
)
async def test_every_failure_is_an_outcome_never_an_exception(
    prembly_tin: PremblyTinProvider, fake_tin: FakePremblyTin, mode: Mode, outcome: LookupOutcome
) -> None:
    fake_tin.set_mode(mode)
    result = await prembly_tin.lookup(tin(TIN_COMPANY))
    assert result.outcome is outcome and result.record is None
    assert TIN_COMPANY not in result.message and "203047530001" not in result.message


async def test_it_serves_nigerian_tin_checks_only(prembly_tin: PremblyTinProvider) -> None:
    assert prembly_tin.supports(tin(TIN_COMPANY))
    assert not prembly_tin.supports(TaxQuery("pin", "KE", pin="A000000000W"))
    assert not prembly_tin.supports(
        TaxQuery("tcc", "NG", pin="203047530001", certificate_number="TCC123456")
    )


# ---------------------------------------------------------------------- the endpoint, live


async def test_a_found_tin_is_verified_and_charged_once(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    nigerian_tax: TaxProviders,
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(client, "pin", account.headers, country_code="NG", pin=TIN_COMPANY)
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "VERIFIED" and body["provider"] == "prembly"
    data = body["data"]
    assert data["authority"] == "FIRS" and data["verdict"] == "valid"
    assert data["pin_format"]["display"] == TIN_COMPANY
    assert data["taxpayer"] == {
        "pin": "203047530001",
        "name": COMPANY_NAME,
        "type": "non_individual",
        "pin_status": None,
    }
    assert "gives no status" in body["message"]
    assert await debit_count(db, account.org_id) == 1
    polled = (await status(client, account.headers, body["reference"])).json()
    assert polled["data"]["taxpayer"]["name"] == COMPANY_NAME


async def test_an_unknown_tin_is_billed_as_not_found(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    nigerian_tax: TaxProviders,
) -> None:
    account = await make_account("live", balance=10_000)
    body = (await post(client, "pin", account.headers, country_code="NG", pin="1111111111")).json()
    assert body["status"] == "NOT_FOUND" and body["data"]["verdict"] == "not_found"
    assert await debit_count(db, account.org_id) == 1


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [(Mode.SERVICE_DOWN, "SOURCE_UNAVAILABLE"), (Mode.UNAUTHORIZED, "FAILED")],
)
async def test_no_answer_is_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    nigerian_tax: TaxProviders,
    fake_tin: FakePremblyTin,
    mode: Mode,
    outcome: str,
) -> None:
    account = await make_account("live", balance=10_000)
    fake_tin.set_mode(mode)
    body = (await post(client, "pin", account.headers, country_code="NG", pin=TIN_COMPANY)).json()
    assert body["status"] == outcome
    assert await debit_count(db, account.org_id) == 0


@pytest.mark.parametrize(
    ("check", "fields", "says"),
    [
        ("tcc", {"pin": TIN_COMPANY, "certificate_number": "TCC0001234"}, "documents neither"),
        (
            "withholding",
            {
                "certificate_number": "WHT0001234",
                "withholder_pin": TIN_COMPANY,
                "payee_pin": TIN_PERSON,
            },
            "FIRS publishes no withholding certificate checker",
        ),
    ],
)
async def test_nigerian_certificates_are_503_with_the_reason(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    nigerian_tax: TaxProviders,
    check: str,
    fields: dict[str, str],
    says: str,
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(client, check, account.headers, country_code="NG", **fields)
    assert response.status_code == 503 and response.json()["error"] == "channel_unavailable"
    assert says in response.json()["message"]
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}


async def test_without_prembly_credentials_a_tin_check_is_503(
    client: httpx.AsyncClient, make_account: AccountFactory, runtime_without_prembly: None
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(client, "pin", account.headers, country_code="NG", pin=TIN_COMPANY)
    assert response.status_code == 503
    assert "no Prembly credentials" in response.json()["message"]


async def test_a_malformed_tin_is_a_400_naming_pin(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=10_000)
    response = await post(client, "pin", account.headers, country_code="NG", pin="20304753-0")
    assert response.status_code == 400
    assert response.json()["details"][0]["field"] == "pin"
