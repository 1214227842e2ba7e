"""Taxpayer numbers of KRA, URA, TRA and FIRS, and the numbers that go with them.

- Kenya, KRA PIN: ``A`` (individual) or ``P`` (non-individual), 9 digits, a letter
  (``A123456789Z``). KRA publishes the format, not how the last letter is computed, so only the
  format is checked (python-stdnum does the same).
- Uganda, URA TIN: 10 digits.
- Tanzania, TRA TIN: 9 digits, usually written ``NNN-NNN-NNN``.
- Nigeria, FIRS TIN: FIRS writes it as 8 digits, a dash and 4 digits (``20304753-0001``);
  the Joint Tax Board's TIN is 10 digits, and the TINs Prembly's look-ups by NIN and phone return
  run to 13 or 14 digits (docs/decisions.md, "Nigeria: TIN, CAC and plates"), so 10 to 14
  digits are accepted and a 12-digit one is displayed as FIRS writes it.
- Kenyan national ID number: 7 to 9 digits (the identity channels' rule).

Every parser normalises (spaces and dashes dropped, letters upper-cased) and raises
``FormatProblem`` saying what is wrong, so the caller can answer a 400 that helps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

TaxpayerType = Literal["individual", "non_individual"]

_SEPARATORS = re.compile(r"[\s\-]")
_KRA_TYPES: dict[str, TaxpayerType] = {"A": "individual", "P": "non_individual"}


class FormatProblem(ValueError):
    """A number that does not fit its format; the message says how."""


@dataclass(frozen=True)
class Authority:
    country: str
    name: str  # KRA, URA, TRA
    number_name: str  # what the authority calls its taxpayer number
    number_format: str
    example: str


AUTHORITIES: dict[str, Authority] = {
    "KE": Authority("KE", "KRA", "KRA PIN", "A or P, then 9 digits, then a letter", "A123456789Z"),
    "UG": Authority("UG", "URA", "URA TIN", "10 digits", "1000012345"),
    "TZ": Authority("TZ", "TRA", "TRA TIN", "9 digits, often written NNN-NNN-NNN", "123-456-789"),
    "NG": Authority(
        "NG",
        "FIRS",
        "FIRS TIN",
        "10 to 14 digits (FIRS writes 8 digits, a dash and 4 digits)",
        "20304753-0001",
    ),
}


@dataclass(frozen=True)
class TaxpayerNumber:
    """A taxpayer number that fits its authority's format."""

    country: str
    authority: str
    number: str  # normalised: A123456789Z, 1000012345, 123456789
    display: str  # as the authority writes it: TRA TINs as 123-456-789
    taxpayer_type: TaxpayerType | None  # what a KRA PIN's first letter says; None elsewhere


def _compact(raw: str) -> str:
    return _SEPARATORS.sub("", raw).upper()


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes Arabic-Indic and other digits."""
    return text.isascii() and text.isdigit()


def _only_letters_and_digits(number: str, what: str) -> None:
    odd = next((ch for ch in number if not (ch.isascii() and ch.isalnum())), None)
    if odd is not None:
        raise FormatProblem(f"{what} holds only letters and digits, not {odd!r}")


def parse_kra_pin(raw: str) -> TaxpayerNumber:
    pin = _compact(raw)
    what = "a KRA PIN"
    if not pin:
        raise FormatProblem(f"is empty: {what} is {AUTHORITIES['KE'].number_format}")
    _only_letters_and_digits(pin, what)
    if len(pin) != 11:
        raise FormatProblem(
            f"has {len(pin)} characters; {what} has 11: A or P, 9 digits and a letter "
            "(e.g. A123456789Z)"
        )
    if pin[0] not in _KRA_TYPES:
        raise FormatProblem(
            f"starts with {pin[0]!r}; {what} starts with A (individual) or P (non-individual)"
        )
    middle = pin[1:10]
    if not _digits(middle):
        position = next(i for i, ch in enumerate(middle, start=2) if not _digits(ch))
        raise FormatProblem(
            f"has {pin[position - 1]!r} at position {position}; characters 2 to 10 of {what} "
            "are digits"
        )
    if not pin[10].isalpha():
        raise FormatProblem(f"ends with {pin[10]!r}; {what} ends with a letter")
    return TaxpayerNumber("KE", "KRA", pin, pin, _KRA_TYPES[pin[0]])


def _parse_digits(raw: str, country: str, length: int) -> str:
    authority = AUTHORITIES[country]
    number = _compact(raw)
    what = f"a {authority.number_name}"
    if not number:
        raise FormatProblem(f"is empty: {what} is {authority.number_format}")
    if not _digits(number):
        odd = next(ch for ch in number if not _digits(ch))
        raise FormatProblem(f"holds {odd!r}; {what} is {authority.number_format}")
    if len(number) != length:
        raise FormatProblem(
            f"has {len(number)} digits; {what} has {length} (e.g. {authority.example})"
        )
    return number


def parse_ura_tin(raw: str) -> TaxpayerNumber:
    tin = _parse_digits(raw, "UG", 10)
    return TaxpayerNumber("UG", "URA", tin, tin, None)


def parse_tra_tin(raw: str) -> TaxpayerNumber:
    tin = _parse_digits(raw, "TZ", 9)
    return TaxpayerNumber("TZ", "TRA", tin, f"{tin[:3]}-{tin[3:6]}-{tin[6:]}", None)


def parse_firs_tin(raw: str) -> TaxpayerNumber:
    authority = AUTHORITIES["NG"]
    tin = _compact(raw)
    what = f"a {authority.number_name}"
    if not tin:
        raise FormatProblem(f"is empty: {what} is {authority.number_format}")
    if not _digits(tin):
        odd = next(ch for ch in tin if not _digits(ch))
        raise FormatProblem(f"holds {odd!r}; {what} is {authority.number_format}")
    if not 10 <= len(tin) <= 14:
        raise FormatProblem(
            f"has {len(tin)} digits; {what} has 10 to 14 (e.g. {authority.example})"
        )
    display = f"{tin[:8]}-{tin[8:]}" if len(tin) == 12 else tin
    return TaxpayerNumber("NG", "FIRS", tin, display, None)


_PARSERS = {"KE": parse_kra_pin, "UG": parse_ura_tin, "TZ": parse_tra_tin, "NG": parse_firs_tin}


def parse_taxpayer_number(country: str, raw: str) -> TaxpayerNumber:
    """The taxpayer number ``raw`` of ``country`` (KE, UG, TZ or NG), or ``FormatProblem``."""
    parser = _PARSERS.get(country.upper())
    if parser is None:
        raise FormatProblem(f"no taxpayer number format is known for {country!r}")
    return parser(raw)


def parse_kenyan_id(raw: str) -> str:
    """A Kenyan national ID number: 7 to 9 digits."""
    number = _compact(raw)
    if not number:
        raise FormatProblem("is empty: a Kenyan national ID number is 7 to 9 digits")
    if not _digits(number):
        odd = next(ch for ch in number if not _digits(ch))
        raise FormatProblem(f"holds {odd!r}; a Kenyan national ID number is 7 to 9 digits")
    if not 7 <= len(number) <= 9:
        raise FormatProblem(
            f"has {len(number)} digits; a Kenyan national ID number has 7 to 9 (e.g. 23456780)"
        )
    return number


def parse_certificate_number(raw: str, what: str) -> str:
    """A certificate number (a Tax Compliance Certificate's, a withholding certificate's):
    6 to 30 letters and digits, at least one a digit. Authorities print them in several
    shapes (KRA TCCs look like ``KRAEON1294973222``), so the rule is deliberately loose."""
    number = _compact(raw)
    if not number:
        raise FormatProblem(f"is empty: {what} is 6 to 30 letters and digits")
    _only_letters_and_digits(number, what)
    if not 6 <= len(number) <= 30:
        raise FormatProblem(f"has {len(number)} characters; {what} has 6 to 30")
    if not any(_digits(ch) for ch in number):
        raise FormatProblem(f"has no digit; {what} carries a serial number")
    return number
