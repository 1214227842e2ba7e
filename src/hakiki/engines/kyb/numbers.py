"""Registration numbers of Kenya's BRS, Uganda's URSB, Tanzania's BRELA and Nigeria's CAC:
which formats exist, the normal form of each, and the entity type a format implies.

Our reading of numbers printed on certificates, CR12 extracts and the registries' search pages
(docs/decisions.md, "KYB registration numbers"), loose where the registries are:

* Kenya (BRS). Since the Companies Act 2015 and the eCitizen registry: a type prefix, a dash and
  6 to 10 letters or digits (``PVT-AAB1234C``, ``BN-B8S6JP89``, ``LLP-1A2B3C``). Between 2010
  and 2016: prefix, year and serial with slashes (``CPR/2009/12345``, ``PVT/2016/028721``).
  Before that, companies under Cap. 486: ``C.12345`` (``C12345``, ``C 12345``).
* Uganda (URSB). The Online Business Registration System issues 14-digit Business Registration
  Numbers (``80020001234567``); older certificates carry 1 to 7 digits. Neither says the type.
* Tanzania (BRELA). Companies: an incorporation number of 1 to 9 digits (``154487563``);
  business names: ``BN`` and 1 to 9 digits (``BN 123456``).
* Nigeria (CAC). A type prefix and up to 8 digits: ``RC`` companies (``RC 1234567``), ``BN``
  business names, ``IT`` incorporated trustees, ``LP`` limited partnerships, ``LLP`` limited
  liability partnerships (the classifications Prembly's CAC look-ups name); bare digits say no
  type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Kenyan prefixes and the entity type each implies (new dash form and older slash form).
KENYA_PREFIXES: dict[str, str] = {
    "PVT": "private_company",
    "CPR": "private_company",
    "PUB": "public_company",
    "CLG": "company_limited_by_guarantee",
    "LLP": "limited_liability_partnership",
    "BN": "business_name",
    "PF": "partnership",
    "CPF": "foreign_company",
    "FC": "foreign_company",
}
_KE_DASH = re.compile(r"^(?P<prefix>[A-Z]{2,3})-(?P<serial>[A-Z0-9]{6,10})$")
_KE_SLASH = re.compile(r"^(?P<prefix>[A-Z]{2,3})/(?P<year>(19|20)\d{2})/(?P<serial>\d{1,7})$")
_KE_LEGACY = re.compile(r"^C\.?(?P<serial>\d{1,6})$")
_UG_BRN = re.compile(r"^\d{14}$")
_UG_LEGACY = re.compile(r"^\d{1,7}$")
_TZ_COMPANY = re.compile(r"^\d{1,9}$")
_TZ_BUSINESS_NAME = re.compile(r"^BN(?P<serial>\d{1,9})$")
_OTHER = re.compile(r"^[A-Z0-9][A-Z0-9 ./\-]{0,62}[A-Z0-9]$|^[A-Z0-9]$")

_NG_CAC = re.compile(r"^(?P<prefix>RC|BN|IT|LLP|LP)?(?P<serial>\d{1,8})$")
NIGERIA_PREFIXES: dict[str, str] = {
    "RC": "company",
    "BN": "business_name",
    "IT": "incorporated_trustees",
    "LP": "limited_partnership",
    "LLP": "limited_liability_partnership",
}

REGISTRIES = {"KE": "BRS", "UG": "URSB", "TZ": "BRELA", "NG": "CAC"}


@dataclass(frozen=True)
class RegistrationNumber:
    """A number that fits its country's format, in its normal form."""

    country: str
    number: str  # the normal form: upper case, one separator style
    entity_type: str | None  # what the format implies; None where it says nothing
    scheme: str  # which format matched, e.g. "KE-BRS-2015"


class RegistrationNumberError(ValueError):
    """The number fits none of its country's formats; the message says what was wrong."""


def _compact(raw: str) -> str:
    return " ".join(raw.strip().upper().split())


def parse_registration_number(country: str, raw: str) -> RegistrationNumber:
    """The normal form of ``raw`` for ``country`` (ISO 3166-1 alpha-2), or
    RegistrationNumberError naming what does not fit."""
    text = _compact(raw)
    if not text:
        raise RegistrationNumberError("is empty")
    country = country.upper()
    if country == "KE":
        return _kenya(text)
    if country == "UG":
        return _uganda(text)
    if country == "TZ":
        return _tanzania(text)
    if country == "NG":
        return _nigeria(text)
    if not _OTHER.match(text):
        raise RegistrationNumberError(
            "must be 1 to 64 letters and digits (spaces, dots, slashes and dashes between them)"
        )
    return RegistrationNumber(country, text, None, f"{country}-REGISTER")


def _kenya(text: str) -> RegistrationNumber:
    dashed = re.sub(r"^([A-Z]{2,3})[ \-]+", r"\1-", text)
    if match := _KE_DASH.match(dashed):
        prefix = match["prefix"]
        if prefix in KENYA_PREFIXES:
            return RegistrationNumber("KE", dashed, KENYA_PREFIXES[prefix], "KE-BRS-2015")
        raise RegistrationNumberError(_unknown_prefix(prefix))
    slashed = re.sub(r"\s*/\s*", "/", text)
    if match := _KE_SLASH.match(slashed):
        prefix = match["prefix"]
        if prefix in KENYA_PREFIXES:
            return RegistrationNumber("KE", slashed, KENYA_PREFIXES[prefix], "KE-BRS-2010")
        raise RegistrationNumberError(_unknown_prefix(prefix))
    if match := _KE_LEGACY.match(text.replace(" ", "")):
        return RegistrationNumber("KE", f"C.{match['serial']}", "company", "KE-CAP486")
    raise RegistrationNumberError(
        "is not a Kenyan BRS number: expected a prefix and 6-10 letters or digits "
        "(PVT-AAB1234C, BN-B8S6JP89), prefix/year/serial (CPR/2009/12345) or C.12345"
    )


def _unknown_prefix(prefix: str) -> str:
    known = ", ".join(sorted(KENYA_PREFIXES))
    return f"has the prefix {prefix}, which the Kenyan registry does not use (known: {known})"


def _uganda(text: str) -> RegistrationNumber:
    digits = text.replace(" ", "")
    if _UG_BRN.match(digits):
        return RegistrationNumber("UG", digits, None, "UG-URSB-BRN")
    if _UG_LEGACY.match(digits):
        return RegistrationNumber("UG", digits.lstrip("0") or "0", None, "UG-URSB-LEGACY")
    raise RegistrationNumberError(
        "is not a Ugandan URSB number: expected the 14-digit Business Registration Number "
        "or an older number of 1-7 digits"
    )


def _nigeria(text: str) -> RegistrationNumber:
    compact = re.sub(r"[\s./\-]", "", text)
    match = _NG_CAC.match(compact)
    if match is None:
        raise RegistrationNumberError(
            "is not a Nigerian CAC number: expected RC, BN, IT, LP or LLP and up to 8 digits "
            "(RC 1234567, BN 2345678), or the digits alone"
        )
    prefix, serial = match["prefix"], match["serial"]  # leading zeros kept: 092932 is a number
    if prefix is None:
        return RegistrationNumber("NG", serial, None, "NG-CAC")
    return RegistrationNumber("NG", f"{prefix}{serial}", NIGERIA_PREFIXES[prefix], "NG-CAC")


def _tanzania(text: str) -> RegistrationNumber:
    compact = text.replace(" ", "").replace("-", "").replace("/", "")
    if match := _TZ_BUSINESS_NAME.match(compact):
        return RegistrationNumber("TZ", f"BN{match['serial']}", "business_name", "TZ-BRELA-BN")
    if _TZ_COMPANY.match(compact):
        return RegistrationNumber("TZ", compact, "company", "TZ-BRELA-COMPANY")
    raise RegistrationNumberError(
        "is not a Tanzanian BRELA number: expected an incorporation number of 1-9 digits "
        "or a business name number BN and 1-9 digits"
    )
