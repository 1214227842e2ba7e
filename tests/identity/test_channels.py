from __future__ import annotations

import pytest

from hakiki.identity.channels import CHANNELS, find_channel


def test_required_channels_exist() -> None:
    keys = {(c.country, c.code) for c in CHANNELS}
    assert {
        ("NG", "bvn"),
        ("NG", "nin"),
        ("NG", "cac"),
        ("NG", "passport"),
        ("KE", "national_id"),
        ("KE", "passport"),
        ("UG", "nin"),
        ("TZ", "nida"),
    } <= keys


def test_ambiguous_codes_default_to_nigeria_and_honour_country() -> None:
    assert find_channel("nin") == find_channel("nin", "NG")
    ug = find_channel("nin", "ug")
    assert ug is not None and ug.country == "UG"
    assert find_channel("nida", "NG") is None
    assert find_channel("nope") is None


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: f"{c.country}-{c.code}")
def test_examples_fit_their_formats(channel: object) -> None:
    from hakiki.identity.channels import Channel

    assert isinstance(channel, Channel)
    assert channel.check(channel.normalise(channel.example)) is None


@pytest.mark.parametrize(
    ("code", "country", "number", "ok"),
    [
        ("bvn", "NG", "2221234567", False),
        ("bvn", "NG", "22212345678", True),
        ("bvn", "NG", "2221234567a", False),
        ("cac", "NG", "rc 123-4567", True),
        ("cac", "NG", "XX1234567", False),
        ("passport", "NG", "A12345678", True),
        ("passport", "KE", "AK1234567", True),
        ("national_id", "KE", "123456", False),
        ("nin", "UG", "CM90012345670A", True),
        ("nin", "UG", "CX90012345670A", False),
        ("nida", "TZ", "19850515123450000100", True),
        ("nida", "TZ", "19851315123450000100", False),
        ("phone", "NG", "0803 123 4567", True),
        ("phone", "NG", "+234 803 123 4567", True),
        ("phone", "NG", "2348031234567", True),
        ("phone", "NG", "0603 123 4567", False),
        ("phone", "NG", "080312345", False),
    ],
)
def test_format_rules(code: str, country: str, number: str, ok: bool) -> None:
    channel = find_channel(code, country)
    assert channel is not None
    assert (channel.check(channel.normalise(number)) is None) is ok


@pytest.mark.parametrize(
    ("code", "country", "number", "ok"),
    [
        ("passport", "UG", "B1234567", True),
        ("passport", "UG", "B123456", False),
        ("passport", "TZ", "TAE123456", True),
        ("passport", "TZ", "TAEX123456", False),
        ("drivers_license", "NG", "ABC12345YZ00", True),
        ("drivers_license", "NG", "ABC1234YZ00", False),
        ("drivers_license", "KE", "DLA1234567", True),
        ("drivers_license", "KE", "1234567", False),
        ("drivers_license", "UG", "100123456", True),
        ("drivers_license", "UG", "1001234", False),
        ("drivers_license", "TZ", "4001234567", True),
        ("drivers_license", "TZ", "400123456", False),
    ],
)
def test_kyc_document_formats(code: str, country: str, number: str, ok: bool) -> None:
    test_format_rules(code, country, number, ok)


def test_each_kyc_document_has_a_channel_in_every_country() -> None:
    from hakiki.identity.channels import DOCUMENTS, document_channel

    for document in DOCUMENTS:
        for country in ("NG", "KE", "UG", "TZ"):
            assert document_channel(document, country) is not None, (document, country)
    national = {c: document_channel("national_id", c) for c in ("NG", "KE", "UG", "TZ")}
    assert {c: ch.code for c, ch in national.items() if ch} == {
        "NG": "nin", "KE": "national_id", "UG": "nin", "TZ": "nida",
    }  # fmt: skip
    assert document_channel("passport", "GH") is None


def test_a_nigerian_phone_number_has_one_form() -> None:
    phone = find_channel("phone")
    assert phone is not None and phone.country == "NG"
    assert {phone.normalise(n) for n in ("+2348031234567", "234 803 123 4567", "08031234567")} == {
        "08031234567"
    }
