"""Deterministic sandbox outcomes (docs/sandbox.md).

The same input gives the same answer on every machine and release: everything is derived from
SHA-256 of the channel and number, never from randomness, time or the database.

- the last digit of the number picks the outcome: 0-4 VERIFIED, 5 NOT_FOUND, 6 MISMATCH,
  7 PENDING, 8 SOURCE_UNAVAILABLE, 9 FAILED (soft error);
- the digit before it is an AML bitmask, each bit one hit: 1 PEP, 2 sanctions, 4 adverse-media
  (8 and 9 count as 0 and 1: only the three low bits are read);
- golden numbers per channel have fixed identities that never change.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from typing import Any

from hakiki.core.envelope import Outcome
from hakiki.identity.channels import CHANNELS, Channel
from hakiki.identity.providers.base import IdentityRecord
from hakiki.identity.sandbox_names import BUSINESS_KINDS, BUSINESS_WORDS, FAMILY_NAMES, GIVEN_NAMES

PROVIDER = "hakiki-sandbox"

_OUTCOME_BY_DIGIT = {
    0: Outcome.VERIFIED,
    1: Outcome.VERIFIED,
    2: Outcome.VERIFIED,
    3: Outcome.VERIFIED,
    4: Outcome.VERIFIED,
    5: Outcome.NOT_FOUND,
    6: Outcome.MISMATCH,
    7: Outcome.PENDING,
    8: Outcome.SOURCE_UNAVAILABLE,
    9: Outcome.FAILED,
}

AML_BITS = {1: "pep", 2: "sanction", 4: "adverse_media"}


def _last_digits(number: str, count: int) -> list[int]:
    """The last ``count`` digits of ``number`` in order (fewer when it has fewer)."""
    found: list[int] = []
    for ch in reversed(number):
        if ch.isdigit():
            found.append(int(ch))
            if len(found) == count:
                break
    found.reverse()
    return found


def outcome_for(number: str) -> Outcome:
    digits = _last_digits(number, 1)
    return _OUTCOME_BY_DIGIT[digits[-1] if digits else 0]


def aml_digit(number: str) -> int:
    """The digit before the last, whose bits pick the AML hits (0 when there is none)."""
    digits = _last_digits(number, 2)
    return digits[-2] if len(digits) >= 2 else 0


def aml_flags(number: str) -> frozenset[str]:
    mask = aml_digit(number)
    return frozenset(check for bit, check in AML_BITS.items() if mask & bit)


def _digest_hex(length: int, *parts: str) -> str:
    """``_Seed(*parts).hex(length)`` without the stream of choices."""
    seed = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return hashlib.sha256(seed + b"hex").hexdigest()[:length]


class _Seed:
    """A stream of deterministic choices from one input."""

    def __init__(self, *parts: str) -> None:
        self._digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
        self._pos = 0

    def number(self, modulo: int) -> int:
        if self._pos + 4 > len(self._digest):
            self._digest = hashlib.sha256(self._digest).digest()
            self._pos = 0
        chunk = self._digest[self._pos : self._pos + 4]
        self._pos += 4
        return int.from_bytes(chunk, "big") % modulo

    def pick(self, options: tuple[str, ...]) -> str:
        return options[self.number(len(options))]

    def hex(self, length: int) -> str:
        return hashlib.sha256(self._digest + b"hex").hexdigest()[:length]


def reference_for(channel: Channel, number: str) -> str:
    return "ref_sbx_" + _digest_hex(24, channel.country, channel.code, number, "reference")


_FIRST_BIRTH_DAY = date(1960, 1, 1).toordinal()


def _birth_date(channel: Channel, number: str, seed: _Seed) -> str:
    if channel.country == "TZ" and channel.code == "nida":
        return f"{number[:4]}-{number[4:6]}-{number[6:8]}"  # NIDA numbers start with it
    return date.fromordinal(_FIRST_BIRTH_DAY + seed.number(365 * 43)).isoformat()


# E.164 prefix of a mobile range, and the full length with "+".
_PHONES = {"NG": ("+23480", 14), "KE": ("+2547", 13), "UG": ("+25677", 13), "TZ": ("+25575", 13)}


def _phone(country: str, seed: _Seed | None) -> str:
    prefix, length = _PHONES[country]
    digits = length - len(prefix)
    return prefix + str(seed.number(10**digits) if seed else 0).zfill(digits)


def mock_identity(channel: Channel, number: str) -> IdentityRecord:
    golden = GOLDEN_IDENTITIES.get((channel.country, channel.code, number))
    if golden is not None:
        return golden
    seed = _Seed(channel.country, channel.code, number)
    if channel.subject == "business":
        name = f"{seed.pick(BUSINESS_WORDS)} {seed.pick(BUSINESS_KINDS)} Limited"
        return IdentityRecord(business_name=name, extra={"registration_number": number})
    phone = _phone(channel.country, seed)
    return IdentityRecord(
        first_name=seed.pick(GIVEN_NAMES[channel.country]),
        middle_name=seed.pick(GIVEN_NAMES[channel.country]),
        last_name=seed.pick(FAMILY_NAMES[channel.country]),
        date_of_birth=_birth_date(channel, number, seed),
        gender=("female", "male")[seed.number(2)],
        phone=phone,
        nationality=channel.country,
    )


def confirm_names(record: IdentityRecord, first_name: str, last_name: str) -> IdentityRecord:
    """The registry record of a VERIFIED sandbox number carries the names the caller sent, so a
    comparison passes; MISMATCH numbers keep their own, different names."""
    return IdentityRecord(
        first_name=first_name.strip(),
        middle_name=record.middle_name,
        last_name=last_name.strip(),
        date_of_birth=record.date_of_birth,
        gender=record.gender,
        phone=record.phone,
        nationality=record.nationality,
    )


def mock_hits(
    channel: Channel, number: str, subject_name: str, checks: set[str]
) -> list[dict[str, Any]]:
    """Hits for the requested checks whose bit is set, shaped like the live engine's hits."""
    mask_digit = aml_digit(number)
    schema = "Organization" if channel.subject == "business" else "Person"
    hits = []
    for bit, check in AML_BITS.items():
        if check not in checks or not mask_digit & bit:
            continue
        entity = "sbx-" + check.replace("_", "-") + "-" + _digest_hex(10, check, number)
        hits.append(
            {
                "check": check,
                "list_code": f"sandbox_{check}",
                "list_version": "sandbox",
                "programs": ["SANDBOX"],
                "entity_id": entity,
                "entity_name": subject_name,
                "entity_schema": schema,
                "matched_name": subject_name,
                "matched_name_kind": "primary",
                "score": 1.0,
                "explanation": {
                    "name": {
                        "score": 1.0,
                        "reason": f"sandbox: the second-to-last digit {mask_digit} sets "
                        f"the {check} bit ({bit})",
                    }
                },
                "entity_fingerprint": _digest_hex(20, entity, subject_name),
                **({"pep": SANDBOX_PEP_DETAILS} if check == "pep" else {}),
            }
        )
    return hits


# What a sandbox PEP hit says about the position (a fictional office, still held).
SANDBOX_PEP_DETAILS: dict[str, Any] = {
    "positions": [
        {
            "title": "Sandbox Minister of Test Affairs",
            "country": "ke",
            "start_date": "2022-09-27",
            "end_date": None,
            "tenure_ended": False,
        }
    ],
    "countries": ["ke"],
    "tenure_ended": False,
}


@dataclass(frozen=True)
class Golden:
    number: str
    outcome: Outcome
    aml: tuple[str, ...]
    description: str


# Two-digit endings of the golden numbers: (ending, description).
_GOLDEN_ENDINGS = (
    ("00", "VERIFIED, no AML hit"),
    ("10", "VERIFIED with a PEP hit"),
    ("20", "VERIFIED with a sanctions hit"),
    ("70", "VERIFIED with PEP, sanctions and adverse-media hits"),
    ("05", "NOT_FOUND"),
    ("06", "MISMATCH (with compare)"),
    ("07", "PENDING"),
    ("08", "SOURCE_UNAVAILABLE"),
    ("09", "FAILED (soft error)"),
)

_GOLDEN_STEMS: dict[tuple[str, str], str] = {
    ("NG", "bvn"): "222222222",
    ("NG", "nin"): "700000000",
    ("NG", "phone"): "080300000",
    ("NG", "cac"): "RC10000",
    ("NG", "passport"): "A000000",
    ("KE", "national_id"): "200000",
    ("KE", "passport"): "AK00000",
    ("KE", "alien_card"): "30000",
    ("KE", "kra_pin"): "A0000000{}Z",  # a KRA PIN ends with a letter: the two digits go before it
    ("UG", "nin"): "CM900000000A",
    ("TZ", "nida"): "198501010000000000",
    ("UG", "passport"): "A00000",
    ("TZ", "passport"): "TAE0000",
    ("NG", "drivers_license"): "AAA00000AA",
    ("KE", "drivers_license"): "KDL00000",
    ("UG", "drivers_license"): "1000000",
    ("TZ", "drivers_license"): "40000000",
}

_GOLDEN_PEOPLE: dict[str, tuple[str, str, str, str, str]] = {
    # country: first, middle, last, birth date, gender
    "NG": ("Adaeze", "Ngozi", "Okafor", "1988-04-12", "female"),
    "KE": ("Wanjiru", "Akinyi", "Kamau", "1990-08-23", "female"),
    "UG": ("Moses", "Kato", "Ssempijja", "1984-11-02", "male"),
    "TZ": ("Baraka", "Juma", "Mwakyembe", "1985-01-01", "male"),
}


def _golden_identity(channel: Channel) -> IdentityRecord:
    if channel.subject == "business":
        return IdentityRecord(business_name="Baobab Agro Ventures Limited")
    first, middle, last, born, gender = _GOLDEN_PEOPLE[channel.country]
    return IdentityRecord(
        first_name=first,
        middle_name=middle,
        last_name=last,
        date_of_birth=born,
        gender=gender,
        phone=_phone(channel.country, None),
        nationality=channel.country,
    )


def golden_numbers(channel: Channel) -> list[Golden]:
    stem = _GOLDEN_STEMS[(channel.country, channel.code)]
    goldens = []
    for ending, description in _GOLDEN_ENDINGS:
        number = stem.format(ending) if "{}" in stem else stem + ending
        flags = aml_flags(number)
        goldens.append(
            Golden(
                number,
                outcome_for(number),
                tuple(c for c in AML_BITS.values() if c in flags),
                description,
            )
        )
    return goldens


GOLDEN_IDENTITIES: dict[tuple[str, str, str], IdentityRecord] = {
    (c.country, c.code, g.number): _golden_identity(c) for c in CHANNELS for g in golden_numbers(c)
}
