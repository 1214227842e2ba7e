"""PremblyProvider against the fake Prembly server over real HTTP."""

from __future__ import annotations

import logging
import socket

import pytest

from hakiki.core.settings import Settings
from hakiki.core.upstream_http import UpstreamClient
from hakiki.identity.providers.base import IdentityProvider, LookupOutcome, LookupResult
from hakiki.identity.providers.prembly import (
    PremblyProvider,
    iso_date,
    normalise_gender,
    split_cac_number,
    title_name,
)
from hakiki.identity.providers.registry import build_providers, find_provider
from tests.identity.providers.conftest import TEST_TIMEOUT_SECONDS
from tests.identity.providers.fake_prembly import (
    BVN_BLOCKED,
    BVN_FOUND,
    BVN_FOUND_ISO_DOB,
    CAC_BN_FOUND,
    CAC_FOUND,
    NIN_FOUND,
    NOT_FOUND_BVN,
    PASSPORT_FOUND,
    PASSPORT_LAST_NAME,
    VNIN_FOUND,
    FakePrembly,
    FaultMode,
)


def assert_number_not_leaked(result: LookupResult, number: str) -> None:
    assert number not in result.message
    assert number not in repr(result.record or "")


# ------------------------------------------------------------------------------ found


async def test_bvn_found(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "bvn", BVN_FOUND)

    assert result.outcome is LookupOutcome.FOUND
    assert result.provider == "prembly"
    assert result.provider_reference  # verification.reference
    record = result.record
    assert record is not None
    assert (record.first_name, record.middle_name, record.last_name) == (
        "Chiamaka",
        "Ngozi",
        "Okafor-Nwosu",
    )
    assert record.date_of_birth == "1985-05-15"  # from "15-May-1985"
    assert record.gender == "female"
    assert record.phone == "08031234567"  # phoneNumber1
    assert record.nationality == "NG"
    assert record.business_name is None
    assert_number_not_leaked(result, BVN_FOUND)


async def test_bvn_found_iso_date_and_basic_phone_field(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "bvn", BVN_FOUND_ISO_DOB)

    assert result.outcome is LookupOutcome.FOUND
    assert result.record is not None
    assert result.record.first_name == "Musa"
    assert result.record.middle_name is None  # "" upstream
    assert result.record.last_name == "Abubakar"
    assert result.record.date_of_birth == "1990-01-31"
    assert result.record.gender == "male"
    assert result.record.phone == "07061234567"  # phoneNumber


async def test_nin_found(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "nin", NIN_FOUND)

    assert result.outcome is LookupOutcome.FOUND
    assert result.provider_reference
    record = result.record
    assert record is not None
    assert (record.first_name, record.middle_name, record.last_name) == (
        "Emeka",
        "Chukwudi",
        "Okonkwo",
    )
    assert record.date_of_birth == "1985-05-15"  # from "15-05-1985"
    assert record.gender == "male"  # from "m"
    assert record.phone == "08051234567"  # telephoneno
    assert record.nationality == "NG"
    assert_number_not_leaked(result, NIN_FOUND)


async def test_virtual_nin_found(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "nin", VNIN_FOUND.lower())

    assert result.outcome is LookupOutcome.FOUND
    assert result.record is not None
    assert result.record.last_name == "Okonkwo"


async def test_cac_found(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "cac", CAC_FOUND)

    assert result.outcome is LookupOutcome.FOUND
    assert result.provider_reference
    record = result.record
    assert record is not None
    assert record.business_name == "HAKIKI TEST VENTURES LIMITED"
    assert record.first_name is None and record.last_name is None
    assert record.nationality == "NG"
    assert record.extra["company_type"] == "RC"
    assert record.extra["company_status"] == "ACTIVE"
    assert record.extra["registration_date"] == "2015-03-12"
    assert_number_not_leaked(result, CAC_FOUND)


async def test_cac_business_name_registration(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "cac", "bn-7654321")

    assert result.outcome is LookupOutcome.FOUND
    assert result.record is not None
    assert result.record.business_name == "MAMA T KITCHEN ENTERPRISES"
    assert result.record.extra["company_type"] == "BN"


async def test_passport_found(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup(
        "NG", "passport", PASSPORT_FOUND, last_name=PASSPORT_LAST_NAME.upper()
    )

    assert result.outcome is LookupOutcome.FOUND
    assert result.provider_reference
    record = result.record
    assert record is not None
    assert (record.first_name, record.middle_name, record.last_name) == ("Aisha", None, "Bello")
    assert record.date_of_birth == "1992-11-03"
    assert record.gender == "female"  # from "F"
    assert record.phone == "08091234567"  # mobile
    assert record.nationality == "NG"
    assert_number_not_leaked(result, PASSPORT_FOUND)


# -------------------------------------------------------------------------- not found


@pytest.mark.parametrize(
    ("channel", "number", "last_name"),
    [
        ("bvn", NOT_FOUND_BVN, None),
        ("nin", "70999999999", None),
        ("cac", "RC9999999", None),
        ("cac", "BN1234567", None),  # the RC number exists, but not as a business name
        ("passport", "B99999999", "Bello"),
        ("passport", PASSPORT_FOUND, "Someone-Else"),  # right number, wrong holder
    ],
)
async def test_not_found(
    prembly_provider: PremblyProvider, channel: str, number: str, last_name: str | None
) -> None:
    result = await prembly_provider.lookup("NG", channel, number, last_name=last_name)

    assert result.outcome is LookupOutcome.NOT_FOUND
    assert result.record is None
    assert result.provider_reference  # Prembly references not-found checks too
    assert_number_not_leaked(result, number)


async def test_blocked_bvn_is_refused(prembly_provider: PremblyProvider) -> None:
    result = await prembly_provider.lookup("NG", "bvn", BVN_BLOCKED)

    assert result.outcome is LookupOutcome.FAILED
    assert "blocked" in result.message
    assert_number_not_leaked(result, BVN_BLOCKED)


# ------------------------------------------------------------------------------ faults


@pytest.mark.parametrize(
    ("mode", "expected", "hint"),
    [
        (FaultMode.HTTP_500, LookupOutcome.UNAVAILABLE, "500"),
        (FaultMode.HTTP_503, LookupOutcome.UNAVAILABLE, "503"),
        (FaultMode.GARBAGE, LookupOutcome.UNAVAILABLE, "non-JSON"),
        (FaultMode.UNEXPECTED_JSON, LookupOutcome.UNAVAILABLE, "unexpected"),
        (FaultMode.RATE_LIMITED, LookupOutcome.UNAVAILABLE, "rate-limited"),
        (FaultMode.SERVICE_DOWN, LookupOutcome.UNAVAILABLE, "retry later"),
        (FaultMode.UNAUTHORIZED, LookupOutcome.FAILED, "HAKIKI_PREMBLY_API_KEY"),
        (FaultMode.INSUFFICIENT_BALANCE, LookupOutcome.FAILED, "balance"),
    ],
)
@pytest.mark.parametrize(
    ("channel", "number", "last_name"),
    [
        ("bvn", BVN_FOUND, None),
        ("nin", NIN_FOUND, None),
        ("cac", CAC_FOUND, None),
        ("passport", PASSPORT_FOUND, PASSPORT_LAST_NAME),
    ],
)
async def test_fault_modes(
    prembly_provider: PremblyProvider,
    fake_prembly: FakePrembly,
    mode: FaultMode,
    expected: LookupOutcome,
    hint: str,
    channel: str,
    number: str,
    last_name: str | None,
) -> None:
    fake_prembly.set_mode(mode)

    result = await prembly_provider.lookup("NG", channel, number, last_name=last_name)

    assert result.outcome is expected
    assert result.record is None
    assert hint in result.message
    assert len(fake_prembly.requests) == 1  # the request did reach the fake
    assert_number_not_leaked(result, number)


async def test_slow_upstream_times_out_as_unavailable(
    prembly_provider: PremblyProvider, fake_prembly: FakePrembly
) -> None:
    fake_prembly.set_mode(FaultMode.SLOW, slow_seconds=TEST_TIMEOUT_SECONDS + 1.5)

    result = await prembly_provider.lookup("NG", "bvn", BVN_FOUND)

    assert result.outcome is LookupOutcome.UNAVAILABLE
    assert "did not answer within" in result.message
    assert_number_not_leaked(result, BVN_FOUND)


async def test_slow_but_within_timeout_still_found(
    prembly_provider: PremblyProvider, fake_prembly: FakePrembly
) -> None:
    fake_prembly.set_mode(FaultMode.SLOW, slow_seconds=0.05)

    result = await prembly_provider.lookup("NG", "bvn", BVN_FOUND)

    assert result.outcome is LookupOutcome.FOUND


async def test_connection_refused_is_unavailable() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = PremblyProvider("app", "key", f"http://127.0.0.1:{port}", timeout=1.0)
    try:
        result = await provider.lookup("NG", "nin", NIN_FOUND)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.UNAVAILABLE
    assert "could not reach Prembly" in result.message
    assert_number_not_leaked(result, NIN_FOUND)


async def test_wrong_credentials_are_refused(fake_prembly: FakePrembly) -> None:
    provider = PremblyProvider(
        app_id=fake_prembly.app_id,
        api_key="sk_live_wrong",
        base_url=fake_prembly.base_url,
        timeout=TEST_TIMEOUT_SECONDS,
    )
    try:
        result = await provider.lookup("NG", "bvn", BVN_FOUND)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FAILED
    assert "refused the credentials (HTTP 401)" in result.message
    assert "HAKIKI_PREMBLY_APP_ID" in result.message
    assert "sk_live_wrong" not in result.message
    assert_number_not_leaked(result, BVN_FOUND)


async def test_wrong_app_id_is_refused(fake_prembly: FakePrembly) -> None:
    provider = PremblyProvider(
        "not-my-app", fake_prembly.api_key, fake_prembly.base_url, TEST_TIMEOUT_SECONDS
    )
    try:
        result = await provider.lookup("NG", "cac", CAC_FOUND)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FAILED


# ------------------------------------------------------------------ the exact request


@pytest.mark.parametrize(
    ("channel", "number", "last_name", "path", "body"),
    [
        ("bvn", f" {BVN_FOUND} ", None, "/verification/bvn", {"number": BVN_FOUND}),
        ("nin", NIN_FOUND, None, "/verification/vnin", {"number_nin": NIN_FOUND}),
        ("nin", VNIN_FOUND, None, "/verification/vnin", {"number": VNIN_FOUND}),
        (
            "cac",
            CAC_FOUND,
            None,
            "/verification/cac",
            {"rc_number": "1234567", "company_type": "RC"},
        ),
        (
            "cac",
            CAC_BN_FOUND,
            None,
            "/verification/cac",
            {"rc_number": "7654321", "company_type": "BN"},
        ),
        ("cac", "092932", None, "/verification/cac", {"rc_number": "092932", "company_type": "RC"}),
        (
            "passport",
            PASSPORT_FOUND.lower(),
            f" {PASSPORT_LAST_NAME} ",
            "/verification/national_passport",
            {"number": PASSPORT_FOUND, "last_name": PASSPORT_LAST_NAME},
        ),
    ],
)
async def test_exact_request(
    prembly_provider: PremblyProvider,
    fake_prembly: FakePrembly,
    channel: str,
    number: str,
    last_name: str | None,
    path: str,
    body: dict[str, str],
) -> None:
    await prembly_provider.lookup("NG", channel, number, last_name=last_name)

    assert len(fake_prembly.requests) == 1
    seen = fake_prembly.last_request
    assert seen.method == "POST"
    assert seen.path == path
    assert seen.headers["x-api-key"] == fake_prembly.api_key
    assert seen.headers["app-id"] == fake_prembly.app_id
    assert seen.headers["content-type"] == "application/json"
    assert seen.headers["accept"] == "application/json"
    assert "authorization" not in seen.headers
    assert seen.json == body


async def test_base_url_path_is_kept_for_the_legacy_gateway(fake_prembly: FakePrembly) -> None:
    provider = PremblyProvider(
        fake_prembly.app_id,
        fake_prembly.api_key,
        fake_prembly.base_url + "/identitypass/",
        TEST_TIMEOUT_SECONDS,
    )
    try:
        result = await provider.lookup("NG", "bvn", BVN_FOUND)
    finally:
        await provider.aclose()

    assert result.outcome is LookupOutcome.FOUND
    assert fake_prembly.last_request.path == "/identitypass/verification/bvn"


async def test_shared_client_is_used_and_left_open(fake_prembly: FakePrembly) -> None:
    client = UpstreamClient(timeout=5.0)
    try:
        provider = PremblyProvider(
            fake_prembly.app_id, fake_prembly.api_key, fake_prembly.base_url, 5.0, client=client
        )
        result = await provider.lookup("NG", "nin", NIN_FOUND)
        await provider.aclose()

        assert result.outcome is LookupOutcome.FOUND
        assert not client.is_closed
    finally:
        await client.aclose()


async def test_own_client_is_closed() -> None:
    provider = PremblyProvider("app", "key", "http://127.0.0.1:9", 1.0)
    await provider.aclose()
    assert provider._client.is_closed


# ------------------------------------------------------------ requests never sent


async def test_passport_needs_last_name(
    prembly_provider: PremblyProvider, fake_prembly: FakePrembly
) -> None:
    result = await prembly_provider.lookup("NG", "passport", PASSPORT_FOUND, last_name="  ")

    assert result.outcome is LookupOutcome.FAILED
    assert "last name" in result.message
    assert fake_prembly.requests == []


@pytest.mark.parametrize(
    ("country", "channel", "number"),
    [("KE", "nin", NIN_FOUND), ("NG", "drivers_license", "ABC123"), ("NG", "bvn", "   ")],
)
async def test_unsupported_or_empty_is_refused_without_calling(
    prembly_provider: PremblyProvider,
    fake_prembly: FakePrembly,
    country: str,
    channel: str,
    number: str,
) -> None:
    result = await prembly_provider.lookup(country, channel, number)

    assert result.outcome is LookupOutcome.FAILED
    assert fake_prembly.requests == []


def test_supports() -> None:
    provider = PremblyProvider("app", "key", "http://127.0.0.1:9", 1.0)
    for channel in ("bvn", "nin", "cac", "passport"):
        assert provider.supports("NG", channel)
    assert provider.supports("ng", "BVN")
    assert not provider.supports("KE", "nin")
    assert not provider.supports("NG", "phone")
    assert isinstance(provider, PremblyProvider)
    _: IdentityProvider = provider  # satisfies the protocol (checked by mypy)


async def test_number_never_logged(
    prembly_provider: PremblyProvider,
    fake_prembly: FakePrembly,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="hakiki")
    await prembly_provider.lookup("NG", "bvn", BVN_FOUND)
    await prembly_provider.lookup("NG", "nin", NOT_FOUND_BVN)
    fake_prembly.set_mode(FaultMode.GARBAGE)
    await prembly_provider.lookup("NG", "cac", CAC_FOUND)

    assert caplog.records  # it does log outcomes ...
    assert BVN_FOUND not in caplog.text  # ... but never the numbers
    assert NOT_FOUND_BVN not in caplog.text
    assert "1234567" not in caplog.text


# ---------------------------------------------------------------------------- registry


def test_build_providers_needs_both_credentials() -> None:
    assert build_providers(Settings(_env_file=None)) == []
    assert build_providers(Settings(_env_file=None, prembly_app_id="app")) == []
    assert build_providers(Settings(_env_file=None, prembly_api_key="key")) == []
    assert (
        build_providers(Settings(_env_file=None, prembly_app_id=" ", prembly_api_key="key")) == []
    )


async def test_build_providers_and_find_provider(fake_prembly: FakePrembly) -> None:
    settings = Settings(
        _env_file=None,
        prembly_app_id=fake_prembly.app_id,
        prembly_api_key=fake_prembly.api_key,
        prembly_base_url=fake_prembly.base_url,
        provider_timeout_seconds=2.0,
    )
    providers = build_providers(settings)
    try:
        assert len(providers) == 1
        provider = find_provider(providers, "NG", "bvn")
        assert isinstance(provider, PremblyProvider)
        assert find_provider(providers, "NG", "passport") is provider
        assert find_provider(providers, "KE", "national_id") is None
        assert find_provider([], "NG", "bvn") is None

        result = await provider.lookup("NG", "bvn", BVN_FOUND)
        assert result.outcome is LookupOutcome.FOUND
    finally:
        for p in providers:
            await p.aclose()


# ---------------------------------------------------------------------- normalisers


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("15-May-1985", "1985-05-15"),
        ("2-Aug-1904", "1904-08-02"),
        ("1985-05-15", "1985-05-15"),
        ("15-05-1985", "1985-05-15"),
        ("21 JAN 1990", "1990-01-21"),
        ("21/08/1994", "1994-08-21"),
        ("1986-06-04T00:00:00Z", "1986-06-04"),
        ("07-Jul-95", "1995-07-07"),
        ("01-Jan-30", "1930-01-01"),
        ("not a date", None),
        ("", None),
        (None, None),
    ],
)
def test_iso_date(raw: str | None, iso: str | None) -> None:
    assert iso_date(raw) == iso


@pytest.mark.parametrize(
    ("raw", "gender"),
    [
        ("m", "male"),
        ("Male", "male"),
        ("MALE", "male"),
        ("F", "female"),
        ("female", "female"),
        ("", None),
        ("x", None),
        (None, None),
    ],
)
def test_normalise_gender(raw: str | None, gender: str | None) -> None:
    assert normalise_gender(raw) == gender


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("CHIAMAKA", "Chiamaka"),
        ("okafor-nwosu", "Okafor-Nwosu"),
        ("o'neil", "O'Neil"),
        ("  ADA   OBI ", "Ada Obi"),
        ("", None),
        (None, None),
    ],
)
def test_title_name(raw: str | None, name: str | None) -> None:
    assert title_name(raw) == name


@pytest.mark.parametrize(
    ("raw", "parts"),
    [
        ("RC1234567", ("RC", "1234567")),
        ("rc 1234567", ("RC", "1234567")),
        ("BN-7654321", ("BN", "7654321")),
        ("IT 12345", ("IT", "12345")),
        ("LLP0001", ("LLP", "0001")),
        ("LL0002", ("LL", "0002")),
        ("092932", ("RC", "092932")),
    ],
)
def test_split_cac_number(raw: str, parts: tuple[str, str]) -> None:
    assert split_cac_number(raw) == parts


async def test_drivers_license_found_with_names(
    prembly_provider: PremblyProvider, fake_prembly: FakePrembly
) -> None:
    from tests.identity.providers.fake_prembly import DL_FOUND, DL_NAMES

    first, last = DL_NAMES
    result = await prembly_provider.lookup(
        "NG", "drivers_license", DL_FOUND, first_name=first, last_name=last
    )
    assert result.outcome is LookupOutcome.FOUND
    assert fake_prembly.last_request.path == "/verification/drivers_license/advance/v2"
    assert fake_prembly.last_request.json == {
        "number": DL_FOUND, "first_name": first, "last_name": last,
    }  # fmt: skip
    record = result.record
    assert record is not None
    assert (record.first_name, record.last_name) == ("John", "Doe")
    assert (record.date_of_birth, record.gender) == ("1990-01-01", "male")


async def test_drivers_license_needs_names_and_wrong_names_are_not_found(
    prembly_provider: PremblyProvider,
) -> None:
    from tests.identity.providers.fake_prembly import DL_FOUND

    refused = await prembly_provider.lookup("NG", "drivers_license", DL_FOUND, last_name="Doe")
    assert refused.outcome is LookupOutcome.FAILED
    other = await prembly_provider.lookup(
        "NG", "drivers_license", DL_FOUND, first_name="Jane", last_name="Roe"
    )
    assert other.outcome is LookupOutcome.NOT_FOUND
