"""The three machine-readable zone layouts of ICAO Doc 9303 (parts 4-6), from text or from an
OCR reading that can say which character is likeliest among those a position allows.

- TD1 (identity cards): three lines of 30 characters;
- TD2 (official travel documents, some identity cards): two lines of 36;
- TD3 (passports): two lines of 44.

Check digits: :func:`hakiki.engines.mrz.td3.check_digit` (weights 7-3-1). A reading is forced
to what each position allows (digits where a date or a check digit is, letters where a name
or a country is), and a document number whose check digit fails is retried with the usual
OCR-B confusions (0/O, 1/I, 2/Z, 5/S, 8/B, 6/G) before it is reported as failing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from hakiki.engines.mrz.td3 import CheckFailure, check_digit

DIGIT = "0123456789"
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
ANY = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"
DIGIT_OR_FILLER = DIGIT + "<"
_CONFUSIONS = {"0": "O", "O": "0", "1": "I", "I": "1", "2": "Z", "Z": "2", "5": "S", "S": "5",
               "8": "B", "B": "8", "6": "G", "G": "6"}  # fmt: skip
_MAX_RETRIES = 5  # confusable characters tried in a document number (2**5 combinations)


class MrzError(ValueError):
    """The lines are not a machine-readable zone of any layout."""


class LineReading(Protocol):
    @property
    def text(self) -> str: ...

    def best(self, position: int, allowed: str) -> str: ...


@dataclass(frozen=True)
class TextLine:
    """A line typed or already read: the character at a position is what it is."""

    text: str

    def best(self, position: int, allowed: str) -> str:
        ch = self.text[position]
        if ch in allowed:
            return ch
        swapped = _CONFUSIONS.get(ch)
        return swapped if swapped is not None and swapped in allowed else ch


@dataclass(frozen=True)
class Zone:
    layout: str  # TD1, TD2 or TD3
    lines: tuple[str, ...]
    document_code: str  # P, I, ID, AC, ...
    issuing_state: str
    document_number: str
    surname: str
    given_names: str
    nationality: str
    birth_date: str  # YYMMDD as printed
    sex: str  # M, F or X (< in the zone)
    expiry_date: str  # YYMMDD
    optional_data: str
    failures: tuple[CheckFailure, ...]

    @property
    def valid(self) -> bool:
        return not self.failures


# (line, start, end, allowed) per field of each layout; check digits are one DIGIT position.
_SPEC: dict[str, dict[str, tuple[int, int, int, str]]] = {
    "TD1": {
        "code": (0, 0, 2, ALPHA), "state": (0, 2, 5, ALPHA), "number": (0, 5, 14, ANY),
        "number_check": (0, 14, 15, DIGIT_OR_FILLER), "optional1": (0, 15, 30, ANY),
        "birth": (1, 0, 6, DIGIT), "birth_check": (1, 6, 7, DIGIT), "sex": (1, 7, 8, "MFX<"),
        "expiry": (1, 8, 14, DIGIT), "expiry_check": (1, 14, 15, DIGIT),
        "nationality": (1, 15, 18, ALPHA), "optional2": (1, 18, 29, ANY),
        "composite": (1, 29, 30, DIGIT), "name": (2, 0, 30, ALPHA),
    },
    "TD2": {
        "code": (0, 0, 2, ALPHA), "state": (0, 2, 5, ALPHA), "name": (0, 5, 36, ALPHA),
        "number": (1, 0, 9, ANY), "number_check": (1, 9, 10, DIGIT),
        "nationality": (1, 10, 13, ALPHA), "birth": (1, 13, 19, DIGIT),
        "birth_check": (1, 19, 20, DIGIT), "sex": (1, 20, 21, "MFX<"),
        "expiry": (1, 21, 27, DIGIT), "expiry_check": (1, 27, 28, DIGIT),
        "optional2": (1, 28, 35, ANY), "composite": (1, 35, 36, DIGIT),
    },
    "TD3": {
        "code": (0, 0, 2, ALPHA), "state": (0, 2, 5, ALPHA), "name": (0, 5, 44, ALPHA),
        "number": (1, 0, 9, ANY), "number_check": (1, 9, 10, DIGIT),
        "nationality": (1, 10, 13, ALPHA), "birth": (1, 13, 19, DIGIT),
        "birth_check": (1, 19, 20, DIGIT), "sex": (1, 20, 21, "MFX<"),
        "expiry": (1, 21, 27, DIGIT), "expiry_check": (1, 27, 28, DIGIT),
        "optional2": (1, 28, 42, ANY), "optional2_check": (1, 42, 43, DIGIT_OR_FILLER),
        "composite": (1, 43, 44, DIGIT),
    },
}  # fmt: skip
_LAYOUT_OF = {(3, 30): "TD1", (2, 36): "TD2", (2, 44): "TD3"}


def _composite(layout: str, lines: list[str]) -> str:
    if layout == "TD1":
        return lines[0][5:30] + lines[1][0:7] + lines[1][8:15] + lines[1][18:29]
    second = lines[1]
    end = 43 if layout == "TD3" else 35
    return second[0:10] + second[13:20] + second[21:end]


def _fix_number(number: str, check: str) -> str:
    """The document number with confusable characters swapped until its check digit holds
    (unchanged when no combination does)."""
    if check_digit(number) == check:
        return number
    spots = [i for i, ch in enumerate(number) if ch in _CONFUSIONS][:_MAX_RETRIES]
    for count in range(1, len(spots) + 1):
        for chosen in itertools.combinations(spots, count):
            chars = list(number)
            for i in chosen:
                chars[i] = _CONFUSIONS[chars[i]]
            candidate = "".join(chars)
            if check_digit(candidate) == check:
                return candidate
    return number


def parse_zone(readings: Sequence[LineReading]) -> Zone:
    """Parse a zone of any layout; check-digit failures are reported, not raised."""
    shape = (len(readings), len(readings[0].text) if readings else 0)
    layout = _LAYOUT_OF.get(shape)
    if layout is None or any(len(r.text) != shape[1] for r in readings):
        raise MrzError("not 3 lines of 30, 2 of 36 or 2 of 44 characters")
    spec = _SPEC[layout]
    chars = [list(r.text) for r in readings]
    for line, start, end, allowed in spec.values():
        for position in range(start, end):
            chars[line][position] = readings[line].best(position, allowed)
    lines = ["".join(c) for c in chars]
    code = lines[0][0:2]
    if code[0] not in "PIAC" or (layout == "TD3" and code[0] != "P"):
        raise MrzError(f"{layout} zone with document code {code!r}")

    def field(name: str) -> str:
        line, start, end, _ = spec[name]
        return lines[line][start:end]

    number_line, number_start, number_end, _ = spec["number"]
    number = _fix_number(field("number"), field("number_check"))
    row = lines[number_line]
    lines[number_line] = row[:number_start] + number + row[number_end:]
    failures: list[CheckFailure] = []
    optional1 = field("optional1") if "optional1" in spec else ""
    number_check = field("number_check")
    if layout == "TD1" and number_check == "<":
        # A number longer than 9: it goes on in optional data 1, its check digit last there.
        tail = optional1.rstrip("<")
        full, number_check = number + tail[:-1], tail[-1:] or "<"
        _check("document_number", full, number_check, failures)
        number, optional1 = full, optional1[len(tail) :]
    else:
        _check("document_number", number, number_check, failures)
    _check("birth_date", field("birth"), field("birth_check"), failures)
    _check("expiry_date", field("expiry"), field("expiry_check"), failures)
    if "optional2_check" in spec:
        personal = field("optional2")
        if not (personal.strip("<") == "" and field("optional2_check") == "<"):
            _check("personal_number", personal, field("optional2_check"), failures)
    _check("composite", _composite(layout, lines), field("composite"), failures)
    surname, _, given = field("name").partition("<<")
    optional = (optional1 + field("optional2")).strip("<")
    sex = field("sex")
    return Zone(
        layout=layout,
        lines=tuple(lines),
        document_code=code.rstrip("<"),
        issuing_state=field("state").rstrip("<"),
        document_number=number.rstrip("<"),
        surname=surname.replace("<", " ").strip(),
        given_names=" ".join(given.replace("<", " ").split()),
        nationality=field("nationality").rstrip("<"),
        birth_date=field("birth"),
        sex="X" if sex == "<" else sex,
        expiry_date=field("expiry"),
        optional_data=optional.replace("<", " ").strip(),
        failures=tuple(failures),
    )


def parse_text(lines: Sequence[str]) -> Zone:
    return parse_zone([TextLine(line.strip().upper()) for line in lines])


def _check(name: str, field: str, digit: str, failures: list[CheckFailure]) -> None:
    expected = check_digit(field)
    if digit != expected:
        failures.append(CheckFailure(name, expected, digit))
