"""TD3 (passport) machine-readable zones: two lines of 44 characters, ICAO Doc 9303 part 4.

Check digits use the 7-3-1 weights over character values (digits as themselves, A-Z 10-35,
the filler ``<`` 0), modulo 10 (Doc 9303 part 3, 4.9).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE_LENGTH = 44
_CHARSET = re.compile(r"[A-Z0-9<]{44}")
_WEIGHTS = (7, 3, 1)


def char_value(ch: str) -> int:
    if ch.isdigit():
        return int(ch)
    if "A" <= ch <= "Z":
        return ord(ch) - ord("A") + 10
    if ch == "<":
        return 0
    raise ValueError(f"{ch!r} is not an MRZ character")


def check_digit(field: str) -> str:
    return str(sum(char_value(ch) * _WEIGHTS[i % 3] for i, ch in enumerate(field)) % 10)


@dataclass(frozen=True)
class CheckFailure:
    field: str  # document_number | birth_date | expiry_date | personal_number | composite
    expected: str
    found: str


@dataclass(frozen=True)
class Td3:
    document_type: str
    issuing_state: str
    surname: str
    given_names: str
    document_number: str
    nationality: str
    birth_date: str  # YYMMDD as printed
    sex: str  # M, F or <
    expiry_date: str  # YYMMDD
    personal_number: str
    failures: tuple[CheckFailure, ...]

    @property
    def valid(self) -> bool:
        return not self.failures


class MrzFormatError(ValueError):
    """The text is not a TD3 zone at all (before any check digit is read)."""


def _check(name: str, field: str, digit: str, failures: list[CheckFailure]) -> None:
    expected = check_digit(field)
    if digit != expected:
        failures.append(CheckFailure(name, expected, digit))


def parse_td3(line1: str, line2: str) -> Td3:
    """Read a TD3 zone and verify its four check digits (and the optional personal number's).

    Raises `MrzFormatError` when the lines are not two lines of 44 MRZ characters; check-digit
    failures are reported in ``failures``, not raised, so a caller can name every one."""
    lines = [line.strip().upper() for line in (line1, line2)]
    for number, line in enumerate(lines, start=1):
        if len(line) != LINE_LENGTH:
            raise MrzFormatError(f"line {number} has {len(line)} characters, not {LINE_LENGTH}")
        if not _CHARSET.fullmatch(line):
            raise MrzFormatError(f"line {number} may hold only A-Z, 0-9 and <")
    first, second = lines
    if first[0] != "P":
        raise MrzFormatError("a passport (TD3) zone starts with P")
    failures: list[CheckFailure] = []
    _check("document_number", second[0:9], second[9], failures)
    _check("birth_date", second[13:19], second[19], failures)
    _check("expiry_date", second[21:27], second[27], failures)
    personal = second[28:42]
    # An empty personal number may carry < instead of 0 as its check digit (Doc 9303 part 4).
    if not (personal.strip("<") == "" and second[42] == "<"):
        _check("personal_number", personal, second[42], failures)
    composite = second[0:10] + second[13:20] + second[21:43]
    _check("composite", composite, second[43], failures)
    surname, _, given = first[5:].partition("<<")
    return Td3(
        document_type=first[0:2].rstrip("<"),
        issuing_state=first[2:5].rstrip("<"),
        surname=surname.replace("<", " ").strip(),
        given_names=given.replace("<", " ").strip(),
        document_number=second[0:9].rstrip("<"),
        nationality=second[10:13].rstrip("<"),
        birth_date=second[13:19],
        sex=second[20],
        expiry_date=second[21:27],
        personal_number=personal.rstrip("<"),
        failures=tuple(failures),
    )
