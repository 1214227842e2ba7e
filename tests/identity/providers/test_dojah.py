"""The Dojah adapter against a fake Dojah speaking its documented API over real HTTP: requests,
records, not found, and every upstream fault as the outcome the chain falls back on (or not)."""

from __future__ import annotations

import pytest

from hakiki.core.settings import Settings
from hakiki.identity.providers.base import IdentityRecord, LookupOutcome
from hakiki.identity.providers.dojah import DojahProvider
from hakiki.identity.providers.registry import build_providers
from tests.identity.providers.conftest import TEST_TIMEOUT_SECONDS
from tests.identity.providers.fake_dojah import NOT_FOUND_BVN, PHONE_FOUND, FakeDojah, FaultMode
from tests.identity.providers.fake_prembly import BVN_FOUND, NIN_FOUND


async def test_bvn_found_sends_the_documented_request(
    dojah_provider: DojahProvider, fake_dojah: FakeDojah
) -> None:
    result = await dojah_provider.lookup("NG", "bvn", BVN_FOUND)
    assert result.outcome is LookupOutcome.FOUND and result.provider == "dojah"
    assert result.provider_reference == "dojah-ref-bvn-0001"
    assert result.record == IdentityRecord(
        first_name="Chiamaka",
        middle_name="Ngozi",
        last_name="Okafor-Nwosu",
        date_of_birth="1985-05-15",
        gender="female",
        phone="08031234567",
        nationality="NG",
    )
    sent = fake_dojah.last_request
    assert (sent.method, sent.path, sent.query) == (
        "GET",
        "/api/v1/kyc/bvn/full",
        {"bvn": BVN_FOUND},
    )
    assert sent.headers["appid"] == fake_dojah.app_id
    assert sent.headers["authorization"] == fake_dojah.secret_key  # the key itself, no Bearer


async def test_nin_found(dojah_provider: DojahProvider, fake_dojah: FakeDojah) -> None:
    result = await dojah_provider.lookup("NG", "nin", NIN_FOUND)
    assert result.outcome is LookupOutcome.FOUND and result.record is not None
    record = result.record
    assert (record.first_name, record.last_name, record.date_of_birth) == (
        "Emeka",
        "Okonkwo",
        "1985-05-15",
    )
    assert (record.gender, record.phone, record.nationality) == ("male", "08051234567", "NG")
    assert fake_dojah.last_request.query == {"nin": NIN_FOUND}


async def test_phone_found_gives_the_nin_linked_person(
    dojah_provider: DojahProvider, fake_dojah: FakeDojah
) -> None:
    result = await dojah_provider.lookup("NG", "phone", PHONE_FOUND)
    assert result.outcome is LookupOutcome.FOUND and result.record is not None
    assert (result.record.first_name, result.record.last_name) == ("Emeka", "Okonkwo")
    assert result.record.phone == "2348051234567"
    sent = fake_dojah.last_request
    assert (sent.path, sent.query) == ("/api/v1/kyc/phone_number", {"phone_number": PHONE_FOUND})


async def test_not_found_is_an_answer_without_the_number(dojah_provider: DojahProvider) -> None:
    result = await dojah_provider.lookup("NG", "bvn", NOT_FOUND_BVN)
    assert result.outcome is LookupOutcome.NOT_FOUND and not result.provider_fault
    assert NOT_FOUND_BVN not in result.message


@pytest.mark.parametrize(
    "mode",
    [
        FaultMode.HTTP_503,
        FaultMode.FAILED_DEPENDENCY,
        FaultMode.SLOW,
        FaultMode.GARBAGE,
        FaultMode.UNEXPECTED_JSON,
    ],
)
async def test_outages_are_unavailable(
    dojah_provider: DojahProvider, fake_dojah: FakeDojah, mode: FaultMode
) -> None:
    fake_dojah.set_mode(mode, slow_seconds=TEST_TIMEOUT_SECONDS + 1)
    result = await dojah_provider.lookup("NG", "bvn", BVN_FOUND)
    assert result.outcome is LookupOutcome.UNAVAILABLE, result
    assert BVN_FOUND not in result.message


@pytest.mark.parametrize(
    ("mode", "says"),
    [(FaultMode.UNAUTHORIZED, "HAKIKI_DOJAH_APP_ID"), (FaultMode.PAYMENT_REQUIRED, "balance")],
)
async def test_refusals_are_failed_for_the_account_s_sake(
    dojah_provider: DojahProvider, fake_dojah: FakeDojah, mode: FaultMode, says: str
) -> None:
    fake_dojah.set_mode(mode)
    result = await dojah_provider.lookup("NG", "bvn", BVN_FOUND)
    assert result.outcome is LookupOutcome.FAILED and result.provider_fault, result
    assert says in result.message


async def test_wrong_credentials_are_refused(fake_dojah: FakeDojah) -> None:
    provider = DojahProvider(fake_dojah.app_id, "wrong", fake_dojah.base_url, TEST_TIMEOUT_SECONDS)
    try:
        result = await provider.lookup("NG", "nin", NIN_FOUND)
    finally:
        await provider.aclose()
    assert result.outcome is LookupOutcome.FAILED and result.provider_fault


async def test_a_wrong_base_url_is_a_configuration_failure(fake_dojah: FakeDojah) -> None:
    provider = DojahProvider(
        fake_dojah.app_id, fake_dojah.secret_key, fake_dojah.base_url + "/v9", TEST_TIMEOUT_SECONDS
    )
    try:
        result = await provider.lookup("NG", "bvn", BVN_FOUND)
    finally:
        await provider.aclose()
    assert result.outcome is LookupOutcome.FAILED and result.provider_fault
    assert "HAKIKI_DOJAH_BASE_URL" in result.message


async def test_unreachable_is_unavailable() -> None:
    provider = DojahProvider("app", "key", "http://127.0.0.1:9", TEST_TIMEOUT_SECONDS)
    try:
        result = await provider.lookup("NG", "bvn", BVN_FOUND)
    finally:
        await provider.aclose()
    assert result.outcome is LookupOutcome.UNAVAILABLE


async def test_only_nigerian_bvn_nin_and_phone(dojah_provider: DojahProvider) -> None:
    assert dojah_provider.supports("ng", "BVN") and dojah_provider.supports("NG", "nin")
    assert dojah_provider.supports("NG", "phone")
    assert not dojah_provider.supports("NG", "cac") and not dojah_provider.supports("KE", "nin")
    result = await dojah_provider.lookup("NG", "cac", "RC1234567")
    assert result.outcome is LookupOutcome.FAILED and not result.provider_fault


async def test_built_only_with_both_credentials() -> None:
    assert build_providers(Settings(_env_file=None, dojah_app_id="app")) == []
    assert build_providers(Settings(_env_file=None, dojah_secret_key="key")) == []
    built = build_providers(Settings(_env_file=None, dojah_app_id="a", dojah_secret_key="k"))
    try:
        assert [p.name for p in built] == ["dojah"]
    finally:
        for provider in built:
            await provider.aclose()
