"""Identity-verification channels: which numbers exist in which country, and their formats.

One registry serves the channels endpoint, request validation and the sandbox, so the three can
never disagree. The KYC endpoints use the same rules: `document_channel` says which channel
verifies a national ID, driver's licence or passport of each country.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Channel:
    code: str
    country: str  # ISO 3166-1 alpha-2
    subject: str  # person | business
    name: str
    format_description: str
    example: str
    pattern: re.Pattern[str]
    requires: tuple[str, ...] = ()  # request fields the registry needs besides the number

    def normalise(self, number: str) -> str:
        """Registries ignore spaces, dashes and case; so do we. A Nigerian phone number in the
        international form (+234 or 234 then 10 digits) becomes its local form (0 then 10)."""
        compact = _SEPARATORS.sub("", number).upper()
        if (self.country, self.code) == ("NG", "phone"):
            compact = _NG_INTERNATIONAL.sub("0", compact)
        return compact

    def check(self, number: str) -> str | None:
        """None when the (normalised) number fits the format, else what was expected."""
        if not self.pattern.fullmatch(number):
            return f"{self.name} numbers are {self.format_description}, e.g. {self.example}"
        if self.country == "TZ" and self.code == "nida" and not _valid_date_prefix(number):
            return "a NIDA number starts with the holder's birth date as YYYYMMDD"
        return None


_SEPARATORS = re.compile(r"[\s\-/]")
_NG_INTERNATIONAL = re.compile(r"^\+?234(?=\d{10}$)")


def _valid_date_prefix(number: str) -> bool:
    try:
        date(int(number[:4]), int(number[4:6]), int(number[6:8]))
    except ValueError:
        return False
    return True


CHANNELS: tuple[Channel, ...] = (
    Channel(
        "bvn",
        "NG",
        "person",
        "Bank Verification Number",
        "11 digits",
        "22212345670",
        re.compile(r"\d{11}"),
    ),
    Channel(
        "nin",
        "NG",
        "person",
        "National Identification Number",
        "11 digits",
        "70123456780",
        re.compile(r"\d{11}"),
    ),
    Channel(
        "phone",
        "NG",
        "person",
        "Nigerian mobile number (NIN-linked)",
        "11 digits starting 070, 080, 081, 090 or 091 (or +234 and the last 10)",
        "08031234560",
        re.compile(r"0[789][01]\d{8}"),
    ),
    Channel(
        "cac",
        "NG",
        "business",
        "Corporate Affairs Commission registration number",
        "RC, BN or IT followed by 1 to 8 digits (the prefix may be left out)",
        "RC1234560",
        re.compile(r"(RC|BN|IT)?\d{1,8}"),
    ),
    Channel(
        "passport",
        "NG",
        "person",
        "Nigerian international passport",
        "one letter then 8 digits",
        "A01234560",
        re.compile(r"[A-Z]\d{8}"),
        requires=("last_name",),  # the passport office matches number and surname together
    ),
    Channel(
        "national_id",
        "KE",
        "person",
        "Kenyan national ID (Huduma/Maisha) number",
        "7 to 9 digits",
        "23456780",
        re.compile(r"\d{7,9}"),
    ),
    Channel(
        "alien_card",
        "KE",
        "person",
        "Kenyan alien (foreign resident) ID card number",
        "6 to 9 digits",
        "7654320",
        re.compile(r"\d{6,9}"),
    ),
    Channel(
        "kra_pin",
        "KE",
        "person",
        "Kenya Revenue Authority PIN of an individual",
        "A, 9 digits, then a letter (P... PINs are companies', not persons')",
        "A012345670Z",
        re.compile(r"A\d{9}[A-Z]"),
    ),
    Channel(
        "passport",
        "KE",
        "person",
        "Kenyan passport",
        "one or two letters then 7 digits",
        "AK1234560",
        re.compile(r"[A-Z]{1,2}\d{7}"),
    ),
    Channel(
        "nin",
        "UG",
        "person",
        "Ugandan National Identification Number",
        "14 characters: CM or CF, then 12 letters or digits",
        "CM90012345670A",
        re.compile(r"C[MF][A-Z0-9]{12}"),
    ),
    Channel(
        "passport",
        "UG",
        "person",
        "Ugandan passport",
        "one or two letters then 7 digits",
        "B1234560",
        re.compile(r"[A-Z]{1,2}\d{7}"),
    ),
    Channel(
        "passport",
        "TZ",
        "person",
        "Tanzanian passport",
        "one to three letters then 6 or 7 digits",
        "TAE123450",
        re.compile(r"[A-Z]{1,3}\d{6,7}"),
    ),
    Channel(
        "drivers_license",
        "NG",
        "person",
        "Nigerian driver's licence (FRSC)",
        "3 letters, 5 digits, 2 letters, 2 digits",
        "ABC12345YZ00",
        re.compile(r"[A-Z]{3}\d{5}[A-Z]{2}\d{2}"),
        requires=("first_name", "last_name"),  # the FRSC look-up matches the number with names
    ),
    Channel(
        "drivers_license",
        "KE",
        "person",
        "Kenyan driving licence (NTSA)",
        "2 or 3 letters then 6 or 7 digits",
        "DLA1234560",
        re.compile(r"[A-Z]{2,3}\d{6,7}"),
    ),
    Channel(
        "drivers_license",
        "UG",
        "person",
        "Ugandan driving permit",
        "8 to 10 digits",
        "100123450",
        re.compile(r"\d{8,10}"),
    ),
    Channel(
        "drivers_license",
        "TZ",
        "person",
        "Tanzanian driving licence",
        "10 digits",
        "4001234560",
        re.compile(r"\d{10}"),
    ),
    Channel(
        "nida",
        "TZ",
        "person",
        "Tanzanian NIDA number",
        "20 digits starting with the birth date as YYYYMMDD",
        "19850515123450000100",
        re.compile(r"\d{20}"),
    ),
)

_BY_KEY = {(c.country, c.code): c for c in CHANNELS}
_COUNTRIES_BY_CODE: dict[str, list[str]] = {}
for _c in CHANNELS:
    _COUNTRIES_BY_CODE.setdefault(_c.code, []).append(_c.country)


# The spec's own channel examples (bvn, nin, cac) are Nigerian, as are Prembly's codes: a code
# that exists in several countries means the Nigerian one unless a country_code says otherwise.
DEFAULT_COUNTRY = "NG"


def find_channel(code: str, country: str | None = None) -> Channel | None:
    """A channel by code and, where the code exists in several countries, country."""
    code = code.strip().lower()
    countries = _COUNTRIES_BY_CODE.get(code, [])
    if country:
        return _BY_KEY.get((country.strip().upper(), code))
    if len(countries) == 1:
        return _BY_KEY[(countries[0], code)]
    return _BY_KEY.get((DEFAULT_COUNTRY, code))


def countries_for(code: str) -> list[str]:
    return list(_COUNTRIES_BY_CODE.get(code.strip().lower(), []))


def countries_fitting(code: str, number: str) -> list[str]:
    """For a code sent without a country_code: the other countries whose ``code`` format the
    number fits when it does not fit the default one (a Ugandan NIN, CM or CF then 12 letters
    or digits, sent as ``nin`` reads as a Nigerian one); [] when it fits the default or no
    other."""
    countries = _COUNTRIES_BY_CODE.get(code.strip().lower(), [])
    default = find_channel(code) if len(countries) > 1 else None  # a code of one country: []
    if default is None or default.check(default.normalise(number)) is None:
        return []
    others = (_BY_KEY[(c, default.code)] for c in countries if c != default.country)
    return [c.country for c in others if c.check(c.normalise(number)) is None]


# The KYC endpoints name a document and a country; this is the channel that verifies it.
# Nigeria's national identity number is the NIN (the BVN is a bank's number, not an ID).
DOCUMENTS = ("national_id", "drivers_license", "passport")
_DOCUMENT_CODES = {
    ("national_id", "NG"): "nin",
    ("national_id", "KE"): "national_id",
    ("national_id", "UG"): "nin",
    ("national_id", "TZ"): "nida",
}


def document_channel(document: str, country: str) -> Channel | None:
    """The channel that verifies ``document`` (national_id, drivers_license, passport) issued
    by ``country``, else None."""
    country = country.strip().upper()
    code = _DOCUMENT_CODES.get((document, country), document)
    return _BY_KEY.get((country, code))
