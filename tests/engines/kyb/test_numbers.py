"""Registration-number formats of BRS, URSB and BRELA, and LEI check digits."""

from __future__ import annotations

import pytest

from hakiki.engines.kyb.lei import is_lei, normalise_lei
from hakiki.engines.kyb.numbers import RegistrationNumberError, parse_registration_number


@pytest.mark.parametrize(
    ("country", "raw", "number", "entity_type", "scheme"),
    [
        ("KE", "PVT-AAB1234C", "PVT-AAB1234C", "private_company", "KE-BRS-2015"),
        ("KE", " pvt aab1234c ", "PVT-AAB1234C", "private_company", "KE-BRS-2015"),
        ("KE", "PUB-7XK29QZ", "PUB-7XK29QZ", "public_company", "KE-BRS-2015"),
        ("KE", "BN-B8S6JP89", "BN-B8S6JP89", "business_name", "KE-BRS-2015"),
        ("KE", "LLP-1A2B3C", "LLP-1A2B3C", "limited_liability_partnership", "KE-BRS-2015"),
        ("KE", "CLG-4H7J2K9", "CLG-4H7J2K9", "company_limited_by_guarantee", "KE-BRS-2015"),
        ("KE", "PF-Q2W3E4R", "PF-Q2W3E4R", "partnership", "KE-BRS-2015"),
        ("KE", "CPF-Z9X8C7V", "CPF-Z9X8C7V", "foreign_company", "KE-BRS-2015"),
        ("KE", "CPR/2009/12345", "CPR/2009/12345", "private_company", "KE-BRS-2010"),
        ("KE", "pvt / 2016 / 028721", "PVT/2016/028721", "private_company", "KE-BRS-2010"),
        ("KE", "BN/2012/123456", "BN/2012/123456", "business_name", "KE-BRS-2010"),
        ("KE", "C.12345", "C.12345", "company", "KE-CAP486"),
        ("KE", "c 12345", "C.12345", "company", "KE-CAP486"),
        ("KE", "C12", "C.12", "company", "KE-CAP486"),
        ("UG", "80020001234567", "80020001234567", None, "UG-URSB-BRN"),
        ("UG", "8002 0001 2345 67", "80020001234567", None, "UG-URSB-BRN"),
        ("UG", "0123456", "123456", None, "UG-URSB-LEGACY"),
        ("TZ", "154487563", "154487563", "company", "TZ-BRELA-COMPANY"),
        ("TZ", "bn 123456", "BN123456", "business_name", "TZ-BRELA-BN"),
        ("TZ", "BN-123456", "BN123456", "business_name", "TZ-BRELA-BN"),
        ("GB", "01234567", "01234567", None, "GB-REGISTER"),
        ("ng", "rc 1234567", "RC1234567", "company", "NG-CAC"),
        ("gh", "cs 123456789", "CS 123456789", None, "GH-REGISTER"),
    ],
)
def test_numbers_that_fit(
    country: str, raw: str, number: str, entity_type: str | None, scheme: str
) -> None:
    parsed = parse_registration_number(country, raw)
    assert (parsed.country, parsed.number, parsed.entity_type, parsed.scheme) == (
        country.upper(), number, entity_type, scheme,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("country", "raw", "words"),
    [
        ("KE", "", "is empty"),
        ("KE", "   ", "is empty"),
        ("KE", "XYZ-1234567", "prefix XYZ"),
        ("KE", "ABC/2010/1234", "prefix ABC"),
        ("KE", "PVT-12345", "not a Kenyan BRS number"),  # too short
        ("KE", "PVT-12345678901", "not a Kenyan BRS number"),  # too long
        ("KE", "CPR/1850/1", "not a Kenyan BRS number"),  # no such year
        ("KE", "PVT-ÄBC1234", "not a Kenyan BRS number"),
        ("KE", "12345678", "not a Kenyan BRS number"),
        ("UG", "8002000123456", "not a Ugandan URSB number"),  # 13 digits
        ("UG", "12345678", "not a Ugandan URSB number"),
        ("UG", "BN123", "not a Ugandan URSB number"),
        ("TZ", "1234567890", "not a Tanzanian BRELA number"),
        ("TZ", "BNX12", "not a Tanzanian BRELA number"),
        ("GB", "-", "1 to 64"),
        ("GB", "A" * 65, "1 to 64"),
        ("GB", "<script>", "1 to 64"),
    ],
)
def test_numbers_that_fit_none_say_why(country: str, raw: str, words: str) -> None:
    with pytest.raises(RegistrationNumberError) as error:
        parse_registration_number(country, raw)
    assert words in str(error.value)


def test_lei_check_digits() -> None:
    assert is_lei("5493001KJTIIGC8Y1R12")
    assert is_lei(normalise_lei(" 5493 001k jtii gc8y 1r12 "))
    assert not is_lei("5493001KJTIIGC8Y1R13")  # a check digit off
    assert not is_lei("5493001KJTIIGC8Y1R1")  # 19 characters
    assert not is_lei("5493001KJTIIGC8Y1RAB")  # letters in the check digits
