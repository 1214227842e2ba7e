"""The printed fields of a document's visual zone, from the lines of text PP-OCR read: the
dates in the forms documents print them, the lines that label a field in the languages
documents use, and the value each label points at (on its right, or under it).

Labels are matched on the line's letters alone, lower case and run together, since the OCR
often drops the spaces ("Dateofbirth/Datedenaissance"); numbered labels ("4. Date of birth")
are found the same way.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from hakiki.engines.documents.text_ocr import TextLine

# Letters NFKD does not take apart, as ICAO 9303 writes them in the zone.
T = TypeVar("T")
_SPECIAL = {"ß": "SS", "Æ": "AE", "Ø": "OE", "Þ": "TH", "Ð": "D", "Ł": "L", "Œ": "OE", "Ħ": "H"}
# The zone writes Ä, Ö, Ü, Å as AE, OE, UE, AA (or drops the accent): both are tried.
_ICAO = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "Å": "AA"}

MONTHS: dict[str, int] = {}
for _number, _names in enumerate(
    (
        "JAN JANUARY JANV JANVIER JANUAR ENE ENERO GEN GENNAIO STY JAAN",
        "FEB FEBRUARY FEV FEVR FEVRIER FEBRUAR FEBRERO FEBBRAIO LUT FEVEREIRO",
        "MAR MARCH MARS MARZ MAERZ MARZO MRT MARCO",
        "APR APRIL AVR AVRIL ABR ABRIL APRILE KWI",
        "MAY MAI MAYO MAGGIO MEI MAJ MAIO",
        "JUN JUNE JUIN JUNI JUNIO GIU GIUGNO CZE JUNHO",
        "JUL JULY JUIL JUILLET JULI JULIO LUG LUGLIO LIP JULHO",
        "AUG AUGUST AOUT AGO AGOSTO SIE AGU",
        "SEP SEPT SEPTEMBER SEPTEMBRE SEPTIEMBRE SET SETTEMBRE WRZ SZEP SETEMBRO",
        "OCT OCTOBER OCTOBRE OKT OKTOBER OCTUBRE OTT OTTOBRE PAZ OUT OUTUBRO",
        "NOV NOVEMBER NOVEMBRE NOVIEMBRE LIS NOVEMBRO",
        "DEC DECEMBER DECEMBRE DEZ DEZEMBER DICIEMBRE DIC DICEMBRE GRU DES DEZEMBRO",
    ),
    start=1,
):
    for _name in _names.split():
        MONTHS[_name] = _number
_MONTH_NAMES = sorted(MONTHS, key=len, reverse=True)

# Keywords in a label's letters, lower case, run together; a label line names one field.
LABELS: dict[str, tuple[str, ...]] = {
    "surname": ("surname", "sumame", "surnam", "lastname", "familyname", "nachname",
                "familienname", "apellido", "cognome", "achternaam", "nazwisko", "prijmeni",
                "primaryidentifier", "priimek", "pavarde", "uzvards", "sukunimi", "efternamn",
                "etternavn", "prezime", "vezeteknev"),
    "given_names": ("givenname", "forename", "firstname", "vorname", "prenom", "nombre",
                    "secondaryidentifier", "imiona", "jmeno", "voornamen", "etunimi",
                    "fornavn", "fornamn", "vardas", "utonev", "prenume"),
    "birth_date": ("dateofbirth", "birthdate", "datedenaissance", "geburtstag", "geburtsdatum",
                   "fechadenacimiento", "datadinascita", "geboortedatum", "dataurodzenia",
                   "datumnarozeni", "datumrodenja", "syntymaaika", "fodelsedatum",
                   "fodselsdato", "datadenascimento"),
    "expiry_date": ("dateofexpiry", "expiry", "expiration", "expires", "validuntil",
                    "validthru", "validejusqu", "gultigbis", "caducidad", "validade",
                    "waznosci", "scadenza", "geldigtot", "platnostdo", "voimassa"),
    "document_number": ("passportno", "passportnumber", "documentno", "documentnumber",
                        "docno", "cardno", "cardnumber", "passnr", "dokumentnummer",
                        "numerodedocument", "numerodepasseport", "nodepasseport",
                        "nodupasseport", "pasaporteno", "numeropasaporte", "paszportu",
                        "cislopasu", "numberofpassport"),
    "sex": ("sex", "sexe", "geschlecht", "sexo", "sesso", "plec", "pohlavi", "geslacht"),
}  # fmt: skip
# Whole words that name the surname only on a line naming no other field ("Name/Nom", not
# "Given name/Prenom").
WEAK_LABELS: dict[str, tuple[str, ...]] = {"surname": ("name", "nom", "nume", "naam")}
# A line naming these is not the field's label even when it holds a keyword: the place of
# birth, a personal number.
NOT_LABELS: dict[str, tuple[str, ...]] = {
    "birth_date": ("place", "lieu", "geburtsort", "lugar", "luogo", "miejsce", "plaats",
                   "misto", "mjesto", "syntymapaikka", "fodelseort"),
    "document_number": ("personal", "personnel", "persoonsnummer"),
    "given_names": ("entree", "entries", "entrada"),  # "Nombre d'entrées" on visas
    "sex": ("sexto",),
}  # fmt: skip
# Labels of fields not compared, so that a value is not taken from under them.
OTHER_LABELS = ("issue", "delivrance", "ausstellung", "expedicion", "wydania", "afgifte",
                "rilascio", "nationality", "nationalite", "staatsangehorigkeit", "authority",
                "autorite", "behorde", "signature", "unterschrift", "placeofbirth", "height",
                "taille")  # fmt: skip


def fold(text: str, icao: bool = False) -> str:
    """Upper case without accents: the zone's alphabet (Å to A, or to AA with ``icao``)."""
    out = []
    for char in text.upper():
        if char in _SPECIAL:
            out.append(_SPECIAL[char])
        elif icao and char in _ICAO:
            out.append(_ICAO[char])
        else:
            out.append("".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii()))
    return "".join(out)


def squashed(text: str) -> str:
    """A label's letters, lower case, run together."""
    return re.sub(r"[^a-z]", "", fold(text).lower())


@dataclass(frozen=True)
class Printed:
    """One line of printed text, upper case and accents folded, with its box."""

    text: str
    raw: str  # as read
    confidence: float
    left: float
    top: float
    right: float
    bottom: float

    @property
    def height(self) -> float:
        return max(self.bottom - self.top, 1.0)

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2

    @classmethod
    def of(cls, line: TextLine) -> Printed:
        xs = [x for x, _ in line.corners] or [0.0]
        ys = [y for _, y in line.corners] or [0.0]
        return cls(fold(line.text), line.text, line.confidence, min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True)
class PrintedDate:
    readings: frozenset[str]  # YYMMDD, as the zone writes it; two when 10/04/49 reads either way
    strict: bool  # day, month and year apart (not a run of digits that may be any number)


def _yymmdd(day: int, month: int, year: str) -> str | None:
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return None
    return f"{year[-2:]}{month:02d}{day:02d}"


def month_of(letters: str) -> int | None:
    """The month that every name in "AUG/AOUT", "AOUTAUG", "MAR" names, or None."""
    found: set[int] = set()
    for chunk in re.findall(r"[A-Z]+", letters):
        while chunk:
            name = next((n for n in _MONTH_NAMES if chunk.startswith(n)), None)
            if name is None:
                return None
            found.add(MONTHS[name])
            chunk = chunk[len(name) :]
    return found.pop() if len(found) == 1 else None


# Separators may differ (1960-02.08 was printed so), but spaces only separate with spaces.
_NUMERIC = re.compile(
    r"(?<![0-9])(\d{1,2})(?:\s*([./\-])\s*|(\s+))(\d{1,2})(?:\s*([./\-])\s*|\3)(\d{4}|\d{2})(?![0-9])"
)
_YEAR_FIRST = re.compile(r"(?<![0-9])(\d{4})\s*[./\-]\s*(\d{1,2})\s*[./\-]\s*(\d{1,2})(?![0-9])")
_NAMED = re.compile(
    r"(?<![0-9A-Z])(\d{1,2})\s*\.?\s*([A-Z]+(?:(?:\s*[/.\-]\s*|\s+)[A-Z]+)*)\s*[.,]?\s*"
    r"(\d{4}|\d{2})(?![0-9])"
)
_RUN = re.compile(r"(?<![0-9A-Z])(\d{2})\.?(\d{2})\.?((?:19|20)\d{2}|\d{2})(?![0-9A-Z])")


_O_AS_ZERO = re.compile(r"(?<=\d\d)0(?=[A-Z]{2})")  # "190KT/OCT": 19 OKT/OCT
_SLASH_AS_DIGIT = re.compile(r"(?<=[A-Z]{3})[71|](?=[A-Z]{3})")  # "01JAN7JAN85": JAN/JAN


def dates_in(text: str) -> list[PrintedDate]:
    """Every date in a line of printed text: 12.08.1974, 12 08 1974, 1974-08-12, 12/08/74 (and
    08/12/74, since slashes are written day first or month first), 12 AUG/AOUT 74, 20 JUIN/JUN
    1978, 12081974 (a run of digits: not strict)."""
    text = _SLASH_AS_DIGIT.sub("/", _O_AS_ZERO.sub("O", text))
    found: list[PrintedDate] = []
    for m in _NUMERIC.finditer(text):
        if m[3] and m[5]:
            continue  # a space, then a dot: two numbers
        first, second, year = int(m[1]), int(m[4]), m[6]
        readings = {_yymmdd(first, second, year)}
        if "/" in (m[2], m[5]):
            readings.add(_yymmdd(second, first, year))
        readings.discard(None)
        if readings:
            found.append(PrintedDate(frozenset(r for r in readings if r), True))
    for m in _YEAR_FIRST.finditer(text):
        reading = _yymmdd(int(m[3]), int(m[2]), m[1])
        if reading:
            found.append(PrintedDate(frozenset({reading}), True))
    for m in _NAMED.finditer(text):
        month = month_of(m[2])
        reading = _yymmdd(int(m[1]), month, m[3]) if month else None
        if reading:
            found.append(PrintedDate(frozenset({reading}), True))
    for m in _RUN.finditer(text):
        reading = _yymmdd(int(m[1]), int(m[2]), m[3])
        if reading and not any(reading in d.readings for d in found):
            found.append(PrintedDate(frozenset({reading}), False))
    return found


def rows_joined(lines: Sequence[Printed]) -> list[Printed]:
    """Each line run on into the next one on its right on the same row (within four line
    heights): a date the detector cut in two ("25MAY/MAY" and "24")."""
    joined = []
    for line in lines:
        right = [
            other
            for other in lines
            if abs(other.middle - line.middle) <= 0.5 * line.height
            and -line.height <= other.left - line.right <= 4 * line.height
            and other.left > line.left
        ]
        if right:
            other = min(right, key=lambda o: o.left)
            joined.append(
                Printed(
                    f"{line.text} {other.text}",
                    f"{line.raw} {other.raw}",
                    min(line.confidence, other.confidence),
                    line.left,
                    min(line.top, other.top),
                    other.right,
                    max(line.bottom, other.bottom),
                )
            )
    return joined


def label_of(line: Printed) -> str | None:
    """The field a line labels, or None (a line naming two fields, "Surname, given names",
    labels neither)."""
    letters = squashed(line.text)
    words = set(re.findall(r"[a-z]+", fold(line.text).lower()))
    named = {
        field
        for field, keywords in LABELS.items()
        if any(k in letters for k in keywords if len(k) > 3) or words & set(keywords)
    }
    named -= {f for f in named if any(k in letters for k in NOT_LABELS.get(f, ()))}
    if not named:
        named = {field for field, keywords in WEAK_LABELS.items() if words & set(keywords)}
    return named.pop() if len(named) == 1 else None


def is_label(line: Printed) -> bool:
    letters = squashed(line.text)
    return label_of(line) is not None or any(k in letters for k in OTHER_LABELS)


def labelled_values(
    lines: Sequence[Printed],
    field: str,
    value: Callable[[Printed], T | None],
    inline: bool = False,
) -> list[tuple[T, Printed]]:
    """What each label of ``field`` points at: the nearest line that ``value`` accepts, beside
    it on the right or under it (starting near its left edge, at most 1.5 label heights below),
    or after a colon on the label's own line ("Surname: ERIKSSON"; anywhere on it with
    ``inline``, for dates: "CARD EXPIRES 11/01/94")."""
    found: list[tuple[T, Printed]] = []
    for label in lines:
        if label_of(label) != field:
            continue
        own = value(label) if inline else None
        if own is None and ":" in label.raw:
            after = label.raw.partition(":")[2]
            own = value(replace(label, text=fold(after), raw=after))
        if own is not None:
            found.append((own, label))
            continue
        h = label.height
        near: list[tuple[float, T, Printed]] = []
        for line in lines:
            if line is label or is_label(line):
                continue
            beside = abs(line.middle - label.middle) <= 0.5 * h and (
                -h <= line.left - label.right <= 8 * h
            )
            below = (
                line.top >= label.middle
                and line.top - label.bottom <= 1.5 * h
                and label.left - 2 * h <= line.left <= label.left + max(3 * h, label.width / 2)
            )
            if beside or below:
                read = value(line)
                if read is not None:
                    gap = line.left - label.right if beside else line.top - label.bottom
                    near.append((max(gap, 0.0), read, line))
        if near:
            _, read, line = min(near, key=lambda n: n[0])
            found.append((read, line))
    return found
