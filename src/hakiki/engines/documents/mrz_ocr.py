"""The machine-readable zone read a second way: PP-OCRv4 (:mod:`.text_ocr`), decoded over the
zone's own alphabet, one line image at a time.

1. The recogniser's frames are decoded (CTC, best path) over ``A-Z 0-9 <`` and the blank only:
   whatever else the model could read (Chinese, punctuation, lower case) is out of the question.
2. Each character keeps the probabilities the model gave every character of the alphabet at
   its frames: ``O`` read with ``0`` close behind is a reading with two candidates.
3. A run of ``<`` is often read as one ``<`` spanning the run (CTC merges repeats with no blank
   between them). The line is brought to the layout's length by widening runs of ``<`` in
   proportion to the frames each spans; a run is widened only when it spans at least one and a
   half characters, so a lone ``<`` between two names stays one (else the line is not read).
4. What a field may hold is applied by the parser (:func:`hakiki.engines.mrz.zones.parse_zone`):
   the best allowed character, a ``0`` read in a name taken as ``O``, an ``O`` in a date as ``0``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from PIL import Image

from hakiki.engines.documents.ocrb import ALPHABET
from hakiki.engines.documents.text_ocr import character_probabilities, crop_line, detect_lines

_FILLER = ALPHABET.index("<")
_CONFUSIONS = {"0": "O", "O": "0", "1": "I", "I": "1", "2": "Z", "Z": "2", "5": "S", "S": "5",
               "8": "B", "B": "8", "6": "G", "G": "6", "D": "0", "Q": "0"}  # fmt: skip
# A character the recogniser gave at least this probability is one it may have seen.
ALTERNATIVE = 0.1
# Below this the recogniser's best is not a reading it is sure of (fusion: it abstains).
SURE = 0.5
# Characters a line may miss (a gap in its frames) and still be read, each then unknown.
MAX_UNKNOWN = 2
_UNKNOWN = np.full(len(ALPHABET), 1 / len(ALPHABET), dtype=np.float32)
# Below this mean probability of its characters a line is noise that happened to fit.
MIN_CONFIDENCE = 0.75
LENGTHS = {3: (30,), 2: (44, 36)}


@dataclass(frozen=True)
class OcrLine:
    """A zone line read by the recogniser: ``probabilities[i, j]`` is how likely position i
    holds ALPHABET[j] (at the frame where the character read there peaks)."""

    probabilities: np.ndarray
    padded: bool = False  # runs of < widened to the layout's length: positions less certain

    @property
    def text(self) -> str:
        return "".join(ALPHABET[j] for j in self.probabilities.argmax(axis=1))

    @property
    def confidence(self) -> float:
        return float(self.probabilities.max(axis=1).mean())

    def best(self, position: int, allowed: str) -> str:
        row = self.probabilities[position]
        top = ALPHABET[int(row.argmax())]
        if top in allowed:
            return top
        twin = _CONFUSIONS.get(top)
        if twin is not None and twin in allowed:
            return twin  # what the field allows, in the shape the model saw (0 in a name: O)
        return max(allowed, key=lambda ch: row[ALPHABET.index(ch)])

    def probability(self, position: int, ch: str, allowed: str = ALPHABET) -> float:
        """How likely ``ch`` is here; a character the field does not allow counts for its
        twin (a ``0`` read in a name is as likely an ``O``)."""
        row = self.probabilities[position]
        value = float(row[ALPHABET.index(ch)])
        top = ALPHABET[int(row.argmax())]
        if top not in allowed and _CONFUSIONS.get(top) == ch:
            return max(value, float(row.max()))
        return value

    def candidates(self, position: int, allowed: str) -> list[tuple[str, float]]:
        """The best allowed character, and any other the model gave ``ALTERNATIVE`` or more."""
        first = self.best(position, allowed)
        found = {first: self.probability(position, first, allowed)}
        for ch in allowed:
            p = self.probability(position, ch, allowed)
            if ch not in found and p >= ALTERNATIVE:
                found[ch] = p
        if found[first] < SURE:
            for ch in sorted(allowed, key=lambda c: -self.probability(position, c, allowed))[:2]:
                found.setdefault(ch, self.probability(position, ch, allowed))
        return sorted(found.items(), key=lambda pair: (pair[0] != first, -pair[1]))

    def sure_of(self, position: int, allowed: str) -> list[str]:
        """The characters the recogniser is confident of here; none when its best is below
        ``SURE`` (it abstains: a ``<`` read as something outside the alphabet, a smudge)."""
        found = self.candidates(position, allowed)
        return [ch for ch, _ in found] if found[0][1] >= SURE else []


@dataclass(frozen=True)
class _Emission:
    start: int  # first and last frame + 1
    end: int
    index: int  # in ALPHABET
    probabilities: np.ndarray  # per character of ALPHABET, at the frame it peaks


def _emissions(frames: np.ndarray) -> list[_Emission]:
    """Best-path CTC decoding: runs of one non-blank class are one character."""
    best = frames.argmax(axis=1)
    out: list[_Emission] = []
    start = 0
    for t in range(1, len(best) + 1):
        if t == len(best) or best[t] != best[start]:
            if best[start] != 0:
                # The distribution of the frame the character peaks at: its rivals there.
                peak = start + int(frames[start:t, best[start]].argmax())
                out.append(_Emission(start, t, int(best[start]) - 1, frames[peak, 1:]))
            start = t
    return out


def raw_text(frames: np.ndarray) -> str:
    return "".join(ALPHABET[e.index] for e in _emissions(frames))


def _pitch(found: list[_Emission]) -> float | None:
    """Frames per character: the median step between characters read side by side, not <."""
    steps = [
        b.start - a.start for a, b in itertools.pairwise(found) if _FILLER not in (a.index, b.index)
    ]
    return float(np.median(steps)) if len(steps) >= 5 and np.median(steps) > 0 else None


def lead(frames: np.ndarray) -> float | None:
    """Where the first character read begins, in characters from the line image's start: the
    lines of one zone begin at one place, so a line whose first character begins later has
    lost its first characters (the detector's box holds them; the recogniser missed them)."""
    found = _emissions(frames)
    pitch = _pitch(found)
    return None if pitch is None else found[0].start / pitch


def decode(frames: np.ndarray, length: int, leading: int = 0) -> OcrLine | None:
    """The line as ``length`` characters, or None when it cannot be brought to that length
    without guessing. Too few characters read: a character's pitch in frames is the median
    distance between two characters read side by side that are not ``<``; each character read
    then sits at a position (its distance from the first in pitches), and a ``<`` stands for
    as many characters as there are positions before the next one. After another character
    a gap is characters not read: unknown (at most ``MAX_UNKNOWN``; the recogniser is then
    sure of nothing there). A character that sits between two positions (over a third of a
    pitch off) leaves the line unread. ``leading``: characters lost before the first read."""
    found = _emissions(frames)
    if len(found) == length and not leading:
        return OcrLine(np.stack([e.probabilities for e in found]))
    pitch = _pitch(found)
    if pitch is None or len(found) + leading > length:
        return None
    # Where each character begins: a run of < read as one begins at its first <.
    places = [(e.start - found[0].start) / pitch for e in found]
    if any(abs(p - round(p)) > 0.35 for p in places):
        return None
    positions = [leading + round(p) for p in places] + [length]
    rows: list[np.ndarray] = [_UNKNOWN] * leading
    for i, emission in enumerate(found):
        count = positions[i + 1] - positions[i]
        if count < 1:
            return None
        # A character whose frames span the gap after it is a run of it read as one (CTC
        # merges repeats: 0000 read as 00); a gap it does not span, characters not read.
        spans = emission.end - emission.start >= 0.5 * pitch * (count - 1) + 1
        if emission.index == _FILLER or spans:
            rows.extend([emission.probabilities] * count)
        else:
            rows.extend([emission.probabilities] + [_UNKNOWN] * (count - 1))
    unknown = sum(row is _UNKNOWN for row in rows)
    return OcrLine(np.stack(rows), padded=True) if unknown <= MAX_UNKNOWN else None


# A zone set wider than OCR-B for its height (a monospaced font such as Courier or DejaVu Sans
# Mono) makes the recogniser skip narrow letters (PUBLIC<<JON read PUBC<<ON on a real card's
# render): a line that cannot be brought to its length is read once more squeezed to this share
# of its width, and kept if that reading can.
SQUEEZE = 0.8


def squeezed(line: np.ndarray) -> np.ndarray:
    """The line image ``SQUEEZE`` times as wide, as high."""
    width = max(1, round(line.shape[1] * SQUEEZE))
    return np.asarray(Image.fromarray(line).resize((width, line.shape[0]), Image.Resampling.BOX))


def read_lines(lines: list[np.ndarray], length: int) -> list[OcrLine | None] | None:
    """Line images of one zone, each brought to ``length`` characters (None for a line that
    cannot be, even squeezed); None if no line can."""
    decoded = [decode(frames, length) for frames in character_probabilities(lines, ALPHABET)]
    again = [i for i, line in enumerate(decoded) if line is None]
    frames = character_probabilities([squeezed(lines[i]) for i in again], ALPHABET)
    for i, retried in zip(again, frames, strict=True):
        decoded[i] = decode(retried, length)
    return decoded if any(line is not None for line in decoded) else None


def zone_crops(grey: np.ndarray, lines: int) -> list[np.ndarray] | None:
    """The ``lines`` text lines of a strip already cut around a zone (grey, deskewed), top to
    bottom: boxes on one row are joined (the detector may split a line at a long run of ``<``)."""
    rgb = np.ascontiguousarray(np.stack([grey] * 3, axis=-1))
    boxes = detect_lines(rgb)
    rows: list[list[float]] = []  # top, bottom, left, right
    for box in sorted(boxes, key=lambda b: float(b[:, 1].mean())):
        top, bottom = float(box[:, 1].min()), float(box[:, 1].max())
        left, right = float(box[:, 0].min()), float(box[:, 0].max())
        if rows and (top + bottom) / 2 < rows[-1][1]:
            row = rows[-1]
            row[:] = [min(row[0], top), max(row[1], bottom), min(row[2], left), max(row[3], right)]
        else:
            rows.append([top, bottom, left, right])
    rows = [r for r in rows if r[3] - r[2] >= 0.4 * grey.shape[1]]
    if len(rows) != lines:
        return None
    return [
        grey[max(0, round(t)) : round(b) + 1, max(0, round(left)) : round(right) + 1]
        for t, b, left, right in rows
    ]


@dataclass(frozen=True)
class FoundLine:
    crop: np.ndarray
    corners: np.ndarray
    text: str  # raw, as decoded over the alphabet
    confidence: float
    frames: np.ndarray


def zone_like_lines(pixels: np.ndarray, longest: int = 960) -> list[FoundLine]:
    """Lines of an RGB image that look like zone lines (long, over the zone's alphabet, with a
    ``<`` or, 28 characters or more, a third of them digits), in reading order: the
    detector's quadrilaterals give perspective-corrected crops, tried upside down too when
    none reads as a zone line."""
    boxes = [
        box
        for box in joined(detect_lines(pixels, longest))
        if _long(box) >= 8 * max(_short(box), 1.0)
    ]
    if not boxes:
        return []
    crops = [crop_line(pixels, _widened(box, pixels.shape)) for box in boxes]
    for turned in (False, True):
        images = [np.ascontiguousarray(c[::-1, ::-1]) if turned else c for c in crops]
        found = []
        for crop, box, frames in zip(
            images, boxes, character_probabilities(images, ALPHABET), strict=True
        ):
            found += _split(crop, box, frames, turned)
        if found:
            return _reading_order(found, turned)
    return []


def _widened(box: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The box a third of its height longer at each end: the detector's box can clip a
    line's first or last character, which leaves the line one short."""
    centre, along, _normal = _axes(box)
    reach = along * _short(box) / 3
    signs = np.sign((box - centre) @ along)[:, None]
    moved = box + signs * reach
    return np.clip(moved, 0, [shape[1] - 1, shape[0] - 1]).astype(np.float32)


def _zone_like(crop: np.ndarray, box: np.ndarray, frames: np.ndarray) -> FoundLine | None:
    emitted = _emissions(frames)
    text = "".join(ALPHABET[e.index] for e in emitted)
    digits = sum(ch.isdigit() for ch in text)
    if len(text) < 20 or ("<" not in text and (len(text) < 28 or digits < 0.3 * len(text))):
        return None
    confidence = float(np.mean([e.probabilities.max() for e in emitted]))
    return FoundLine(crop, box, text, confidence, frames) if confidence >= MIN_CONFIDENCE else None


def _split(crop: np.ndarray, box: np.ndarray, frames: np.ndarray, turned: bool) -> list[FoundLine]:
    """The zone-like line in ``crop``, or the lines of a box holding two or three lines at once
    (zone lines are close: the detector may take two as one): a line of n characters is about
    0.6 n times as wide as it is high, a box of two half that."""
    line = _zone_like(crop, box, frames)
    if line is None:
        return []
    height, width = crop.shape[:2]
    count = round(0.6 * len(line.text) / (width / max(height, 1)))
    if count < 2:
        return [line] if line.confidence >= MIN_CONFIDENCE else []
    count = min(count, 3)
    cuts = [round(height * k / count) for k in range(count + 1)]
    parts = [crop[a:b] for a, b in itertools.pairwise(cuts)]
    found = []
    for k, (part, part_frames) in enumerate(
        zip(parts, character_probabilities(parts, ALPHABET), strict=True)
    ):
        j = count - 1 - k if turned else k  # which share of the box, top edge first
        top = box[0] + (box[3] - box[0]) * j / count, box[1] + (box[2] - box[1]) * j / count
        bottom = (
            box[0] + (box[3] - box[0]) * (j + 1) / count,
            box[1] + (box[2] - box[1]) * (j + 1) / count,
        )
        corners = np.asarray([top[0], top[1], bottom[1], bottom[0]], dtype=np.float32)
        piece = _zone_like(part, corners, part_frames)
        if piece is not None:
            found.append(piece)
    return found or [line]


def _edges(box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return box[1] - box[0], box[3] - box[0]


def _long(box: np.ndarray) -> float:
    return max(float(np.linalg.norm(edge)) for edge in _edges(box))


def _short(box: np.ndarray) -> float:
    return min(float(np.linalg.norm(edge)) for edge in _edges(box))


def _axes(box: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre, unit direction along the line, unit normal."""
    top, side = _edges(box)
    along = top if np.linalg.norm(top) >= np.linalg.norm(side) else side
    if along[0] < 0:
        along = -along
    unit = along / max(float(np.linalg.norm(along)), 1e-6)
    return box.mean(axis=0), unit, np.array([-unit[1], unit[0]])


def joined(boxes: list[np.ndarray]) -> list[np.ndarray]:
    """Boxes that are pieces of one line (same slant, same row, close along it) as one box:
    the detector cuts a zone line at a long run of ``<`` or a gap, in a tilted photo too."""
    merged = [b.astype(np.float32) for b in boxes]
    changed = True
    while changed:
        changed = False
        for i, j in itertools.combinations(range(len(merged)), 2):
            a, b = merged[i], merged[j]
            ca, ua, na = _axes(a)
            cb, ub, _ = _axes(b)
            height = max(_short(a), _short(b))
            if abs(float(ua @ ub)) < 0.995 or abs(float((cb - ca) @ na)) > 0.4 * height:
                continue
            ends = sorted(float((corner - ca) @ ua) for corner in np.concatenate([a, b]))
            spans = sorted(((a - ca) @ ua).tolist()), sorted(((b - ca) @ ua).tolist())
            gap = max(spans[0][0], spans[1][0]) - min(spans[0][-1], spans[1][-1])
            if gap > 2.5 * height:
                continue
            points = np.concatenate([a, b])
            across = (points - ca) @ na
            lo, hi, top, bottom = ends[0], ends[-1], float(across.min()), float(across.max())
            corners = [
                ca + ua * x + na * y for x, y in ((lo, top), (hi, top), (hi, bottom), (lo, bottom))
            ]
            merged[i] = np.asarray(corners, dtype=np.float32)
            del merged[j]
            changed = True
            break
    return merged


def _reading_order(found: list[FoundLine], turned: bool) -> list[FoundLine]:
    """Along the lines' own perpendicular (a tilted photo's rows are slanted): top to bottom
    for a photo the right way up; a photo turned a quarter may need the reverse, which the
    caller tries too."""

    def along(box: np.ndarray) -> np.ndarray:
        top, side = _edges(box)
        return top if np.linalg.norm(top) >= np.linalg.norm(side) else side

    direction = np.mean([along(f.corners) for f in found], axis=0)
    normal = np.array([-direction[1], direction[0]]) / max(float(np.linalg.norm(direction)), 1e-6)
    order = sorted(found, key=lambda f: float(f.corners.mean(axis=0) @ normal))
    return order[::-1] if turned else order
