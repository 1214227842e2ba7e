"""Look-up keys of a report's subject: keyed hashes of normalised values, so reports of one
person meet across organisations without the values being stored in clear."""

from __future__ import annotations

import re

from hakiki.core.crypto import Vault
from hakiki.engines.phone import SUPPORTED_REGIONS, PhoneAnalysis, analyse
from hakiki.fraud.schemas import ReportSubject

_NOT_ALNUM = re.compile(r"[^0-9A-Z]")
_NOT_DIGIT = re.compile(r"\D")


def identifier_key(vault: Vault, value: str) -> str:
    """Identity numbers compare without spaces, dashes or case (types may differ per report:
    one lender calls it a national ID, another a NIN)."""
    return vault.lookup_hash("identifier", _NOT_ALNUM.sub("", value.upper()))


def phone_key(vault: Vault, value: str, country: str | None) -> str:
    """Phones compare in international form (E.164 from libphonenumber's metadata), so
    0803 123 4567 (NG) and +234 803 123 4567 meet; an invalid number compares by its digits."""
    return phone_key_of(vault, analyse(value, country if country in SUPPORTED_REGIONS else None))


def phone_key_of(vault: Vault, analysis: PhoneAnalysis) -> str:
    """``phone_key`` of a phone already analysed (libphonenumber's parse is the costly part)."""
    e164 = analysis.lookup_key
    return vault.lookup_hash(
        "phone", e164.lstrip("+") if e164 else _NOT_DIGIT.sub("", analysis.input)
    )


def email_key(vault: Vault, value: str) -> str:
    return vault.lookup_hash("email", value.strip().lower())


def address_key(vault: Vault, country: str, text: str) -> str:
    """Addresses compare by their words, without case, punctuation or order."""
    words = sorted(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())
    return vault.lookup_hash("address", country.upper(), " ".join(words))


def subject_keys(vault: Vault, subject: ReportSubject) -> list[tuple[str, str]]:
    """(kind, keyed hash) of every identifier, phone and e-mail of the subject, without repeats."""
    keys = [("identifier", identifier_key(vault, i.value)) for i in subject.identifiers]
    keys += [("phone", phone_key(vault, p, subject.country)) for p in subject.phones]
    keys += [("email", email_key(vault, e)) for e in subject.emails]
    if subject.address and subject.country:
        keys.append(("address", address_key(vault, subject.country, subject.address)))
    return list(dict.fromkeys(keys))
