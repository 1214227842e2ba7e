"""SmileIdProvider against the fake Smile ID server over real HTTP."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import socket
from datetime import datetime

import pytest

from hakiki.core.settings import Settings
from hakiki.core.upstream_http import UpstreamClient
from hakiki.identity.providers.base import IdentityProvider, LookupOutcome, LookupResult
from hakiki.identity.providers.registry import build_providers, find_provider
from hakiki.identity.providers.smile_id import (
    DOCUMENTED_ID_TYPES,
    SmileIdProvider,
    id_types,
    sign,
)
from tests.identity.providers.conftest import TEST_TIMEOUT_SECONDS
from tests.identity.providers.fake_smile_id import (
    KE_ALIEN_CARD,
    KE_AUTHORITY_DOWN,
    KE_BAD_FORMAT,
    KE_KRA_PIN,
    KE_NATIONAL_ID,
    KE_NOT_FOUND,
    KE_PASSPORT,
    TZ_NIDA,
    UG_NIN,
    FakeSmileId,
    FaultMode,
)


def assert_number_not_leaked(result: LookupResult, number: str) -> None:
    assert number not in result.message
    assert number not in repr(result.record or "")
    assert number not in (result.provider_reference or "")


# ------------------------------------------------------------------------------ found


async def test_kenyan_national_id_found_from_the_authority_fields(
    smile_provider: SmileIdProvider,
) -> None:
    result = await smile_provider.lookup("KE", "national_id", KE_NATIONAL_ID)

    assert result.outcome is LookupOutcome.FOUND
    assert result.provider == "smile_id"
    assert result.provider_reference and result.provider_reference.isdigit()  # SmileJobID
    record = result.record
    assert record is not None
    # IPRS's First_Name / Other_Name / Surname, not a guess from FullName
    assert (record.first_name, record.middle_name, record.last_name) == ("John", "Kamau", "Mwangi")
    assert (record.date_of_birth, record.gender) == ("1987-03-14", "male")
    assert record.phone is None  # "Not Available"
    assert record.nationality == "KE"  # Citizenship "Kenyan"
    assert_number_not_leaked(result, KE_NATIONAL_ID)


@pytest.mark.parametrize(
    ("country", "channel", "number", "names", "born", "gender", "nationality"),
    [
        ("KE", "passport", KE_PASSPORT, ("Amina", "Wanjiku", "Odhiambo"), "1992-07-01",
         "female", "KE"),
        ("KE", "alien_card", KE_ALIEN_CARD, ("Abebe", "Tesfaye", "Girma"), "1979-11-30",
         "male", None),  # Ethiopian: no nationality Hakiki knows, never "KE"
        ("KE", "kra_pin", KE_KRA_PIN, ("Peter", None, "Otieno"), "1984-02-29", "male", None),
        ("UG", "nin", UG_NIN, ("Amina", "Namuli", "Nakato"), "1990-01-01", "female", "UG"),
        ("TZ", "nida", TZ_NIDA, ("Neema", "John", "Massawe"), "1985-05-15", "female", "TZ"),
    ],
)  # fmt: skip
async def test_found_from_full_name(
    smile_provider: SmileIdProvider,
    country: str,
    channel: str,
    number: str,
    names: tuple[str | None, ...],
    born: str,
    gender: str,
    nationality: str | None,
) -> None:
    result = await smile_provider.lookup(country, channel, number)

    assert result.outcome is LookupOutcome.FOUND, result.message
    record = result.record
    assert record is not None
    assert (record.first_name, record.middle_name, record.last_name) == names
    assert (record.date_of_birth, record.gender, record.nationality) == (born, gender, nationality)
    assert_number_not_leaked(result, number)


async def test_passport_keeps_phone_and_expiry(smile_provider: SmileIdProvider) -> None:
    result = await smile_provider.lookup("KE", "passport", KE_PASSPORT)
    assert result.record is not None
    assert result.record.phone == "+254712345678"
    assert result.record.extra == {"expiration_date": "2031-06-30"}


# ------------------------------------------------------------------------- the request


async def test_exact_request_is_signed_and_carries_no_names(
    smile_provider: SmileIdProvider, fake_smile_id: FakeSmileId
) -> None:
    await smile_provider.lookup("UG", "nin", UG_NIN, first_name="Amina", last_name="Nakato")

    seen = fake_smile_id.last_request
    assert seen.path == "/v1/id_verification"
    assert seen.headers["content-type"] == "application/json"
    body = seen.json
    assert set(body) == {
        "partner_id", "source_sdk", "source_sdk_version", "timestamp", "signature",
        "country", "id_type", "id_number", "partner_params",
    }  # fmt: skip
    assert (body["country"], body["id_type"], body["id_number"]) == (
        "UG", "NATIONAL_ID_NO_PHOTO", UG_NIN,
    )  # fmt: skip
    assert (body["partner_id"], body["source_sdk"]) == (fake_smile_id.partner_id, "rest_api")
    datetime.fromisoformat(body["timestamp"])
    # Smile ID's recipe, computed independently here
    mac = hmac.new(
        fake_smile_id.api_key.encode(),
        (body["timestamp"] + fake_smile_id.partner_id + "sid_request").encode(),
        hashlib.sha256,
    )
    assert body["signature"] == base64.b64encode(mac.digest()).decode()
    params = body["partner_params"]
    assert params["job_type"] == 5
    assert UG_NIN not in params["job_id"] and UG_NIN not in params["user_id"]


async def test_every_lookup_is_a_new_smile_job(
    smile_provider: SmileIdProvider, fake_smile_id: FakeSmileId
) -> None:
    first = await smile_provider.lookup("KE", "national_id", KE_NATIONAL_ID)
    second = await smile_provider.lookup("KE", "national_id", KE_NATIONAL_ID)

    assert first.outcome is second.outcome is LookupOutcome.FOUND  # no 2215 "job exists"
    jobs = [r.json["partner_params"]["job_id"] for r in fake_smile_id.requests]
    assert len(set(jobs)) == 2
    assert first.provider_reference != second.provider_reference


def test_signature_matches_smile_ids_library_recipe() -> None:
    # smile_id_core.Signature.generate_signature with partner "2" and key "key"
    expected = base64.b64encode(
        hmac.new(b"key", b"2024-01-01T00:00:00.000+00:002sid_request", hashlib.sha256).digest()
    ).decode()
    assert sign("key", "2", "2024-01-01T00:00:00.000+00:00") == expected


# ---------------------------------------------------------------- not found and refusals


async def test_not_found_is_scrubbed_of_the_number(smile_provider: SmileIdProvider) -> None:
    result = await smile_provider.lookup("KE", "national_id", KE_NOT_FOUND)

    assert result.outcome is LookupOutcome.NOT_FOUND
    assert result.record is None and result.provider_reference
    assert_number_not_leaked(result, KE_NOT_FOUND)


@pytest.mark.parametrize(
    ("number", "expected", "hint"),
    [
        (KE_AUTHORITY_DOWN, LookupOutcome.UNAVAILABLE, "1015"),
        (KE_BAD_FORMAT, LookupOutcome.FAILED, "1014"),
    ],
)
async def test_result_codes(
    smile_provider: SmileIdProvider, number: str, expected: LookupOutcome, hint: str
) -> None:
    result = await smile_provider.lookup("KE", "national_id", number)

    assert result.outcome is expected and hint in result.message
    assert_number_not_leaked(result, number)


async def test_id_type_not_activated_is_failed_for_the_operator(
    fake_smile_id: FakeSmileId,
) -> None:
    provider = SmileIdProvider(
        fake_smile_id.partner_id,
        fake_smile_id.api_key,
        fake_smile_id.base_url,
        TEST_TIMEOUT_SECONDS,
        id_type_map=id_types({"UG:passport": "PASSPORT"}),  # not activated on the fake account
    )
    try:
        result = await provider.lookup("UG", "passport", "B1234567")
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FAILED
    assert "1016" in result.message and "HAKIKI_SMILE_ID_ID_TYPES" in result.message


# ------------------------------------------------------------------------------ faults


@pytest.mark.parametrize(
    ("mode", "expected", "hint"),
    [
        (FaultMode.HTTP_500, LookupOutcome.UNAVAILABLE, "HTTP 500"),
        (FaultMode.HTTP_503, LookupOutcome.UNAVAILABLE, "HTTP 503"),
        (FaultMode.SYSTEM_ERROR, LookupOutcome.UNAVAILABLE, "2201"),
        (FaultMode.GARBAGE, LookupOutcome.UNAVAILABLE, "non-JSON"),
        (FaultMode.UNEXPECTED_JSON, LookupOutcome.UNAVAILABLE, "unexpected"),
        (FaultMode.FORGED, LookupOutcome.UNAVAILABLE, "does not verify"),
        (FaultMode.RATE_LIMITED, LookupOutcome.UNAVAILABLE, "rate-limited"),
        (FaultMode.AUTHORITY_DOWN, LookupOutcome.UNAVAILABLE, "retry later"),
        (FaultMode.UNAUTHORIZED, LookupOutcome.FAILED, "HAKIKI_SMILE_ID_API_KEY"),
    ],
)
@pytest.mark.parametrize(
    ("country", "channel", "number"),
    [("KE", "national_id", KE_NATIONAL_ID), ("UG", "nin", UG_NIN), ("TZ", "nida", TZ_NIDA)],
)
async def test_fault_modes(
    smile_provider: SmileIdProvider,
    fake_smile_id: FakeSmileId,
    mode: FaultMode,
    expected: LookupOutcome,
    hint: str,
    country: str,
    channel: str,
    number: str,
) -> None:
    fake_smile_id.set_mode(mode)

    result = await smile_provider.lookup(country, channel, number)

    assert result.outcome is expected
    assert result.record is None
    assert hint in result.message
    assert len(fake_smile_id.requests) == 1
    assert_number_not_leaked(result, number)


async def test_slow_upstream_times_out_as_unavailable(
    smile_provider: SmileIdProvider, fake_smile_id: FakeSmileId
) -> None:
    fake_smile_id.set_mode(FaultMode.SLOW, slow_seconds=TEST_TIMEOUT_SECONDS + 1.0)

    result = await smile_provider.lookup("KE", "national_id", KE_NATIONAL_ID)

    assert result.outcome is LookupOutcome.UNAVAILABLE
    assert "did not answer within" in result.message


async def test_connection_refused_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = SmileIdProvider("1", "key", f"http://127.0.0.1:{port}/v1", timeout=1.0)
    try:
        result = await provider.lookup("KE", "national_id", KE_NATIONAL_ID)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.UNAVAILABLE
    assert "could not reach Smile ID" in result.message


@pytest.mark.parametrize(
    ("partner_id", "api_key"),
    [("2042", "wrong-key"), ("9999", None)],  # a wrong key; another partner's id
)
async def test_refused_credentials_are_failed(
    fake_smile_id: FakeSmileId, partner_id: str, api_key: str | None
) -> None:
    provider = SmileIdProvider(
        partner_id, api_key or fake_smile_id.api_key, fake_smile_id.base_url, TEST_TIMEOUT_SECONDS
    )
    try:
        result = await provider.lookup("KE", "national_id", KE_NATIONAL_ID)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FAILED
    assert "refused the request's credentials" in result.message and "2205" in result.message
    assert "wrong-key" not in result.message


async def test_wrong_base_url_is_failed_for_the_operator(fake_smile_id: FakeSmileId) -> None:
    base = fake_smile_id.base_url.removesuffix("/v1")  # forgot the /v1
    provider = SmileIdProvider(fake_smile_id.partner_id, fake_smile_id.api_key, base, 1.0)
    try:
        result = await provider.lookup("KE", "national_id", KE_NATIONAL_ID)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FAILED and "HAKIKI_SMILE_ID_BASE_URL" in result.message


async def test_shared_client_is_used_and_left_open(fake_smile_id: FakeSmileId) -> None:
    client = UpstreamClient(timeout=5.0)
    try:
        provider = SmileIdProvider(
            fake_smile_id.partner_id,
            fake_smile_id.api_key,
            fake_smile_id.base_url,
            5.0,
            client=client,
        )
        result = await provider.lookup("KE", "national_id", KE_NATIONAL_ID)
        await provider.aclose()
        assert result.outcome is LookupOutcome.FOUND
        assert not client.is_closed
    finally:
        await client.aclose()


# ------------------------------------------------------------ requests never sent


@pytest.mark.parametrize(
    ("country", "channel", "number"),
    [
        ("NG", "bvn", "22212345678"),  # Prembly's
        ("TZ", "nida", TZ_NIDA),  # not documented by Smile ID: off without a mapping
        ("UG", "drivers_license", "100123456"),
        ("KE", "national_id", "   "),
    ],
)
async def test_unsupported_or_empty_is_refused_without_calling(
    fake_smile_id: FakeSmileId, country: str, channel: str, number: str
) -> None:
    provider = SmileIdProvider(
        fake_smile_id.partner_id, fake_smile_id.api_key, fake_smile_id.base_url, 1.0
    )
    try:
        result = await provider.lookup(country, channel, number)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FAILED
    assert fake_smile_id.requests == []


def test_supports_the_documented_channels_and_the_operators() -> None:
    documented = SmileIdProvider("1", "key", "http://127.0.0.1:9/v1", 1.0)
    for country, channel in DOCUMENTED_ID_TYPES:
        assert documented.supports(country, channel)
    assert documented.supports("ke", "NATIONAL_ID")
    assert not documented.supports("TZ", "nida")
    mapped = SmileIdProvider(
        "1", "key", "http://127.0.0.1:9/v1", 1.0,
        id_type_map=id_types({"TZ:nida": "NATIONAL_ID", "KE:kra_pin": ""}),
    )  # fmt: skip
    assert mapped.supports("TZ", "nida") and not mapped.supports("KE", "kra_pin")
    _: IdentityProvider = documented  # satisfies the protocol (checked by mypy)


def test_unknown_channel_in_the_mapping_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="HAKIKI_SMILE_ID_ID_TYPES"):
        id_types({"TZ:voter_id": "VOTER_ID"})


@pytest.mark.parametrize(
    "mapping",
    [{"tanzania:nida": "X"}, {"TZ": "NATIONAL_ID"}, {"TZ:nida": "NATIONAL ID; DROP"}],
)
def test_settings_refuse_a_malformed_mapping(mapping: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="smile_id_id_types"):
        Settings(_env_file=None, smile_id_id_types=mapping)


async def test_number_and_names_never_logged(
    smile_provider: SmileIdProvider,
    fake_smile_id: FakeSmileId,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    await smile_provider.lookup("KE", "national_id", KE_NATIONAL_ID)
    await smile_provider.lookup("KE", "national_id", KE_NOT_FOUND)
    fake_smile_id.set_mode(FaultMode.GARBAGE)
    await smile_provider.lookup("UG", "nin", UG_NIN)

    logged = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("hakiki"))
    assert "smile_id" in logged  # it does log outcomes ...
    for secret in (KE_NATIONAL_ID, KE_NOT_FOUND, UG_NIN, "MWANGI", "Mwangi"):
        assert secret not in logged  # ... but never numbers or names


# ---------------------------------------------------------------------------- registry


def test_build_providers_needs_both_smile_credentials() -> None:
    assert build_providers(Settings(_env_file=None, smile_id_partner_id="2")) == []
    assert build_providers(Settings(_env_file=None, smile_id_api_key="key")) == []


async def test_build_providers_puts_smile_id_on_east_african_channels(
    fake_smile_id: FakeSmileId,
) -> None:
    settings = Settings(
        _env_file=None,
        prembly_app_id="app",
        prembly_api_key="key",
        smile_id_partner_id=fake_smile_id.partner_id,
        smile_id_api_key=fake_smile_id.api_key,
        smile_id_base_url=fake_smile_id.base_url,
        smile_id_id_types={"tz:NIDA": "national_id"},  # any case, normalised
    )
    providers = build_providers(settings)
    try:
        assert [p.name for p in providers] == ["prembly", "smile_id"]
        nigerian = find_provider(providers, "NG", "nin")
        assert nigerian is not None and nigerian.name == "prembly"
        for country, channel in [("KE", "national_id"), ("UG", "nin"), ("TZ", "nida")]:
            provider = find_provider(providers, country, channel)
            assert provider is not None and provider.name == "smile_id"
        assert find_provider(providers, "TZ", "passport") is None
        found = await providers[1].lookup("TZ", "nida", TZ_NIDA)
        assert found.outcome is LookupOutcome.FOUND
        assert fake_smile_id.last_request.json["id_type"] == "NATIONAL_ID"
    finally:
        for p in providers:
            await p.aclose()
