"""The three machine-readable zone layouts of ICAO Doc 9303 (parts 4-6), from text or from an
OCR reading that can say which character is likeliest among those a position allows.

- TD1 (identity cards): three lines of 30 characters;
- TD2 (official travel documents, some identity cards): two lines of 36;
- TD3 (passports): two lines of 44;
- MRV-A and MRV-B (visas, part 7): two lines of 44 or 36, document code ``V``: the TD3/TD2
  fields without the personal number's check digit and without a composite check digit; the
  second line ends in optional data (16 or 8 characters).

Check digits: :func:`hakiki.engines.mrz.td3.check_digit` (weights 7-3-1). A reading is forced
to what each position allows (digits where a date or a check digit is, letters where a name
or a country is). A field guarded by a check digit (document number, dates, personal number) is
then settled by its check digit, never guessed (issue 32):

- the readings tried are those of the *confident* characters at each position (the reader says
  which: glyphs scoring within a margin of the best); exactly one that holds is taken;
- more than one that holds, or none of them and some of the usual OCR-B confusions (0/O, 1/I,
  2/Z, 5/S, 8/B, 6/G) that do: the field is *unsure*, its candidates reported, never passed.
  Two swaps of O and 0 can leave a check digit unchanged (7 x 24 + 3 x 24 = 240), so "the first
  swap that passes" is often a wrong number that passes its check digit;
- none at all: the check digit fails.
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
_MAX_RETRIES = 6  # confusable characters tried in a field (2**6 combinations)
_MAX_AMBIGUOUS = 8  # positions whose confident readings are combined (the least sure first)
_MAX_CHOICES = 3  # confident readings of one position combined
_MAX_COMBINATIONS = 2048  # readings of one field tried, at most
# G (16) and 6 weigh the same modulo 10 at every weight: no check digit tells them apart. Where
# a field allows both, a glyph matched less surely than this keeps its twin as a candidate: a
# zone set in Courier read a 6 as G at 0.75; on the real scans of bench/documents_real.py the
# 6s of guarded fields scored 0.796 and more, but for a 275-px scan (0.73, 0.76) and a visa.
_INVISIBLE_TWINS = {"G": "6", "6": "G"}
_SURE_GLYPH = 0.78


class MrzError(ValueError):
    """The lines are not a machine-readable zone of any layout."""


class LineReading(Protocol):
    @property
    def text(self) -> str: ...

    def best(self, position: int, allowed: str) -> str: ...

    def candidates(self, position: int, allowed: str) -> list[tuple[str, float]]:
        """The characters the reading is confident of at ``position`` among ``allowed``, best
        first, each with its score (higher is likelier)."""
        ...


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

    def candidates(self, position: int, allowed: str) -> list[tuple[str, float]]:
        return [(self.best(position, allowed), 1.0)]


@dataclass(frozen=True)
class Unsure:
    """A field whose check digit does not single out one reading: the values it could be,
    the likeliest first (the one the zone reports)."""

    field: str  # document_number | birth_date | expiry_date | personal_number
    candidates: tuple[str, ...]
    # What was read, when no confident reading held and the candidates are the usual OCR-B
    # confusions of it: kept only if the composite check digit agrees with one of them.
    misread: str | None = None


@dataclass(frozen=True)
class Zone:
    layout: str  # TD1, TD2, TD3, MRV-A or MRV-B
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
    unsure: tuple[Unsure, ...] = ()

    @property
    def valid(self) -> bool:
        """Every check digit holds (on the likeliest reading of an unsure field)."""
        return not self.failures

    @property
    def sure(self) -> bool:
        """Every check digit holds and no field could be read another way."""
        return not self.failures and not self.unsure


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
for _visa, _length in (("MRV-A", 44), ("MRV-B", 36)):
    _SPEC[_visa] = {
        **{k: v for k, v in _SPEC["TD3"].items() if k in ("code", "state", "number",
           "number_check", "nationality", "birth", "birth_check", "sex", "expiry",
           "expiry_check")},
        "name": (0, 5, _length, ALPHA), "optional2": (1, 28, _length, ANY),
    }  # fmt: skip
_LAYOUT_OF = {(3, 30): "TD1", (2, 36): "TD2", (2, 44): "TD3"}
_VISA_OF = {"TD3": "MRV-A", "TD2": "MRV-B"}
_FIELD_OF = {"document_number": "number", "birth_date": "birth", "expiry_date": "expiry",
             "personal_number": "optional2"}  # fmt: skip


def _composite(layout: str, lines: list[str]) -> str:
    if layout == "TD1":
        return lines[0][5:30] + lines[1][0:7] + lines[1][8:15] + lines[1][18:29]
    second = lines[1]
    end = 43 if layout == "TD3" else 35
    return second[0:10] + second[13:20] + second[21:end]


def _combinations(choices: list[list[tuple[str, float]]], limit: int) -> list[tuple[str, float]]:
    """Every string made of one choice per position, with its summed score. Only the positions
    with the closest second choice vary (at most ``limit``, with their ``_MAX_CHOICES`` best,
    and ``_MAX_COMBINATIONS`` strings in all: a noisy photo must not make this explode); the
    others keep their best."""
    closeness = sorted(
        (i for i, options in enumerate(choices) if len(options) > 1),
        key=lambda i: choices[i][0][1] - choices[i][1][1],
    )
    pools = [options[:1] for options in choices]
    count = 1
    for i in closeness[:limit]:
        options = choices[i][:_MAX_CHOICES]
        if count * len(options) > _MAX_COMBINATIONS:
            break
        pools[i], count = options, count * len(options)
    return [
        ("".join(ch for ch, _ in picked), sum(score for _, score in picked))
        for picked in itertools.product(*pools)
    ]


def _settle(
    name: str, choices: list[list[tuple[str, float]]], allowed: str, check: str
) -> tuple[str, Unsure | None]:
    """The value of a field guarded by ``check``: the one confident reading that holds; else
    unsure among those that hold (confident ones, or failing that the usual confusions); else
    the likeliest reading, whose check digit then fails."""
    likeliest = "".join(options[0][0] for options in choices)
    holding = sorted(
        (c for c in _combinations(choices, _MAX_AMBIGUOUS) if check_digit(c[0]) == check),
        key=lambda c: -c[1],
    )
    if len(holding) == 1:
        return holding[0][0], None
    values = [value for value, _ in holding]
    if not values:
        twins = [_CONFUSIONS.get(ch, "") for ch in likeliest]
        confusable = [
            [(ch, 0.0)] + ([(twin, -1.0)] if twin and twin in allowed else [])
            for ch, twin in zip(likeliest, twins, strict=True)
        ]
        values = [
            value
            for value, _ in sorted(_combinations(confusable, _MAX_RETRIES), key=lambda c: -c[1])
            if check_digit(value) == check
        ]
    if not values:
        return likeliest, None
    return values[0], Unsure(name, tuple(values), None if holding else likeliest)


def _with_twin(options: list[tuple[str, float]], allowed: str) -> list[tuple[str, float]]:
    best, score = options[0]
    twin = _INVISIBLE_TWINS.get(best)
    if twin is None or twin not in allowed or score >= _SURE_GLYPH:
        return options
    if any(ch == twin for ch, _ in options):
        return options
    return [*options, (twin, score - 0.01)]


def _replaced(lines: list[str], where: tuple[int, int, int], value: str) -> list[str]:
    line, start, end = where
    changed = list(lines)
    changed[line] = changed[line][:start] + value + changed[line][end:]
    return changed


def parse_zone(readings: Sequence[LineReading]) -> Zone:
    """Parse a zone of any layout; check-digit failures are reported, not raised."""
    shape = (len(readings), len(readings[0].text) if readings else 0)
    layout = _LAYOUT_OF.get(shape)
    if layout is None or any(len(r.text) != shape[1] for r in readings):
        raise MrzError("not 3 lines of 30, 2 of 36 or 2 of 44 characters")
    if layout in _VISA_OF and readings[0].best(0, ALPHA) == "V":
        layout = _VISA_OF[layout]
    spec = _SPEC[layout]
    chars = [list(r.text) for r in readings]
    for line, start, end, allowed in spec.values():
        for position in range(start, end):
            chars[line][position] = readings[line].best(position, allowed)
    lines = ["".join(c) for c in chars]
    code = lines[0][0:2]
    allowed_codes = "V" if layout.startswith("MRV") else "P" if layout == "TD3" else "PIAC"
    if code[0] not in allowed_codes:
        raise MrzError(f"{layout} zone with document code {code!r}")

    def field(name: str) -> str:
        line, start, end, _ = spec[name]
        return lines[line][start:end]

    def choices(name: str) -> list[list[tuple[str, float]]]:
        line, start, end, allowed = spec[name]
        return [
            _with_twin(readings[line].candidates(p, allowed), allowed) for p in range(start, end)
        ]

    def settle(name: str, reported: str, check: str) -> None:
        line, start, end, allowed = spec[name]
        value, unsure = _settle(reported, choices(name), allowed, field(check))
        lines[:] = _replaced(lines, (line, start, end), value)
        if unsure is not None:
            doubts.append(unsure)

    doubts: list[Unsure] = []
    if not (layout == "TD1" and field("number_check") == "<"):
        settle("number", "document_number", "number_check")
    settle("birth", "birth_date", "birth_check")
    settle("expiry", "expiry_date", "expiry_check")
    if "optional2_check" in spec and field("optional2_check") != "<":
        settle("optional2", "personal_number", "optional2_check")
    for doubt in list(doubts) if "composite" in spec else ():
        # The composite check digit covers every guarded field: it may single out a candidate.
        where = spec[_FIELD_OF[doubt.field]][:3]
        fitting = [
            value
            for value in doubt.candidates
            if check_digit(_composite(layout, _replaced(lines, where, value))) == field("composite")
        ]
        if len(fitting) == 1 and doubt.misread is None:
            lines[:] = _replaced(lines, where, fitting[0])
            doubts.remove(doubt)
        elif not fitting and doubt.misread is not None:
            # A check digit the confusions explain but the composite does not: as printed.
            lines[:] = _replaced(lines, where, doubt.misread)
            doubts.remove(doubt)
    number = field("number")
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
    if "composite" in spec:
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
        unsure=tuple(doubts),
    )


def parse_text(lines: Sequence[str]) -> Zone:
    return parse_zone([TextLine(line.strip().upper()) for line in lines])


def _check(name: str, field: str, digit: str, failures: list[CheckFailure]) -> None:
    expected = check_digit(field)
    if digit != expected:
        failures.append(CheckFailure(name, expected, digit))
