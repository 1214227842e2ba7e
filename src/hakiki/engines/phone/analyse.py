"""Parse and describe one phone number with Google's libphonenumber metadata (``phonenumbers``).

Everything is offline. The carrier is the operator the number range was *originally allocated*
to (the regulator's numbering plan), not the operator after mobile number portability: a
Safaricom-range number ported to Airtel still reads "Safaricom". The geographic description is
only known for fixed lines (the area code), never for mobiles.
"""

from __future__ import annotations

from dataclasses import dataclass

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumberFormat, PhoneNumberType

SUPPORTED_REGIONS = frozenset({"KE", "UG", "TZ", "NG"})

_LINE_TYPES: dict[int, str] = {
    PhoneNumberType.FIXED_LINE: "fixed line",
    PhoneNumberType.MOBILE: "mobile",
    PhoneNumberType.FIXED_LINE_OR_MOBILE: "fixed line or mobile",
    PhoneNumberType.TOLL_FREE: "toll free",
    PhoneNumberType.PREMIUM_RATE: "premium rate",
    PhoneNumberType.SHARED_COST: "shared cost",
    PhoneNumberType.VOIP: "voip",
    PhoneNumberType.PERSONAL_NUMBER: "personal number",
    PhoneNumberType.PAGER: "pager",
    PhoneNumberType.UAN: "uan",
    PhoneNumberType.VOICEMAIL: "voicemail",
    PhoneNumberType.UNKNOWN: "unknown",
}

_PARSE_REASONS: dict[int, str] = {
    NumberParseException.INVALID_COUNTRY_CODE: "invalid country code",
    NumberParseException.NOT_A_NUMBER: "not a number",
    NumberParseException.TOO_SHORT_AFTER_IDD: "too short",
    NumberParseException.TOO_SHORT_NSN: "too short",
    NumberParseException.TOO_LONG: "too long",
}

_LENGTH_REASONS: dict[int, str] = {
    phonenumbers.ValidationResult.INVALID_COUNTRY_CODE: "invalid country code",
    phonenumbers.ValidationResult.TOO_SHORT: "too short",
    phonenumbers.ValidationResult.TOO_LONG: "too long",
    phonenumbers.ValidationResult.INVALID_LENGTH: "invalid length",
    phonenumbers.ValidationResult.IS_POSSIBLE_LOCAL_ONLY: "local number only",
}


@dataclass(frozen=True)
class PhoneAnalysis:
    input: str
    valid: bool
    reason: str | None  # why not valid; None when valid
    e164: str | None  # "+254712345678"; None when the text could not be parsed at all
    national: str | None  # "0712 345678"
    international: str | None  # "+254 712 345678"
    country_code: int | None  # 254
    region: str | None  # ISO 3166-1 alpha-2 of the number itself, e.g. "KE"
    supported_region: bool  # region is one of KE, UG, TZ, NG
    line_type: str | None  # "mobile", "fixed line", "voip", "toll free", ...; None if invalid
    original_carrier: str | None  # original allocation, not after porting; None if unknown
    location: str | None  # area of a fixed line ("Nairobi", "Kampala"); None if unknown

    @property
    def lookup_key(self) -> str | None:
        """The stable key for look-ups: the E.164 string, only for valid numbers."""
        return self.e164 if self.valid else None


def _empty(text: str, reason: str) -> PhoneAnalysis:
    return PhoneAnalysis(
        input=text, valid=False, reason=reason, e164=None, national=None, international=None,
        country_code=None, region=None, supported_region=False, line_type=None,
        original_carrier=None, location=None,
    )  # fmt: skip


def analyse(text: str, country: str | None = None) -> PhoneAnalysis:
    """Describe ``text``, read as a national number of ``country`` (KE, UG, TZ, NG) unless it is
    written in international form (``+256...``, ``00256...`` with a country given, or
    ``256...`` if the national reading fails).

    Never raises on bad input: an unreadable number comes back with ``valid=False`` and a reason
    (``not a number``, ``too short``, ``too long``, ``invalid length``, ``invalid prefix``,
    ``invalid country code``, ``missing country``).
    """
    region = country.upper() if country else None
    if region is not None and region not in SUPPORTED_REGIONS:
        raise ValueError(f"country must be one of {sorted(SUPPORTED_REGIONS)}, not {country!r}")
    stripped = text.strip()
    if not stripped:
        return _empty(text, "not a number")
    try:
        number = phonenumbers.parse(stripped, region)
    except NumberParseException as exc:
        invalid_code = exc.error_type == NumberParseException.INVALID_COUNTRY_CODE
        if invalid_code and region is None and not stripped.startswith(("+", "00")):
            return _empty(text, "missing country")
        return _empty(text, _PARSE_REASONS.get(exc.error_type, "not a number"))
    # "254712345678" or "00254712345678" (the IDD of most of the world; Kenya's own is 000):
    # the national reading is invalid, the international one is not.
    if region is not None and not phonenumbers.is_valid_number(number):
        digits = "".join(ch for ch in stripped if ch.isdigit())
        if digits and not stripped.startswith("+"):
            for candidate in ("+" + digits, "+" + digits[2:] if digits[:2] == "00" else ""):
                if not candidate:
                    continue
                try:
                    retry = phonenumbers.parse(candidate, None)
                except NumberParseException:
                    continue
                if phonenumbers.is_valid_number(retry):
                    number = retry
                    break

    valid = phonenumbers.is_valid_number(number)
    number_region = phonenumbers.region_code_for_number(number)
    if number_region in (None, "ZZ", "001") and number.country_code is not None:
        number_region = phonenumbers.region_code_for_country_code(number.country_code)
    if number_region == "ZZ":
        number_region = None
    reason: str | None = None
    if not valid:
        possible = phonenumbers.is_possible_number_with_reason(number)
        reason = _LENGTH_REASONS.get(possible, "invalid prefix")
    return PhoneAnalysis(
        input=text,
        valid=valid,
        reason=reason,
        e164=phonenumbers.format_number(number, PhoneNumberFormat.E164),
        national=phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL),
        international=phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL),
        country_code=number.country_code,
        region=number_region,
        supported_region=number_region in SUPPORTED_REGIONS,
        line_type=_LINE_TYPES.get(phonenumbers.number_type(number), "unknown") if valid else None,
        original_carrier=_original_carrier(number) if valid else None,
        location=_location(number) if valid else None,
    )


# phonenumbers' carrier and geocoder modules load every prefix table of the world when imported
# (seconds of CPU): they are imported at the first number that needs them, not with the app.


def _original_carrier(number: phonenumbers.PhoneNumber) -> str | None:
    from phonenumbers import carrier

    return carrier.name_for_number(number, "en") or None


def _location(number: phonenumbers.PhoneNumber) -> str | None:
    """The area of a fixed line; None where the description is only the country's name."""
    from phonenumbers import geocoder

    description = geocoder.description_for_number(number, "en")
    if not description or description == geocoder.country_name_for_number(number, "en"):
        return None
    return str(description)


def lookup_key(text: str, country: str | None = None) -> str | None:
    """The E.164 form of a valid number (the key to store and look up by), else None."""
    return analyse(text, country).lookup_key
