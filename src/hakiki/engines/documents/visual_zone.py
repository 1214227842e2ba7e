"""The printed page against the machine-readable zone: the document number, surname, given
names, dates of birth and expiry and sex printed in the visual zone, each compared with the
zone's.

A field *matches* when the zone's value is printed anywhere on the page (outside the zone): the
number with or without spaces, a name whatever its accents, case, spaces and hyphens (or
starting with the zone's when the zone cut it short), a date in any of the forms documents
print. It *differs* only when the value its label points at was read surely (the recogniser's
confidence at least ``SURE``), is something else, and the zone's value is printed nowhere; a
reading one confusable character away (``4`` for ``A``), a name in mixed case (labels are,
values rarely), or the zone's other date under the label are OCR doubts: *not found*.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from hakiki.engines.documents.printed_fields import (
    Printed,
    dates_in,
    fold,
    labelled_values,
    rows_joined,
)
from hakiki.engines.documents.text_ocr import TextLine
from hakiki.engines.mrz.zones import Zone

Outcome = Literal["match", "mismatch", "not_found"]
FIELDS = ("document_number", "surname", "given_names", "birth_date", "expiry_date", "sex")
# Passed needs these three printed as the zone has them.
KEY_FIELDS = ("document_number", "surname", "birth_date")
SURE = 0.9  # the recogniser's confidence a differing value needs to count as read
# ... and a date one digit away: genuine scans have such slips read at 0.91-0.93 ("1950").
SURE_SLIP = 0.97
_NUMBER_FOLD = str.maketrans("OQIZSBG", "0012586")
_NAME_FOLD = str.maketrans("0158", "OISB")
_MAX_WORDS = 6
_GLUED_LABEL = r"(?:SURNAME|NAME|NOM|GIVENNAMES?|PRENOMS?)"


@dataclass(frozen=True)
class Comparison:
    outcomes: dict[str, Outcome]  # per field of FIELDS
    lines: int  # printed lines read outside the zone

    def joined(self, other: Comparison) -> Comparison:
        """Two sides of one document: a field matches when either side prints the zone's
        value, differs when one side's differs and none matches."""
        order: tuple[Outcome, ...] = ("match", "mismatch", "not_found")
        return Comparison(
            {f: min(self.outcomes[f], other.outcomes[f], key=order.index) for f in FIELDS},
            self.lines + other.lines,
        )

    def fields(self, outcome: Outcome) -> list[str]:
        return [f for f in FIELDS if self.outcomes[f] == outcome]

    @property
    def confirmed(self) -> bool:
        """The number, the surname and the birth date are printed as the zone has them, and
        nothing read differs."""
        return not self.fields("mismatch") and all(self.outcomes[f] == "match" for f in KEY_FIELDS)


def is_zone_line(text: str, zone: Zone) -> bool:
    """A line of the zone itself: fillers, or a long run of capitals and digits like one of its
    lines (read with its fillers lost); a printed name, without digits, is not one."""
    compact = re.sub(r"\s", "", text.upper())
    if "<" in compact and len(compact) >= 8:
        return True
    return (
        len(compact) >= 25
        and sum(c.isdigit() for c in compact) >= 6
        and any(difflib.SequenceMatcher(None, compact, line).ratio() >= 0.6 for line in zone.lines)
    )


def compare(text: Sequence[TextLine], zone: Zone) -> Comparison:
    """Each field of the zone against the printed lines of the document (any side, any order;
    the zone's own lines are left out)."""
    lines = [Printed.of(line) for line in text if not is_zone_line(line.text, zone)]
    truncated = not zone.lines[-1 if zone.layout == "TD1" else 0].endswith("<")
    names = {"surname": zone.surname, "given_names": zone.given_names}
    outcomes: dict[str, Outcome] = {
        "document_number": _number(lines, zone.document_number),
        "birth_date": _date(lines, "birth_date", zone.birth_date, zone.expiry_date),
        "expiry_date": _date(lines, "expiry_date", zone.expiry_date, zone.birth_date),
        "sex": _sex(lines, zone.sex),
    }
    for field, value in names.items():
        cut = truncated and (field == "given_names" or not zone.given_names)
        other = names["given_names" if field == "surname" else "surname"]
        outcomes[field] = _name(lines, field, value, other, cut)
    return Comparison({f: outcomes[f] for f in FIELDS}, len(lines))


def _folded_number(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper()).translate(_NUMBER_FOLD)


def _number_value(line: Printed) -> str | None:
    compact = re.sub(r"\s", "", line.text)
    if re.fullmatch(r"[A-Z0-9]{5,14}", compact) and sum(c.isdigit() for c in compact) >= 2:
        return compact
    return None


def _one_apart(a: str, b: str) -> bool:
    """Equal but for one character changed, added or dropped: an OCR slip, not a reading."""
    if abs(len(a) - len(b)) > 1:
        return False
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return (
        sum(
            max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
        )
        <= 1
    )


def _number(lines: Sequence[Printed], number: str) -> Outcome:
    target = _folded_number(number)
    if not target:
        return "not_found"
    for line in lines:
        tokens = re.findall(r"[A-Z0-9]+", line.text)
        for start in range(len(tokens)):
            joined = ""
            for token in tokens[start : start + 5]:
                joined += token
                if _folded_number(joined) == target:
                    return "match"
    return _differs(
        [
            _folded_number(value) not in ("", target)
            and not _one_apart(_folded_number(value), target)
            for value, line in labelled_values(lines, "document_number", _number_value)
            if line.confidence >= SURE
        ]
    )


def _differs(verdicts: list[bool]) -> Outcome:
    """Mismatch when every sure labelled value differs (two labels that disagree: a doubt)."""
    return "mismatch" if verdicts and all(verdicts) else "not_found"


def _date(lines: Sequence[Printed], field: str, yymmdd: str, other: str) -> Outcome:
    printed = [*lines, *rows_joined(lines)]
    if any(yymmdd in d.readings for line in printed for d in dates_in(line.text)):
        return "match"

    def value(line: Printed) -> frozenset[str] | None:
        strict = [d for d in dates_in(line.text) if d.strict]
        return strict[0].readings if len(strict) == 1 else None

    def differs(readings: frozenset[str], line: Printed) -> bool:
        if yymmdd in readings or other in readings:
            return False  # the zone's other date: the label's value was taken from elsewhere
        slip = any(sum(a != b for a, b in zip(r, yymmdd, strict=True)) == 1 for r in readings)
        return line.confidence >= (SURE_SLIP if slip else SURE)

    return _differs(
        [
            differs(readings, line)
            for readings, line in labelled_values(lines, field, value, inline=True)
            if line.confidence >= SURE
        ]
    )


def _words(text: str, icao: bool = False) -> list[str]:
    return re.findall(r"[A-Z]+", fold(text, icao).translate(_NAME_FOLD))


def _readings(text: str) -> list[list[str]]:
    """The words of a line, accents dropped or spelled out (Ä as A or AE), and without a label
    the OCR ran into the first word ("NAMECRITTENDEN, LEE W.")."""
    found = [_words(text, icao) for icao in (False, True)]
    for words in list(found):
        glued = re.match(_GLUED_LABEL, words[0]) if words else None
        if glued and len(words[0]) > glued.end():
            found.append([words[0][glued.end() :], *words[1:]])
    return found


def _name(lines: Sequence[Printed], field: str, value: str, other: str, cut: bool) -> Outcome:
    target = re.sub(r"[^A-Z]", "", value)
    if not target:
        return "not_found"
    for line in lines:
        for words in _readings(line.raw):
            for start in range(len(words)):
                joined = ""
                for word in words[start : start + _MAX_WORDS]:
                    joined += word
                    if joined == target or (cut and joined.startswith(target)):
                        return "match"

    def printed_name(line: Printed) -> str | None:
        # Values are printed in capitals, labels rarely: a mixed-case line may be a label.
        if not re.fullmatch(r"[^\W\d_][^\W\d_ ,.'\-]*(?:[ ,.'\-]+[^\W\d_]+)*\.?", line.raw.strip()):
            return None
        if not line.raw.isupper():
            return None
        letters = "".join(_words(line.raw))
        return letters if len(letters) >= 2 else None

    others = {re.sub(r"[^A-Z]", "", other)}
    return _differs(
        [
            read != target
            and read not in others
            and not (cut and read.startswith(target))
            and not _one_apart(read, target)
            for read, line in labelled_values(lines, field, printed_name)
            if line.confidence >= SURE
        ]
    )


def _sex(lines: Sequence[Printed], sex: str) -> Outcome:
    def value(line: Printed) -> str | None:
        found = re.fullmatch(r"(?:[A-Z]{1,3}\s*/\s*)?([MFX])", line.text.strip())
        return found[1] if found else None

    read = [(v, line) for v, line in labelled_values(lines, "sex", value)]
    if any(v == sex for v, _ in read):
        return "match"
    return _differs([v != sex for v, line in read if line.confidence >= SURE])
