"""Two readers of the machine-readable zone, one answer: the OCR-B glyph matcher
(:mod:`.ocrb`, found by :mod:`.zone`) and PP-OCRv4 (:mod:`.mrz_ocr`), fused per character.

At each position each reader names the characters it is confident of (the glyph matcher: those
within its margin of the best; the recogniser: its best and any it gave ``ALTERNATIVE`` or more):

- the characters both name are the position's candidates (both read ``0``: it is ``0``; the
  matcher torn between ``O`` and ``0``, the recogniser sure of ``0``: ``0``);
- none in common (each reader sure of a different character): both are candidates.

The parser then settles each field guarded by a check digit as it always does: exactly one
combination of candidates that holds is taken, more than one is ``unsure`` with the candidates
(so two readers that disagree and both pass their check digits give an unsure field, never a
pick). A field no check digit guards (names, states, nationality, sex) where the readers are
each sure of a different character is reported ``unsure`` too, with both readings.

One reader alone: its reading is used under its own confidence rules (the matcher's
``MIN_CONFIDENCE``; the recogniser's :data:`.mrz_ocr.MIN_CONFIDENCE` and its alternatives).
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, replace

import numpy as np

from hakiki.engines.documents import mrz_ocr, text_ocr
from hakiki.engines.documents.mrz_ocr import OcrLine
from hakiki.engines.documents.ocrb import ALPHABET, ReadLine
from hakiki.engines.documents.zone import Scan, ZoneReading
from hakiki.engines.mrz.codes import known_code
from hakiki.engines.mrz.zones import ALPHA, MrzError, Unsure, Zone, parse_zone

_UNGUARDED = {  # field reported: (layout: (line, start, end)) of the fields no digit checks
    "issuing_state": {"TD1": (0, 2, 5), "TD2": (0, 2, 5), "TD3": (0, 2, 5)},
    "name": {"TD1": (2, 0, 30), "TD2": (0, 5, 36), "TD3": (0, 5, 44)},
    "nationality": {"TD1": (1, 15, 18), "TD2": (1, 10, 13), "TD3": (1, 10, 13)},
    "sex": {"TD1": (1, 7, 8), "TD2": (1, 20, 21), "TD3": (1, 20, 21)},
}
_SEX = "MFX<"
DETECTION_SIZES = (960, 1280)


@dataclass(frozen=True)
class FusedLine:
    glyphs: ReadLine
    ocr: OcrLine
    # Which reader goes first where each is sure of another character: "" lets the line
    # decide (below); "glyphs" or "pp-ocr" when the zone's check digits showed one reader
    # misreading this image more than the other (:func:`_trusted`).
    trust: str = ""

    @property
    def text(self) -> str:
        return self.glyphs.text

    def _score(self, position: int, ch: str, allowed: str) -> float:
        glyph = float(self.glyphs.scores[position, ALPHABET.index(ch)])
        return glyph + self.ocr.probability(position, ch, allowed)

    def agreed(self, position: int, allowed: str) -> bool:
        """Whether the two readers have a confident character in common here (or the
        recogniser abstains)."""
        ocr = self.ocr.sure_of(position, allowed)
        return not ocr or any(ch in ocr for ch, _ in self.glyphs.candidates(position, allowed))

    def candidates(self, position: int, allowed: str) -> list[tuple[str, float]]:
        glyph = [ch for ch, _ in self.glyphs.candidates(position, allowed)]
        ocr = self.ocr.sure_of(position, allowed)
        common = [ch for ch in glyph if ch in ocr]
        if common or not ocr:
            scored = [(ch, self._score(position, ch, allowed)) for ch in common or glyph]
            return sorted(scored, key=lambda pair: -pair[1])
        # Each sure of another character: both are candidates. The recogniser's first when it
        # read the line at its length (it misreads letters less than the matcher does on small
        # or blurred images), the matcher's when the recogniser's runs of < were widened.
        ocr_first = not self.ocr.padded and self.ocr.probability(position, ocr[0], allowed) >= 0.9
        if self.trust and "<" not in (ocr[0], glyph[0]):  # two letters: the trusted first
            ocr_first = self.trust == "pp-ocr"
        order = ocr + glyph if ocr_first else glyph + ocr
        return [(ch, self._score(position, ch, allowed)) for ch in dict.fromkeys(order)]

    def best(self, position: int, allowed: str) -> str:
        return self.candidates(position, allowed)[0][0]


def _allowed(field: str, position: int) -> str:
    return _SEX if field == "sex" else ALPHA


# Below this probability of the recogniser, a character of a field no check digit guards that
# the glyph matcher is torn over too is read by neither surely, though both name it best.
UNGUARDED_SURE = 0.7


def _rival(reading: FusedLine | ReadLine, position: int, allowed: str, ch: str) -> str | None:
    """The other character a position of a field no check digit guards may hold, or None when
    ``ch`` is read surely there:

    - the recogniser sure of something (its best ``SURE`` or more) and the two readers' best
      characters differ (the matcher torn between E and F with F first, the recogniser sure of
      E: unsure; a letter one reader read in addition shifts every later one: unsure);
    - the recogniser abstaining: a letter it did not read as its best (one it did not see at
      all, a letter missing from its alignment), or the matcher torn;
    - both naming ``ch`` first, the matcher torn and the recogniser under ``UNGUARDED_SURE``.

    The matcher alone: ``ch`` is not its only confident character."""
    if isinstance(reading, ReadLine):
        found = [c for c, _ in reading.candidates(position, allowed) if c != ch]
        return found[0] if found else None
    torn = [c for c, _ in reading.glyphs.candidates(position, allowed) if c != ch]
    glyph = reading.glyphs.best(position, allowed)
    row = reading.ocr.probabilities[position]
    unknown = float(row.max() - row.min()) < 1e-6  # a character the recogniser did not read
    ocr = "" if unknown else reading.ocr.best(position, allowed)
    if reading.ocr.sure_of(position, allowed) and glyph != ocr:
        return glyph if ocr == ch else ocr
    if not reading.ocr.sure_of(position, allowed):
        if ch != "<" and ocr != ch:
            return ocr or (torn[0] if torn else "<")
        return torn[0] if torn else None
    if torn and reading.ocr.probability(position, ch, allowed) < UNGUARDED_SURE:
        return torn[0]
    return None


def _digit_read(reading: FusedLine | ReadLine, position: int) -> str | None:
    """The digit every reader of the line saw at ``position`` (the parser made it a letter:
    a code field holds only letters), or None. A ``0`` is left to the parser: OCR-B's ``0``
    and ``O`` differ by their width only, both readers take one for the other on any photo,
    and a code made of letters then is one (``UT0``: ``UTO``; one no list holds is unsure)."""
    seen = (
        [reading.glyphs.text[position], reading.ocr.text[position]]
        if isinstance(reading, FusedLine)
        else [reading.text[position]]
    )
    found = all(ch.isdigit() for ch in seen) and seen[-1] != "0"
    return seen[-1] if found else None


def _disputed(zone: Zone, fused: list[FusedLine | ReadLine]) -> list[Unsure]:
    """Fields no check digit guards (names, codes, sex) with a character not read surely (see
    :func:`_rival`): unsure, the reading and the one with the rival characters as candidates.
    A state or nationality in which the readers saw digits is unsure too, with what they saw."""
    doubts = []
    for field, where in _UNGUARDED.items():
        if zone.layout not in where:
            continue
        line, start, end = where[zone.layout]
        reading = fused[line]
        value = zone.lines[line][start:end]
        coded = field in ("issuing_state", "nationality")
        seen, rivals = list(value), list(value)
        for p in range(start, end):
            rival = _rival(reading, p, _allowed(field, p), value[p - start])
            if rival is not None and coded and known_code(value):
                # A listed code whose rival letter makes none (KEN, the matcher torn towards
                # KFN): the list of codes settles it, as a check digit would.
                other = value[: p - start] + rival + value[p - start + 1 :]
                rival = rival if known_code(other) else None
            rivals[p - start] = rival or value[p - start]
            if coded:
                seen[p - start] = _digit_read(reading, p) or value[p - start]
        if "".join(rivals) == value and "".join(seen) == value:
            continue
        readers: list[ReadLine | OcrLine] = (
            [reading.glyphs, reading.ocr] if isinstance(reading, FusedLine) else [reading]
        )
        each = ["".join(r.best(p, _allowed(field, p)) for p in range(start, end)) for r in readers]
        found = (value, *each, "".join(rivals), "".join(seen))
        doubts.append(Unsure(field, tuple(dict.fromkeys(found))))
    return doubts


_GUARDED = {  # field: (layout: (line, start, end)) of the fields a check digit guards
    "document_number": {"TD1": (0, 5, 14), "TD2": (1, 0, 9), "TD3": (1, 0, 9)},
    "birth_date": {"TD1": (1, 0, 6), "TD2": (1, 13, 19), "TD3": (1, 13, 19)},
    "expiry_date": {"TD1": (1, 8, 14), "TD2": (1, 21, 27), "TD3": (1, 21, 27)},
    "personal_number": {"TD3": (1, 28, 42)},
}
# Visas place these fields as the book and the card of their size do (MRV-A as TD3, MRV-B as
# TD2); their optional data carries no personal number.
for _where in (*_UNGUARDED.values(), *_GUARDED.values()):
    for _visa, _like in (("MRV-A", "TD3"), ("MRV-B", "TD2")):
        if _like in _where and _where is not _GUARDED["personal_number"]:
            _where[_visa] = _where[_like]


def _rivals(zone: Zone, alone: list[Zone]) -> list[Unsure]:
    """A guarded field that a reader alone read otherwise, surely (its check digit holding
    there, the field not unsure): two readings pass, so the field is unsure whatever the
    combination (or the composite) says."""
    doubts = {doubt.field: doubt for doubt in zone.unsure}
    for field, where in _GUARDED.items():
        if zone.layout not in where:
            continue
        line, start, end = where[zone.layout]
        value = zone.lines[line][start:end]
        others = [
            z.lines[line][start:end]
            for z in alone
            if z.layout == zone.layout
            and field not in {f.field for f in z.failures} | {d.field for d in z.unsure}
            and z.lines[line][start:end] != value
        ]
        if others:
            known = doubts[field].candidates if field in doubts else (value,)
            doubts[field] = Unsure(field, tuple(dict.fromkeys((*known, *others))))
    return list(doubts.values())


def fuse(glyphs: list[ReadLine], ocr: list[OcrLine | None], glyph_zone: Zone | None = None) -> Zone:
    """The zone read by both: per line, fused where the recogniser read it, the matcher's alone
    where it did not."""
    lines: list[FusedLine | ReadLine] = [
        g if o is None else FusedLine(g, o) for g, o in zip(glyphs, ocr, strict=True)
    ]
    zone = parse_zone(lines)
    trust = _trusted(zone, lines)
    if trust:
        lines = [replace(r, trust=trust) if isinstance(r, FusedLine) else r for r in lines]
        zone = parse_zone(lines)
    alone = [] if glyph_zone is None else [glyph_zone]
    if all(o is not None for o in ocr):
        with contextlib.suppress(MrzError):
            alone.append(parse_zone([o for o in ocr if o is not None]))
    doubts = _rivals(zone, alone) + _disputed(zone, lines)
    return replace(zone, unsure=tuple(doubts)) if doubts != list(zone.unsure) else zone


# Misread characters of the check-digit-guarded fields by which one reader must trail the other
# for the other to go first where nothing checks the reading (:func:`_trusted`).
TRUST_MARGIN = 2


def _trusted(zone: Zone, lines: list[FusedLine | ReadLine]) -> str:
    """The reader that read this image's checked characters better: the characters of the
    guarded fields whose check digits settled them (and those check digits) that each reader's
    own best missed. A reader that missed ``TRUST_MARGIN`` more than the other (the glyph
    matcher on a zone set in another font, the recogniser on a blurred line) goes second
    where the two disagree in a name or a code; "" when neither trails."""
    settled = {f.field for f in zone.failures} | {d.field for d in zone.unsure}
    missed = {"glyphs": 0, "pp-ocr": 0}
    for field, where in _GUARDED.items():
        if zone.layout not in where or field in settled:
            continue
        line, start, end = where[zone.layout]
        reading = lines[line]
        if not isinstance(reading, FusedLine):
            continue
        for p in range(start, end + 1):  # the check digit follows its field
            truth = zone.lines[line][p]
            missed["glyphs"] += reading.glyphs.text[p] != truth
            missed["pp-ocr"] += reading.ocr.text[p] != truth
    if missed["glyphs"] >= missed["pp-ocr"] + TRUST_MARGIN:
        return "pp-ocr"
    if missed["pp-ocr"] >= missed["glyphs"] + TRUST_MARGIN:
        return "glyphs"
    return ""


def _rank(zone: Zone, confidence: float) -> tuple[int, int, float]:
    return (len(zone.failures), len(zone.unsure), -confidence)


def _ocr_of_glyph_zone(found: Scan) -> list[OcrLine | None] | None:
    """The recogniser on the rows where the matcher found the zone (a strip of the deskewed
    image: detection there is cheap), each line brought to the layout's length."""
    reading, rows = found.reading, found.zone_rows
    if reading is None or rows is None or not reading.read:
        return None
    count, length = len(reading.lines), len(reading.lines[0])
    grey = np.asarray(found.straight)
    margin = round((rows[1] - rows[0]) / count * 0.6)
    strip = grey[max(0, rows[0] - margin) : rows[1] + margin]
    crops = mrz_ocr.zone_crops(strip, count)
    return None if crops is None else mrz_ocr.read_lines(crops, length)


def _ocr_zone(pixels: np.ndarray) -> tuple[Zone, list[OcrLine], float] | None:
    """The recogniser alone on the whole image, detecting lines on a copy of 960 pixels, then
    (no zone whose check digits hold) of 1,280: zone lines set close together merge into one
    box at the smaller size."""
    best = None
    for longest in DETECTION_SIZES:
        found = _ocr_zone_at(pixels, longest)
        if found is not None and found[0].valid:
            return found
        if found is None:
            continue
        if best is None or _rank(found[0], found[2]) < _rank(best[0], best[2]):
            best = found  # a zone whose check digits fail at one size is kept if none better
    return best


def _ocr_zone_at(pixels: np.ndarray, longest: int) -> tuple[Zone, list[OcrLine], float] | None:
    """Consecutive zone-like lines, 3 of 30 or 2 of 44 or 36: the reading with the fewest
    failures (then unsure fields, then the surest)."""
    lines = mrz_ocr.zone_like_lines(pixels, longest)
    best: tuple[Zone, list[OcrLine], float] | None = None
    squeezed: dict[int, np.ndarray] = {}  # a line's frames read squeezed (mrz_ocr.SQUEEZE)

    def decoded_line(line: mrz_ocr.FoundLine, length: int, leading: int) -> OcrLine | None:
        found = mrz_ocr.decode(line.frames, length, leading)
        if found is not None:
            return found
        if id(line) not in squeezed:
            narrow = mrz_ocr.squeezed(line.crop)
            squeezed[id(line)] = text_ocr.character_probabilities([narrow], mrz_ocr.ALPHABET)[0]
        return mrz_ocr.decode(squeezed[id(line)], length)

    for count, lengths in mrz_ocr.LENGTHS.items():
        for first in range(len(lines) - count + 1):
            for group, length in itertools.product(
                (lines[first : first + count], lines[first : first + count][::-1]), lengths
            ):
                decoded = [
                    decoded_line(line, length, leading)
                    for line, leading in zip(group, _leading(group), strict=True)
                ]
                if any(d is None for d in decoded):
                    continue
                read = [d for d in decoded if d is not None]
                try:
                    zone = parse_zone(read)
                except MrzError:
                    continue
                confidence = round(float(np.mean([r.confidence for r in read])), 3)
                if best is None or _rank(zone, confidence) < _rank(best[0], best[2]):
                    best = (zone, read, confidence)
    return best


def _leading(group: list[mrz_ocr.FoundLine]) -> list[int]:
    """Characters each line of a zone lost at its start: how much later than the earliest its
    first character begins (zone lines are aligned on the left)."""
    leads = [mrz_ocr.lead(line.frames) for line in group]
    known = [x for x in leads if x is not None]
    if not known:
        return [0] * len(group)
    first = min(known)
    return [0 if x is None or x - first < 0.85 else round(x - first) for x in leads]


def fused(pixels: np.ndarray, found: Scan, *, search: bool = True) -> Scan:
    """The glyph matcher's scan with the recogniser's reading fused in (see the module); a
    state code that cannot be one is unsure. ``search=False``: no zone looked for by the
    detector where the glyph matcher found none."""
    result = _fused(pixels, found, search)
    reading = result.reading
    if reading is None:
        return result
    zone = _malformed(reading.zone)
    if zone is reading.zone:
        return result
    return replace(result, reading=replace(reading, zone=zone, lines=zone.lines))


def _malformed(zone: Zone) -> Zone:
    """An issuing state or nationality with a ``<`` before a letter (``<EN``: codes are
    letters, padded at the end only, ``D<<``) or that no list of codes holds (``EQY`` for
    ``EGY``: no check digit guards these fields): a character was misread there, or the
    document is not what it claims: unsure, never reported as read."""
    doubts = {doubt.field: doubt for doubt in zone.unsure}
    lines = list(zone.lines)
    for field in ("issuing_state", "nationality"):
        line, start, end = _UNGUARDED[field][zone.layout]
        value = lines[line][start:end]
        malformed = "<" in value.rstrip("<") or not known_code(value)
        if not malformed:
            continue
        known = doubts[field].candidates if field in doubts else (value,)
        likeliest = _lookalike_code(value)
        if likeliest is not None:  # reported, still unsure: nothing checks it
            lines[line] = lines[line][:start] + likeliest + lines[line][end:]
        doubts[field] = Unsure(field, tuple(dict.fromkeys((likeliest or value, *known))))
    unsure = tuple(doubts.values())
    if unsure == zone.unsure:
        return zone
    return replace(
        zone,
        lines=tuple(lines),
        issuing_state=lines[0][2:5].rstrip("<"),
        nationality=_field(lines, "nationality", zone.layout).rstrip("<"),
        unsure=unsure,
    )


def _field(lines: list[str], field: str, layout: str) -> str:
    line, start, end = _UNGUARDED[field][layout]
    return lines[line][start:end]


# Letters OCR-B sets alike, which the readers mistake for each other (EGY read as EQY).
_LOOKALIKES = {"Q": "GO", "G": "QC", "O": "QDC", "D": "O", "C": "GO", "E": "F", "F": "E"}


def _lookalike_code(value: str) -> str | None:
    """The one listed code that a single letter read as its lookalike would give, or None
    (none, or more than one: nothing to choose between them)."""
    found = {
        value[:i] + twin + value[i + 1 :]
        for i, ch in enumerate(value)
        for twin in _LOOKALIKES.get(ch, "")
        if "<" not in (value[:i] + twin + value[i + 1 :]).rstrip("<")
        and known_code(value[:i] + twin + value[i + 1 :])
    }
    return found.pop() if len(found) == 1 else None


def _fused(pixels: np.ndarray, found: Scan, search: bool) -> Scan:
    glyph = found.reading
    ocr = _ocr_of_glyph_zone(found)
    if glyph is not None and ocr is not None:
        try:
            zone = fuse(list(glyph.read), ocr, glyph.zone)
        except MrzError:
            zone = None
        if zone is not None and (zone.valid or not glyph.zone.valid):
            return replace(found, reading=_reading(glyph, zone, ("glyphs", "pp-ocr")))
    if (glyph is not None and glyph.zone.sure) or not search:
        return found
    alone = _ocr_zone(pixels)
    if alone is None:
        return found
    zone, read, confidence = alone
    if (
        glyph is not None
        and len(glyph.read) == len(read)
        and len(glyph.lines[0]) == len(read[0].text)
    ):
        try:
            both = fuse(list(glyph.read), list(read), glyph.zone)
        except MrzError:
            both = None
        if both is not None:
            return replace(found, reading=_reading(glyph, both, ("glyphs", "pp-ocr")))
    if glyph is not None and _rank(glyph.zone, 1.0) <= _rank(zone, 1.0):
        return found
    zone = _doubtful(zone, read)
    reading = ZoneReading(zone, zone.lines, 0.0, 0, confidence, readers=("pp-ocr",))
    return replace(found, reading=reading, zone_rows=None)


def _doubtful(zone: Zone, read: list[OcrLine]) -> Zone:
    """The recogniser alone: a field with a character it is not sure of (its best under
    ``SURE``, or not read at all) is unsure, whatever the check digit says (one unknown digit
    always has exactly one value that passes)."""
    doubts = {doubt.field: doubt for doubt in zone.unsure}
    spans = {**_GUARDED, **_UNGUARDED}
    for field, where in spans.items():
        if zone.layout not in where or field in doubts:
            continue
        line, start, end = where[zone.layout]
        allowed = _SEX if field == "sex" else mrz_ocr.ALPHABET
        coded = field in ("issuing_state", "nationality")
        seen = read[line].text[start:end]
        if any(not read[line].sure_of(p, allowed) for p in range(start, end)) or (
            coded and any(ch.isdigit() and ch != "0" for ch in seen)  # letters only (_digit_read)
        ):
            doubts[field] = Unsure(field, tuple(dict.fromkeys((zone.lines[line][start:end], seen))))
    unsure = tuple(doubts.values())
    return replace(zone, unsure=unsure) if unsure != zone.unsure else zone


def _reading(glyph: ZoneReading, zone: Zone, readers: tuple[str, ...]) -> ZoneReading:
    return replace(glyph, zone=zone, lines=zone.lines, readers=readers)
