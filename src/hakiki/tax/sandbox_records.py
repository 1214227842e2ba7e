"""The sandbox's taxpayers and certificates (docs/sandbox.md#tax): derived from SHA-256 of the
numbers asked about, so the same request gets the same answer on every machine and release;
nothing depends on the clock or the database.

Golden numbers (two digits of outcome before a fixed letter, as in the identity sandbox):
KE PIN ``A0000000``+DD+``W`` and national ID ``200000``+DD are Wanjiru Akinyi Kamau; KE PIN
``P0000000``+DD+``K`` is Kilima Agro Traders Limited; UG TIN ``10000000``+DD is Moses Kato
Ssempijja; TZ TIN ``1000000``+DD is Baraka Juma Mwakyembe; NG TIN ``20000000-00``+DD is
Adeyemi Okafor Foods Limited (FIRS, through Prembly, gives no PIN status: neither does the
sandbox for NG).
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta

from hakiki.identity.sandbox_names import BUSINESS_KINDS, BUSINESS_WORDS, FAMILY_NAMES, GIVEN_NAMES
from hakiki.tax.providers.base import (
    ComplianceCertificate,
    TaxpayerRecord,
    TaxQuery,
    WithholdingCertificate,
)

# A valid sandbox certificate stays valid (its verdict must not change with the date); an
# expired one expired long ago.
VALID_UNTIL = date(2099, 12, 31)
EXPIRED_ON = date(2025, 6, 30)
_LETTERS = "ABCDEFGHJKLMNPQRTUVWXYZ"

GOLDEN_PERSON = "WANJIRU AKINYI KAMAU"
GOLDEN_COMPANY = "KILIMA AGRO TRADERS LIMITED"
GOLDEN_NG_COMPANY = "ADEYEMI OKAFOR FOODS LIMITED"
_GOLDEN = {
    "KE": (
        (re.compile(r"A0000000\d\dW"), GOLDEN_PERSON),
        (re.compile(r"P0000000\d\dK"), GOLDEN_COMPANY),
    ),
    "UG": ((re.compile(r"10000000\d\d"), "MOSES KATO SSEMPIJJA"),),
    "TZ": ((re.compile(r"1000000\d\d"), "BARAKA JUMA MWAKYEMBE"),),
    "NG": ((re.compile(r"2000000000\d\d"), GOLDEN_NG_COMPANY),),
}
GOLDEN_ID_STEM = "200000"


class Seed:
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

    def pick(self, options: tuple[str, ...] | str) -> str:
        return options[self.number(len(options))]

    def digits(self, count: int) -> str:
        return "".join(str(self.number(10)) for _ in range(count))


def _golden_name(country: str, pin: str) -> str | None:
    return next((name for stem, name in _GOLDEN[country] if stem.fullmatch(pin)), None)


def taxpayer_name(country: str, pin: str) -> str:
    golden = _golden_name(country, pin)
    if golden is not None:
        return golden
    seed = Seed("tax", country, pin, "name")
    company = pin.startswith("P") if country == "KE" else seed.number(4) == 0
    if company:
        return f"{seed.pick(BUSINESS_WORDS)} {seed.pick(BUSINESS_KINDS)} Limited".upper()
    names = (
        seed.pick(GIVEN_NAMES[country]),
        seed.pick(GIVEN_NAMES[country]),
        seed.pick(FAMILY_NAMES[country]),
    )
    return " ".join(names).upper()


def taxpayer_kind(country: str, pin: str) -> str:
    """How the registry would write the type: a KRA PIN's letter says it; for a TIN, the
    sandbox name does (a company name ends in LIMITED)."""
    if country == "KE":
        return "Individual" if pin.startswith("A") else "Non Individual"
    return "Non Individual" if taxpayer_name(country, pin).endswith("LIMITED") else "Individual"


def pin_for_id(national_id: str) -> str:
    """The KRA PIN the sandbox registers to a Kenyan national ID; its last digit is the ID's,
    so checking the PIN itself gives the same outcome. The golden IDs get the golden PINs."""
    last = national_id[-2:]
    if national_id.startswith(GOLDEN_ID_STEM) and len(national_id) == 8:
        return f"A0000000{last}W"
    seed = Seed("tax", "KE", national_id, "pin")
    return f"A{seed.digits(7)}{last}{seed.pick(_LETTERS)}"


def another_pin(country: str, pin: str) -> str:
    """A different taxpayer's number of the same kind: what a MISMATCH record names."""
    seed = Seed("tax", country, pin, "another")
    if country == "KE":
        candidate = f"{pin[0]}{seed.digits(9)}{seed.pick(_LETTERS)}"
    else:
        candidate = ("1" if country == "UG" else "2") + seed.digits(len(pin) - 1)
    return candidate if candidate != pin else candidate[::-1]


def taxpayer_by_id(national_id: str, mismatch: bool) -> TaxpayerRecord:
    """What KRA's PIN checker by ID gives: the PIN and the name only; with ``mismatch``, another
    taxpayer's PIN than the one the ID would have."""
    pin = pin_for_id(national_id)
    if mismatch:
        pin = another_pin("KE", pin)
    return TaxpayerRecord(pin, taxpayer_name("KE", pin), None, None)


def taxpayer(country: str, pin: str, status: str | None) -> TaxpayerRecord:
    return TaxpayerRecord(pin, taxpayer_name(country, pin), taxpayer_kind(country, pin), status)


def compliance_certificate(query: TaxQuery, pin: str, expired: bool) -> ComplianceCertificate:
    number = query.certificate_number or ""
    if expired:
        issued, until, status = EXPIRED_ON - timedelta(days=364), EXPIRED_ON, "Expired"
    else:
        issued = date(2026, 1, 1) + timedelta(days=Seed("tax", number, "issued").number(180))
        until, status = VALID_UNTIL, "Active"
    name = taxpayer_name(query.country, pin)
    return ComplianceCertificate(number, pin, name, status, issued, until)


_WITHHOLDING_TYPES = (("Income Tax - Withholding", 5), ("VAT Withholding", 2))


def withholding_certificate(query: TaxQuery, payee: str) -> WithholdingCertificate:
    number = query.certificate_number or ""
    withholder = query.withholder_pin or ""
    seed = Seed("tax", query.country, number, "withholding")
    tax_type, rate = _WITHHOLDING_TYPES[seed.number(len(_WITHHOLDING_TYPES))]
    gross = (seed.number(9_000) + 1_000) * 100 * 100  # 100,000 to 999,900 in minor units
    return WithholdingCertificate(
        number=number,
        withholder_pin=withholder,
        withholder_name=taxpayer_name(query.country, withholder),
        payee_pin=payee,
        payee_name=taxpayer_name(query.country, payee),
        tax_type=tax_type,
        gross_amount=gross,
        tax_amount=gross * rate // 100,
        payment_date=date(2026, 1, 1) + timedelta(days=seed.number(180)),
    )
