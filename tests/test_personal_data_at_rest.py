"""No personal value a call carries is ever stored in clear: after a fraud report, scans (ID,
phone, address, identity-risk), live aml-with-id and KYC checks through the fake Prembly and
the fake Smile ID, live tax checks through the fake GavaConnect, and name screenings, every
file of a fresh data directory (the SQLite database, its WAL and shared memory, anything else)
and, on PostgreSQL, every text and JSON column of every table are searched for each value, as
sent and as normalised."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.settings import Settings
from hakiki.core.wallet import service as wallet
from hakiki.lists.index_cache import cache_path
from tests.conftest import TEST_SECRET_KEY
from tests.identity.providers.fake_prembly import BVN_FOUND, NIN_FOUND, FakePrembly
from tests.identity.providers.fake_smile_id import KE_NATIONAL_ID, UG_NIN, FakeSmileId
from tests.support.databases import fresh_postgres_url
from tests.tax.fake_gavaconnect import (
    CONSUMER_KEY,
    CONSUMER_SECRET,
    ID_FOUND,
    PIN_ACTIVE,
    PIN_INDIVIDUAL,
    TCC_VALID,
    WHT_FOUND,
    WITHHOLDING_PATH,
    FakeGavaConnect,
)

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]

REPORT = {
    "subject": {
        "first_name": "Wambui",
        "middle_name": "Nyokabi",
        "last_name": "Kariũki",
        "date_of_birth": "1987-11-23",
        "gender": "female",
        "country": "KE",
        "identifiers": [
            {"type": "national_id", "value": "31415926"},
            {"type": "passport", "value": "AK7733219"},
        ],
        "phones": ["0722 555 019"],
        "emails": ["Wambui.Kariuki@Example.org"],
        "address": "House 14, Ngong Road, Kilimani",
    },
    "incident": {
        "category": "identity_theft",
        "date": "2026-05-04",
        "description": "Opened a loan account with a borrowed identity and vanished.",
        "amount": 4_500_000,
        "currency": "KES",
        "bank": "Harambee Savings Cooperative",
        "account_number": "0170291847563",
    },
    "evidence": ["case-wambui-0042"],
}
IDENTITY_RISK = {
    "first_name": "Otieno",
    "last_name": "Achieng",
    "date_of_birth": "1979-02-17",
    "identifiers": [{"channel": "national_id", "number": "27182818", "country_code": "KE"}],
    "phones": ["+254 733 901 442"],
    "emails": ["otieno.achieng@example.net"],
    "address": "Plot 9, Moi Avenue, Mombasa",
    "country_code": "KE",
    "ip": "102.89.33.14",
}
ID_SCAN = {
    "channel": "national_id",
    "number": "16180339",
    "country_code": "KE",
    "first_name": "Kipchumba",
    "last_name": "Rotich",
    "date_of_birth": "1992-08-30",
    "phone": "0711 204 386",
}
PHONE_SCAN = {"phone": "0700 123 987", "country_code": "KE"}
AML_WITH_ID = {
    "channel": "bvn",
    "number": BVN_FOUND,
    "compare": True,
    "first_name": "Chiamaka",
    "last_name": "Okafor-Nwosu",
}
INDIVIDUAL = {
    "first_name": "Baraka",
    "last_name": "Mwangangi",
    "birth_date": "1968-06-02",
    "identifiers": ["A2233445"],
    "countries": ["KE"],
}
AML = {"name": "Zawadi Njeri Kamau", "identifiers": ["KE-998877"], "checks": ["sanction"]}
ADDRESS = {
    "address": "Flat 3B, Tom Mboya Street, Nairobi",
    "country_code": "KE",
    "latitude": -1.28333,
    "longitude": 36.81667,
}
KYC = {
    "country_code": "NG",
    "number": NIN_FOUND,
    "compare": True,
    "first_name": "Emeka",
    "last_name": "Eze-Obi",
}
TAX_PIN = {"country_code": "KE", "national_id": ID_FOUND, "pin": PIN_INDIVIDUAL}
TAX_TCC = {"country_code": "KE", "pin": PIN_INDIVIDUAL, "certificate_number": TCC_VALID}
TAX_WITHHOLDING = {
    "country_code": "KE",
    "certificate_number": WHT_FOUND,
    "withholder_pin": PIN_ACTIVE,
    "payee_pin": PIN_INDIVIDUAL,
}
TAX_SANDBOX = {"country_code": "KE", "national_id": "31415911", "pin": "A123456781K"}

KYC_SMILE_ID = {
    "country_code": "KE",
    "number": KE_NATIONAL_ID,
    "compare": True,
    "first_name": "Johnny",
    "last_name": "Mwangi-Kariuki",
}
AML_WITH_ID_SMILE_ID = {"channel": "nin", "country_code": "UG", "number": UG_NIN}

# What each call carried (and, for aml-with-id, what the registry answered about the person),
# each with the forms it could be stored in once normalised.
PERSONAL = {
    "report first name": ["Wambui"],
    "report middle name": ["Nyokabi"],
    "report last name": ["Kariũki"],
    "report birth date": ["1987-11-23"],
    "report national id": ["31415926"],
    "report passport": ["AK7733219"],
    "report phone": ["0722 555 019", "0722555019", "+254722555019", "254722555019"],
    "report e-mail": ["Wambui.Kariuki@Example.org"],
    "report address": ["House 14, Ngong Road", "Ngong Road, Kilimani"],
    "report description": ["borrowed identity and vanished"],
    "report bank": ["Harambee Savings"],
    "report account number": ["0170291847563"],
    "report evidence": ["case-wambui-0042"],
    "risk first name": ["Otieno"],
    "risk last name": ["Achieng"],
    "risk birth date": ["1979-02-17"],
    "risk identifier": ["27182818"],
    "risk phone": ["+254 733 901 442", "+254733901442", "254733901442", "0733901442"],
    "risk e-mail": ["otieno.achieng@example.net"],
    "risk address": ["Plot 9, Moi Avenue"],
    "risk ip": ["102.89.33.14"],
    "id-scan number": ["16180339"],
    "id-scan first name": ["Kipchumba"],
    "id-scan last name": ["Rotich"],
    "id-scan birth date": ["1992-08-30"],
    "id-scan phone": ["0711 204 386", "+254711204386", "254711204386", "0711204386"],
    "phone scan": ["0700 123 987", "+254700123987", "254700123987", "0700123987"],
    "aml-with-id number": [BVN_FOUND],
    "aml-with-id first name": ["Chiamaka"],
    "aml-with-id last name": ["Okafor-Nwosu", "Nwosu"],
    "registry middle name": ["Ngozi"],
    "registry phone": ["08031234567", "+2348031234567"],
    "screened first name": ["Baraka"],
    "screened last name": ["Mwangangi"],
    "screened birth date": ["1968-06-02"],
    "screened identifier": ["A2233445"],
    "screened name": ["Zawadi", "Njeri"],
    "screened identifier 2": ["KE-998877"],
    "address scan": ["Tom Mboya Street"],
    "address coordinates": ["-1.28333", "36.81667"],
    "kyc number": [NIN_FOUND],
    "kyc last name": ["Eze-Obi"],
    "registry middle name 2": ["Chukwudi"],
    "registry address": ["4 Ogui Road"],
    "tax national id": [ID_FOUND],
    "tax pin": [PIN_INDIVIDUAL],
    "tax registry name": ["BANYI02 TEST ENNIS02", "ENNIS02"],
    "tax sandbox national id": ["31415911"],
    "tax sandbox pin": ["A123456781K"],
    "smile kyc number": [KE_NATIONAL_ID],
    "smile kyc last name": ["Mwangi-Kariuki"],
    "smile aml-with-id number": [UG_NIN],
    "smile registry middle name": ["Namuli"],
    "smile registry birth date": ["1990-01-01"],
}


def needles() -> dict[str, list[bytes]]:
    """Each personal value as bytes to look for: UTF-8 and JSON-escaped, lower-cased (files are
    searched lower-cased, so any capitalisation is found)."""
    found: dict[str, list[bytes]] = {}
    for label, forms in PERSONAL.items():
        variants: set[bytes] = set()
        for form in forms:
            for spelled in (form, form.upper(), form.lower()):
                variants.add(spelled.encode().lower())
                variants.add(json.dumps(spelled)[1:-1].encode().lower())
        found[label] = sorted(variants)
    return found


def leaks(where: str, content: bytes) -> list[str]:
    lowered = content.lower()
    return [
        f"{label} in {where}"
        for label, variants in needles().items()
        if any(variant in lowered for variant in variants)
    ]


def files_leaks(data_dir: Path) -> list[str]:
    """Every file of the data folder but the screening index's cache, which holds the public
    sanctions lists only (their entries contain some of the test's values: a list entry's
    birth date, "patRIOTICHeskoe"); the test proves that no call changed it instead."""
    found: list[str] = []
    cache = cache_path(data_dir)
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file() and p != cache):
        found += leaks(str(path.relative_to(data_dir)), path.read_bytes())
    return found


async def tables_leaks(engine: AsyncEngine) -> list[str]:
    """Every text, JSON and bytea column of every table of the database, as text."""
    found: list[str] = []
    async with engine.connect() as conn:
        columns = (
            await conn.execute(
                text(
                    "SELECT table_schema, table_name, column_name FROM information_schema.columns"
                    " WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
                    " AND data_type IN ('text', 'character varying', 'character', 'json',"
                    " 'jsonb', 'bytea', 'ARRAY', 'USER-DEFINED')"
                )
            )
        ).all()
        assert columns, "no columns found"
        for schema, table, column in columns:
            values = await conn.execute(text(f'SELECT "{column}"::text FROM "{schema}"."{table}"'))
            content = "\n".join(v for (v,) in values if v is not None)
            found += leaks(f"{table}.{column}", content.encode())
    return found


async def _account(settings: Settings, runtime_db: Any, environment: str, balance: int) -> str:
    name = f"at-rest-{environment}"
    await accounts.create_org(runtime_db, name, approved=True, currency="KES")
    key = await accounts.create_key(runtime_db, name, environment)
    if balance:
        org = await accounts.get_org(runtime_db, name)
        await wallet.credit(runtime_db, org.id, balance, "test top-up")
    return f"Bearer {key.client_id}:{key.secret}"


async def make_calls(http: httpx.AsyncClient, live: str, sandbox: str) -> None:
    calls: Iterable[tuple[str, str, dict[str, Any], int]] = (
        (live, "/v3/fraud/reports", REPORT, 201),
        (live, "/v3/fraud/identity-risk", IDENTITY_RISK, 200),
        (live, "/v3/fraud/id-scan", ID_SCAN, 200),
        (live, "/v3/fraud/phone", PHONE_SCAN, 200),
        (live, "/v3/screening/aml-with-id", AML_WITH_ID, 200),
        (live, "/v3/screening/individual", INDIVIDUAL, 200),
        (live, "/v3/screening/aml", AML, 200),
        (live, "/v3/fraud/address", ADDRESS, 200),
        (live, "/v3/kyc/national-id", KYC, 200),
        (live, "/v3/tax/pin", TAX_PIN, 200),
        (live, "/v3/tax/tcc", TAX_TCC, 200),
        (live, "/v3/tax/withholding", TAX_WITHHOLDING, 200),
        (sandbox, "/v3/tax/pin", TAX_SANDBOX, 200),
        (live, "/v3/kyc/national-id", KYC_SMILE_ID, 200),
        (live, "/v3/screening/aml-with-id", AML_WITH_ID_SMILE_ID, 200),
        (sandbox, "/v3/fraud/identity-risk", IDENTITY_RISK, 200),
        (sandbox, "/v3/screening/individual", INDIVIDUAL, 200),
    )
    for number, (key, url, body, status) in enumerate(calls):
        headers = {"Authorization": key}
        if number % 2:  # half of them stored for idempotent replay (encrypted)
            headers["Idempotency-Key"] = f"at-rest-{number}"
        response = await http.post(url, json=body, headers=headers)
        assert response.status_code == status, (url, response.text)
    report = {"Authorization": live}
    listed = await http.get("/v3/fraud/reports?identifier=31415926", headers=report)
    assert listed.status_code == 200, listed.text


@pytest.fixture
async def data_settings(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    fake_prembly_server: FakePrembly,
    fake_gavaconnect_server: FakeGavaConnect,
    fake_smile_id_server: FakeSmileId,
) -> AsyncIterator[Settings]:
    url = await fresh_postgres_url("at_rest") if request.param == "postgresql" else None
    yield Settings(
        data_dir=tmp_path / "hakiki-data",
        database_url=url,
        secret_key=None if url is None else TEST_SECRET_KEY,  # SQLite: a generated key file
        prembly_app_id=fake_prembly_server.app_id,
        prembly_api_key=fake_prembly_server.api_key,
        prembly_base_url=fake_prembly_server.base_url,
        gavaconnect_base_url=fake_gavaconnect_server.base_url,
        gavaconnect_consumer_key=CONSUMER_KEY,
        gavaconnect_consumer_secret=CONSUMER_SECRET,
        gavaconnect_withholding_path=WITHHOLDING_PATH,
        smile_id_partner_id=fake_smile_id_server.partner_id,
        smile_id_api_key=fake_smile_id_server.api_key,
        smile_id_base_url=fake_smile_id_server.base_url,
        provider_timeout_seconds=2.0,
        key_cache_seconds=0.0,
    )


@pytest.mark.parametrize("data_settings", BACKENDS, indirect=True)
async def test_no_personal_value_is_stored_in_clear(
    data_settings: Settings,
    fake_prembly: FakePrembly,
    fake_gava: FakeGavaConnect,
    fake_smile_id: FakeSmileId,
) -> None:
    from hakiki.core.migrate import upgrade_async

    await upgrade_async(data_settings)
    application = create_app(data_settings)
    async with application.router.lifespan_context(application):
        runtime = application.state.runtime
        index_before = cache_path(data_settings.data_dir).read_bytes()
        live = await _account(data_settings, runtime.db, "live", 1_000_000)
        sandbox = await _account(data_settings, runtime.db, "sandbox", 0)
        transport = httpx.ASGITransport(app=application, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as http:
            await make_calls(http, live, sandbox)
        assert fake_prembly.requests, "the aml-with-id call did not reach the registry"
        assert len(fake_gava.requests) == 3, "the tax checks did not reach the registry"
        assert len(fake_smile_id.requests) == 2, "the Smile ID calls did not reach the registry"
        await runtime.request_log.flush()
        running = files_leaks(data_settings.data_dir)  # the WAL too, while it is open
        assert cache_path(data_settings.data_dir).read_bytes() == index_before
        in_tables = [] if data_settings.is_sqlite else await tables_leaks(runtime.db.reader)
    assert not running, "\n".join(running)
    assert not in_tables, "\n".join(in_tables)
    if data_settings.is_sqlite:
        after = files_leaks(data_settings.data_dir)  # after the checkpoint at shutdown
        assert not after, "\n".join(after)
        assert (data_settings.data_dir / "hakiki.db").stat().st_size > 0
    else:
        engine = create_async_engine(str(data_settings.database_url))
        try:
            stored = await tables_leaks(engine)
            assert not stored, "\n".join(stored)
        finally:
            await engine.dispose()
