"""GavaConnectProvider against the fake GavaConnect over real HTTP: the documented requests and
answers, the token's life (cached, renewed before expiry and on 401), and every failure mode."""

from __future__ import annotations

import asyncio
import logging
import socket
from datetime import date

import pytest

from hakiki.core.settings import Settings
from hakiki.tax.providers.base import (
    ComplianceCertificate,
    LookupOutcome,
    TaxpayerRecord,
    TaxQuery,
    WithholdingCertificate,
)
from hakiki.tax.providers.gavaconnect import Credentials, GavaConnectProvider
from hakiki.tax.providers.registry import build_tax_providers
from tests.tax.conftest import TIMEOUT_SECONDS
from tests.tax.fake_gavaconnect import (
    CONSUMER_KEY,
    CONSUMER_SECRET,
    ID_FOUND,
    ID_UNKNOWN,
    PIN_ACTIVE,
    PIN_INDIVIDUAL,
    PIN_SUSPENDED,
    PIN_UNKNOWN,
    TCC_EXPIRED,
    TCC_OTHER_PIN,
    TCC_VALID,
    WHT_FOUND,
    WITHHOLDING_PATH,
    FakeGavaConnect,
    FaultMode,
)


def pin(number: str) -> TaxQuery:
    return TaxQuery("pin", "KE", pin=number)


def by_id(national_id: str) -> TaxQuery:
    return TaxQuery("pin", "KE", national_id=national_id)


def tcc(number: str, certificate: str) -> TaxQuery:
    return TaxQuery("tcc", "KE", pin=number, certificate_number=certificate)


def withholding(certificate: str, withholder: str = PIN_ACTIVE) -> TaxQuery:
    return TaxQuery(
        "withholding",
        "KE",
        certificate_number=certificate,
        withholder_pin=withholder,
        payee_pin=PIN_INDIVIDUAL,
    )


# ----------------------------------------------------------------------------- answers


async def test_pin_found_sends_the_documented_request(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect
) -> None:
    result = await gava.lookup(pin(PIN_ACTIVE))
    assert result.outcome is LookupOutcome.FOUND and result.provider == "kra-gavaconnect"
    assert result.record == TaxpayerRecord(
        PIN_ACTIVE, "T. AN 052318TEST NA NA", "Non Individual", "Active"
    )
    [sent] = fake_gava.requests
    assert (sent.method, sent.path, sent.json) == (
        "POST",
        "/checker/v1/pinbypin",
        {"KRAPIN": PIN_ACTIVE},
    )
    assert sent.headers["authorization"].startswith("Bearer ")
    assert fake_gava.token_requests == 1


async def test_pin_not_found_and_suspended(gava: GavaConnectProvider) -> None:
    missing = await gava.lookup(pin(PIN_UNKNOWN))
    assert (missing.outcome, missing.record) == (LookupOutcome.NOT_FOUND, None)
    suspended = await gava.lookup(pin(PIN_SUSPENDED))
    assert isinstance(suspended.record, TaxpayerRecord)
    assert suspended.record.pin_status == "Suspended"


async def test_pin_by_national_id(gava: GavaConnectProvider, fake_gava: FakeGavaConnect) -> None:
    found = await gava.lookup(by_id(ID_FOUND))
    assert found.record == TaxpayerRecord(PIN_INDIVIDUAL, "BANYI02 TEST ENNIS02", None, None)
    assert fake_gava.requests[-1].path == "/checker/v1/pin"
    assert fake_gava.requests[-1].json == {"TaxpayerType": "KE", "TaxpayerID": ID_FOUND}
    missing = await gava.lookup(by_id(ID_UNKNOWN))
    assert missing.outcome is LookupOutcome.NOT_FOUND
    assert missing.provider_reference  # the RequestId of the error answer


async def test_tcc_valid_expired_other_pin_and_unknown(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect
) -> None:
    valid = await gava.lookup(tcc(PIN_INDIVIDUAL, TCC_VALID))
    assert isinstance(valid.record, ComplianceCertificate)
    assert valid.record.pin == PIN_INDIVIDUAL and valid.record.status == "Active"
    assert valid.record.expiry_date is not None and valid.record.expiry_date > date.today()
    assert fake_gava.requests[-1].path == "/v1/kra-tcc/validate"
    assert fake_gava.requests[-1].json == {"kraPIN": PIN_INDIVIDUAL, "tccNumber": TCC_VALID}
    expired = await gava.lookup(tcc(PIN_ACTIVE, TCC_EXPIRED))
    assert isinstance(expired.record, ComplianceCertificate)
    assert expired.record.expiry_date is not None and expired.record.expiry_date < date.today()
    other = await gava.lookup(tcc(PIN_INDIVIDUAL, TCC_OTHER_PIN))
    assert isinstance(other.record, ComplianceCertificate) and other.record.pin == PIN_ACTIVE
    missing = await gava.lookup(tcc(PIN_INDIVIDUAL, "KRAEON0000000099"))
    assert missing.outcome is LookupOutcome.NOT_FOUND


async def test_withholding_certificate(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect
) -> None:
    found = await gava.lookup(withholding(WHT_FOUND))
    assert found.record == WithholdingCertificate(
        number=WHT_FOUND,
        withholder_pin=PIN_ACTIVE,
        withholder_name="T. AN 052318TEST NA NA",
        payee_pin=PIN_INDIVIDUAL,
        payee_name="BANYI02 TEST ENNIS02",
        tax_type="Income Tax - Withholding",
        gross_amount=15_000_000,  # "150,000.00" in cents
        tax_amount=750_000,
        payment_date=date(2026, 1, 15),
    )
    assert fake_gava.requests[-1].path == WITHHOLDING_PATH
    assert fake_gava.requests[-1].json == {"kraPIN": PIN_ACTIVE, "certificateNumber": WHT_FOUND}
    missing = await gava.lookup(withholding(WHT_FOUND, withholder=PIN_INDIVIDUAL))
    assert missing.outcome is LookupOutcome.NOT_FOUND


# ----------------------------------------------------------------------------- the token


async def test_the_token_is_fetched_with_basic_auth_and_cached(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect
) -> None:
    await asyncio.gather(*(gava.lookup(pin(PIN_ACTIVE)) for _ in range(5)))
    await gava.lookup(tcc(PIN_INDIVIDUAL, TCC_VALID))
    # One token for six calls, even concurrent ones; the fake issues it only for the right
    # Basic credentials and grant_type=client_credentials.
    assert fake_gava.token_requests == 1


async def test_the_token_is_renewed_before_it_expires(fake_gava: FakeGavaConnect) -> None:
    now = [1000.0]
    provider = GavaConnectProvider(
        fake_gava.base_url,
        TIMEOUT_SECONDS,
        credentials=Credentials(CONSUMER_KEY, CONSUMER_SECRET),
        clock=lambda: now[0],
    )
    try:
        fake_gava.state.token_seconds = 600
        await provider.lookup(pin(PIN_ACTIVE))
        now[0] += 500  # 100 s left: still good
        await provider.lookup(pin(PIN_ACTIVE))
        assert fake_gava.token_requests == 1
        now[0] += 60  # 40 s left: inside the renewal margin
        await provider.lookup(pin(PIN_ACTIVE))
        assert fake_gava.token_requests == 2
    finally:
        await provider.aclose()


async def test_a_short_lived_token_is_still_reused(fake_gava: FakeGavaConnect) -> None:
    now = [0.0]
    provider = GavaConnectProvider(
        fake_gava.base_url,
        TIMEOUT_SECONDS,
        credentials=Credentials(CONSUMER_KEY, CONSUMER_SECRET),
        withholding_path="checker/v1/whtcertificate",  # the leading slash is added
        clock=lambda: now[0],
    )
    try:
        fake_gava.state.token_seconds = 30  # shorter than the 60 s renewal margin
        await provider.lookup(pin(PIN_ACTIVE))
        now[0] += 10
        await provider.lookup(withholding(WHT_FOUND))
        assert fake_gava.token_requests == 1
        now[0] += 6  # past half its life
        await provider.lookup(pin(PIN_ACTIVE))
        assert fake_gava.token_requests == 2
        assert fake_gava.requests[1].path == WITHHOLDING_PATH
    finally:
        await provider.aclose()


@pytest.mark.parametrize("style", ["401", "500"])
async def test_a_refused_token_is_renewed_once(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect, style: str
) -> None:
    assert (await gava.lookup(pin(PIN_ACTIVE))).outcome is LookupOutcome.FOUND
    fake_gava.expire_tokens(style=style)  # the gateway forgot it before its expiry
    again = await gava.lookup(pin(PIN_ACTIVE))
    assert again.outcome is LookupOutcome.FOUND
    assert fake_gava.token_requests == 2


async def test_refused_credentials_fail_without_calling_the_checker(
    fake_gava: FakeGavaConnect, caplog: pytest.LogCaptureFixture
) -> None:
    provider = GavaConnectProvider(
        fake_gava.base_url, TIMEOUT_SECONDS, credentials=Credentials(CONSUMER_KEY, "wrong")
    )
    try:
        with caplog.at_level(logging.DEBUG):
            result = await provider.lookup(pin(PIN_ACTIVE))
    finally:
        await provider.aclose()
    assert result.outcome is LookupOutcome.FAILED
    assert "HAKIKI_GAVACONNECT_CONSUMER_KEY" in result.message
    assert fake_gava.requests == []
    assert "wrong" not in caplog.text and PIN_ACTIVE not in caplog.text


async def test_a_product_app_overrides_the_default_credentials(fake_gava: FakeGavaConnect) -> None:
    right = Credentials(CONSUMER_KEY, CONSUMER_SECRET)
    provider = GavaConnectProvider(
        fake_gava.base_url,
        TIMEOUT_SECONDS,
        credentials=Credentials("other-key", "other-secret"),
        apps={"tcc": right},
    )
    only_tcc = GavaConnectProvider(fake_gava.base_url, TIMEOUT_SECONDS, apps={"tcc": right})
    try:
        assert (
            await provider.lookup(tcc(PIN_INDIVIDUAL, TCC_VALID))
        ).outcome is LookupOutcome.FOUND
        assert (await provider.lookup(pin(PIN_ACTIVE))).outcome is LookupOutcome.FAILED
        assert only_tcc.supports(tcc(PIN_INDIVIDUAL, TCC_VALID))
        assert not only_tcc.supports(pin(PIN_ACTIVE))
    finally:
        await provider.aclose()
        await only_tcc.aclose()


# ----------------------------------------------------------------------------- failures


@pytest.mark.parametrize(
    "mode",
    [
        FaultMode.HTTP_500,
        FaultMode.HTTP_503,
        FaultMode.GARBAGE,
        FaultMode.UNEXPECTED_JSON,
        FaultMode.OK_WITHOUT_DATA,
        FaultMode.UNKNOWN_ERROR,
        FaultMode.RATE_LIMITED,
        FaultMode.TOKEN_DOWN,
        FaultMode.TOKEN_GARBAGE,
        FaultMode.SLOW,
    ],
)
async def test_upstream_trouble_is_unavailable(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect, mode: FaultMode
) -> None:
    fake_gava.set_mode(mode, slow_seconds=TIMEOUT_SECONDS * 3)
    for query in (pin(PIN_ACTIVE), by_id(ID_FOUND), tcc(PIN_INDIVIDUAL, TCC_VALID)):
        result = await gava.lookup(query)
        assert result.outcome is LookupOutcome.UNAVAILABLE, (query.check, result)
        assert result.record is None
        assert PIN_ACTIVE not in result.message and ID_FOUND not in result.message


async def test_an_unsubscribed_api_is_a_failure(
    gava: GavaConnectProvider, fake_gava: FakeGavaConnect
) -> None:
    fake_gava.set_mode(FaultMode.FORBIDDEN)
    result = await gava.lookup(pin(PIN_ACTIVE))
    assert result.outcome is LookupOutcome.FAILED and "subscribed" in result.message


async def test_nothing_listening_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = GavaConnectProvider(
        f"http://127.0.0.1:{port}", TIMEOUT_SECONDS, credentials=Credentials("k", "s")
    )
    try:
        result = await provider.lookup(pin(PIN_ACTIVE))
    finally:
        await provider.aclose()
    assert result.outcome is LookupOutcome.UNAVAILABLE


# ----------------------------------------------------------------------------- what it serves


def test_it_serves_kenya_and_withholding_only_with_a_path() -> None:
    credentials = Credentials("k", "s")
    without = GavaConnectProvider("http://kra.test", 1.0, credentials=credentials)
    with_path = GavaConnectProvider(
        "http://kra.test", 1.0, credentials=credentials, withholding_path=WITHHOLDING_PATH
    )
    assert without.supports(pin(PIN_ACTIVE)) and without.supports(by_id(ID_FOUND))
    assert not without.supports(TaxQuery("pin", "UG", pin="1000000000"))
    assert not without.supports(withholding(WHT_FOUND))
    assert with_path.supports(withholding(WHT_FOUND))


async def test_the_registry_builds_from_settings() -> None:
    assert build_tax_providers(Settings(secret_key="k" * 40)) == []
    configured = build_tax_providers(
        Settings(
            secret_key="k" * 40,
            gavaconnect_consumer_key=CONSUMER_KEY,
            gavaconnect_consumer_secret=CONSUMER_SECRET,
        )
    )
    assert [p.name for p in configured] == ["kra-gavaconnect"]
    for provider in configured:
        await provider.aclose()
    only_apps = build_tax_providers(
        Settings(secret_key="k" * 40, gavaconnect_apps={"pin_by_id": ("key", "secret")})
    )
    assert only_apps[0].supports(by_id(ID_FOUND)) and not only_apps[0].supports(pin(PIN_ACTIVE))
    await only_apps[0].aclose()
    with pytest.raises(ValueError, match="unknown APIs"):
        build_tax_providers(Settings(secret_key="k" * 40, gavaconnect_apps={"pin": ("k", "s")}))
