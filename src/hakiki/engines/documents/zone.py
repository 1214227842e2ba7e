"""Finding and reading the machine-readable zone of a document photo.

1. Grey levels at a working width of ``WORK_WIDTH`` pixels; "ink" is what is darker than its
   neighbourhood (a local-mean threshold, so uneven light does not matter).
2. Deskew: the angle (within ±``MAX_SKEW`` degrees) whose row profile of ink is sharpest, the
   projection-profile method; text lines give the profile its peaks.
3. Lines: bands of rows with ink; a zone line is a band whose ink runs as one long, evenly
   spaced row of glyphs across most of the document. Two lines of 44 (TD3), two of 36 (TD2) or
   three of 30 (TD1) consecutive such bands, from the bottom, are read with :mod:`.ocrb` and
   kept when the zone parses (check digits decide between candidates).
4. A photo held sideways or upside down: the four quarter turns are tried in turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from hakiki.engines.documents.ocrb import ReadLine, read_cells
from hakiki.engines.mrz.zones import MrzError, Zone, parse_zone

WORK_WIDTH = 1100
MAX_SKEW = 15.0
# Below this mean glyph correlation a reading is noise that happened to parse.
MIN_CONFIDENCE = 0.6
_LAYOUTS = ((2, 44), (2, 36), (3, 30))
# Of each side, cut when no zone is found: 4% freed the zone of 2 of 11 real images unread.
TRIM = 0.04
_TURNS = (0, 180, 90, 270)


@dataclass(frozen=True)
class ZoneReading:
    zone: Zone
    lines: tuple[str, ...]
    skew_degrees: float
    rotation: int  # quarter turn applied first: 0, 90, 180 or 270 degrees
    confidence: float  # mean glyph correlation, 0-1
    read: tuple[ReadLine, ...] = ()  # the glyph matcher's lines, when it read the zone
    readers: tuple[str, ...] = ("glyphs",)  # which read it: glyphs, pp-ocr (mrz_fusion)
    # How the zone was found: "whole" image, "trimmed" of its borders, one "half" of two sides
    # side by side, "turned" by an angle far from a quarter turn, or the document "flattened".
    located: str = "whole"


@dataclass(frozen=True)
class _Band:
    top: int
    bottom: int
    left: int
    right: int
    glyphs: int
    first_centre: float  # of the first and last run of ink: glyph centres, one pitch apart
    last_centre: float
    rules: tuple[int, ...] = ()  # columns of vertical lines crossing the band, left out

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def span(self) -> int:
        return self.right - self.left


def grey(pixels: np.ndarray, width: int = WORK_WIDTH) -> Image.Image:
    image = Image.fromarray(pixels).convert("L")
    if image.width != width:
        height = max(1, round(image.height * width / image.width))
        image = image.resize((width, height), Image.Resampling.BILINEAR)
    return image


def _box_mean(values: np.ndarray, radius: int) -> np.ndarray:
    padded = np.pad(values, radius + 1, mode="edge").astype(np.float64)
    summed = padded.cumsum(axis=0).cumsum(axis=1)
    size = 2 * radius + 1
    total = (
        summed[size:, size:]
        - summed[:-size, size:]
        - summed[size:, :-size]
        + summed[:-size, :-size]
    )
    return (total / (size * size))[: values.shape[0], : values.shape[1]].astype(np.float32)


def ink_of(image: Image.Image) -> np.ndarray:
    """Soft ink, 0-1: how much darker than its 31-pixel neighbourhood each pixel is."""
    values = np.asarray(image, dtype=np.float32) / 255.0
    local = _box_mean(values, 15)
    return np.clip((local - values) / np.maximum(local * 0.35, 0.05), 0.0, 1.0)


def _profile_sharpness(mask: Image.Image, angle: float) -> float:
    rows = np.asarray(mask.rotate(angle, Image.Resampling.NEAREST), dtype=np.float32).sum(axis=1)
    return float(np.square(np.diff(rows)).sum())


def _mask_at(image: Image.Image, width: int) -> Image.Image:
    small = image.resize((width, max(1, round(image.height * width / image.width))))
    return Image.fromarray(((ink_of(small) > 0.5) * 255).astype(np.uint8))


def skew_angle(image: Image.Image) -> float:
    """The rotation (degrees, counter-clockwise) that makes the text lines of a grey image
    horizontal: whole degrees on a 400-pixel copy, then fifths on a 700-pixel one."""
    small, finer = _mask_at(image, 400), _mask_at(image, 700)
    coarse = max(
        np.arange(-MAX_SKEW, MAX_SKEW + 0.01, 1.0), key=lambda a: _profile_sharpness(small, a)
    )
    fine = max(
        np.arange(coarse - 1.0, coarse + 1.01, 0.2), key=lambda a: _profile_sharpness(finer, a)
    )
    return float(round(fine, 1))


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True."""
    padded = np.concatenate(([False], flags, [False]))
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _rules(mask: np.ndarray, top: int, bottom: int) -> np.ndarray:
    """Columns a vertical line crosses (a frame, a box around the zone, a card's edge): ink from
    half a line above the band to half a line below it, which no glyph has (white lies between
    the zone's lines). Such a line, chained to the glyphs, throws their pitch."""
    height = bottom - top
    above, below = max(0, top - height // 2), min(mask.shape[0], bottom + height // 2)
    if below - above < 1.4 * height:
        return np.zeros(mask.shape[1], dtype=bool)
    solid = mask[above:below].mean(axis=0) >= 0.9
    return solid | np.roll(solid, 1) | np.roll(solid, -1)


def _band(mask: np.ndarray, top: int, bottom: int) -> _Band | None:
    """The longest chain of glyphs in rows top..bottom, or None when it is not zone-like."""
    height = bottom - top
    rules = _rules(mask, top, bottom)
    inked = np.where(rules, 0, mask[top:bottom].sum(axis=0))
    # Specks of dust or of a printed background are no glyph: left out, they chain nothing.
    pieces = [p for p in _runs(inked > 0) if inked[p[0] : p[1]].sum() >= 0.5 * height]
    if len(pieces) < 10:
        return None
    best: tuple[int, int] | None = None
    start = 0
    for i in range(1, len(pieces) + 1):
        if i == len(pieces) or pieces[i][0] - pieces[i - 1][1] > 1.3 * height:
            if best is None or pieces[i - 1][1] - pieces[start][0] > (
                pieces[best[1]][1] - pieces[best[0]][0]
            ):
                best = (start, i - 1)
            start = i
    if best is None:
        return None
    first, last = pieces[best[0]], pieces[best[1]]
    left, right, glyphs = first[0], last[1], best[1] - best[0] + 1
    if right - left < 0.45 * mask.shape[1] or glyphs < 10:
        return None
    near = max(0, left - height)  # the lines beside the chain, erased before it is read
    # Rows of this chain only: the band's real top and bottom (cap height).
    rows = np.flatnonzero((mask[top:bottom, left:right] & ~rules[left:right]).sum(axis=1) >= 2)
    if len(rows) == 0:
        return None
    return _Band(
        top + int(rows[0]),
        top + int(rows[-1]) + 1,
        left,
        right,
        glyphs,
        (first[0] + first[1]) / 2,
        (last[0] + last[1]) / 2,
        tuple(int(x) + near for x in np.flatnonzero(rules[near : right + height])),
    )


def _bands(mask: np.ndarray) -> list[_Band]:
    height, width = mask.shape
    # Rows crossing many strokes: a line of glyphs, not the edge of the card or of the photo.
    crossings = (mask[:, 1:] & ~mask[:, :-1]).sum(axis=1)
    rows = crossings >= 12
    found = []
    # A line of 30 glyphs across the width is about 0.045 of it high: in a strip of the zone
    # alone, that is far more than 0.12 of the height.
    tallest = max(0.12 * height, 0.06 * width)
    for top, bottom in _runs(rows):
        if 6 <= bottom - top <= tallest:
            band = _band(mask, top, bottom)
            if band is not None:
                found.append(band)
    return found


def _groups(bands: list[_Band]) -> Iterator[tuple[int, int, list[_Band]]]:
    """Candidate zones, bottom first: (lines, characters, bands)."""
    for end in range(len(bands), 0, -1):
        for lines, chars in _LAYOUTS:
            if end < lines:
                continue
            group = bands[end - lines : end]
            heights = [b.height for b in group]
            spans = [b.span for b in group]
            if max(heights) > 1.5 * min(heights) or max(spans) > 1.25 * min(spans):
                continue
            gaps = [b.top - a.bottom for a, b in itertools.pairwise(group)]
            if any(g > 2.5 * max(heights) for g in gaps):
                continue
            pitch = max(spans) / chars
            # OCR-B's advance is about 0.9 of its cap height (blur makes lines look taller).
            if not 0.7 <= pitch / float(np.median(heights)) <= 1.15:
                continue
            yield lines, chars, group


def _centres(ink: np.ndarray, band: _Band, chars: int) -> tuple[list[float], float]:
    pitch = band.span / chars
    # Unless the first or last run is two glyphs touching, their centres give the pitch.
    between = (band.last_centre - band.first_centre) / (chars - 1)
    if abs(between - pitch) < 0.15 * pitch:
        pitch = between
    start = band.first_centre if abs(between - pitch) < 1e-9 else band.left + pitch / 2
    profile = np.asarray((ink[band.top : band.bottom, :] > 0.5).any(axis=0), dtype=bool)
    centres = []
    for i in range(chars):
        guess = start + i * pitch
        lo, hi = int(guess - 0.45 * pitch), int(guess + 0.45 * pitch) + 1
        window = np.flatnonzero(profile[max(lo, 0) : hi])
        if len(window):
            found = max(lo, 0) + (window[0] + window[-1] + 1) / 2
            if abs(found - guess) < 0.25 * pitch:
                guess = found
        centres.append(guess)
    return centres, pitch


def _read_group(ink: np.ndarray, chars: int, group: list[_Band]) -> list[ReadLine]:
    lines = []
    for band in group:
        if band.rules:
            ink = ink.copy()
            ink[max(0, band.top - band.height) : band.bottom + band.height, list(band.rules)] = 0
        centres, pitch = _centres(ink, band, chars)
        lines.append(read_cells(ink, band.top, band.bottom, centres, pitch))
    return lines


def _rank(reading: ZoneReading) -> tuple[int, int, float]:
    return (len(reading.zone.failures), len(reading.zone.unsure), -reading.confidence)


@dataclass(frozen=True)
class Scan:
    """What the reader saw: the grey image deskewed in the orientation where the zone was read
    (as sent when none was), the reading, and the zone's rows in that image."""

    straight: Image.Image
    reading: ZoneReading | None
    zone_rows: tuple[int, int] | None


def scan(pixels: np.ndarray, *, search: bool = True) -> Scan:
    """The zone read by the glyph matcher and by PP-OCRv4, fused (:mod:`.mrz_fusion`).
    ``search=False`` (a document type that carries no zone): the zone is read where it lies
    plainly, without the other looks of :func:`glyph_scan` nor PP-OCR's detection, which cost
    a photo with no zone 1-2.5 s of CPU."""
    from hakiki.engines.documents.mrz_fusion import fused  # it builds on this module's Scan

    return fused(pixels, glyph_scan(pixels, search=search), search=search)


def glyph_scan(pixels: np.ndarray, *, search: bool = True) -> Scan:
    """Find and read the zone of a document photo (RGB array). A zone whose check digits all
    hold, no field unsure, wins at once; otherwise the reading with the fewest failures, then
    unsure fields (and the surest glyphs) among those above ``MIN_CONFIDENCE``; a turn whose
    check digits hold with a field unsure ends the search (no other turn reads it better).

    No zone at all: the photo is looked at again, the cheapest way first, and a reading is kept
    only if its check digits hold (a reading of a reshaped photo never fails a document on its
    own, and one with a field unsure only when no other look reads it surely): turned by the
    angle its text lines have when that is far from a quarter turn (a photo held at any angle);
    the document's quadrilateral warped flat (a photo taken at a slant); each half (two sides of
    a card side by side: the zone is under half the width); without ``TRIM`` of each side (a
    card's border or a frame line touching the zone)."""
    pixels = _with_margin(pixels)
    found = _scan(pixels)
    if found.reading is not None or not search:
        return found
    best: tuple[Scan, ZoneReading] | None = None
    for located, reshaped, turns in _reshaped(pixels):
        again = _scan(reshaped, turns)
        if again.reading is None or not again.reading.zone.valid:
            continue
        reading = replace(again.reading, located=located)
        if reading.zone.sure:
            return replace(again, reading=reading)
        if best is None or _rank(reading) < _rank(best[1]):
            best = (replace(again, reading=reading), reading)
    return best[0] if best else found


def _with_margin(pixels: np.ndarray) -> np.ndarray:
    """A strip of the zone alone (five times as wide as high, or more: two cards side by side
    are about three) framed with its own background: a glyph cut at the image's edge is
    matched short of its first strokes."""
    height, width = pixels.shape[:2]
    if width < 5 * height:
        return pixels
    pad = max(4, round(0.03 * width))
    channels = pixels.reshape(height * width, -1)
    framed = np.empty((height + 2 * pad, width + 2 * pad, channels.shape[1]), pixels.dtype)
    framed[:] = np.median(channels, axis=0).astype(pixels.dtype)
    framed[pad : pad + height, pad : pad + width] = pixels.reshape(height, width, -1)
    return framed if pixels.ndim == 3 else framed[:, :, 0]


def _reshaped(pixels: np.ndarray) -> Iterator[tuple[str, np.ndarray, tuple[int, ...]]]:
    """The photo reshaped for another look, cheapest first, with the quarter turns to try."""
    angle = text_angle(grey(pixels))
    if angle is not None:
        yield "turned", _turned(pixels, angle), (0, 180)
    flat = flattened(pixels)
    if flat is not None:
        yield "flattened", flat, _TURNS
    height, width = pixels.shape[:2]
    if width > 2 * height:  # two sides of a card side by side (one card is 1.6 times as wide)
        yield "half", pixels[:, : width // 2], (0, 180)
        yield "half", pixels[:, width // 2 :], (0, 180)
    dy, dx = round(height * TRIM), round(width * TRIM)
    yield "trimmed", pixels[dy : height - dy, dx : width - dx], _TURNS


def text_angle(image: Image.Image) -> float | None:
    """The angle (degrees, counter-clockwise) that makes the text lines of a grey image
    horizontal, over half a turn; None when it is within ``MAX_SKEW`` of a quarter turn (the
    quarter turns and the deskew already try those)."""
    small = _mask_at(image, 300)
    coarse = max(np.arange(-90.0, 90.0, 2.0), key=lambda a: _profile_sharpness(small, a))
    folded = abs(((coarse + 45.0) % 90.0) - 45.0)  # distance to the nearest quarter turn
    if folded <= MAX_SKEW - 2.0:
        return None
    return float(coarse)


def _turned(pixels: np.ndarray, angle: float) -> np.ndarray:
    image = Image.fromarray(pixels).convert("RGB")
    fill = tuple(int(v) for v in np.median(pixels.reshape(-1, pixels.shape[-1])[:, :3], axis=0))
    # Not expanded: the document, in the middle, keeps its share of the width (the zone must
    # span most of it); what is cut off is the corners of the photo.
    turned = image.rotate(angle, Image.Resampling.BICUBIC, fillcolor=fill)
    return np.asarray(turned)


def flattened(pixels: np.ndarray) -> np.ndarray | None:
    """The document warped flat: its outline's four corners (the largest convex quadrilateral
    among the edges, at least a fifth of the photo) mapped to a rectangle of the sides' mean
    lengths. None when no such outline is found, or when it is the photo's own frame."""
    import cv2  # imported here: the app's start must not load OpenCV (tests/test_startup.py)

    height, width = pixels.shape[:2]
    scale = 800 / max(height, width)
    small = cv2.resize(pixels, (max(1, round(width * scale)), max(1, round(height * scale))))
    grey_small = cv2.cvtColor(np.ascontiguousarray(small[:, :, :3]), cv2.COLOR_RGB2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey_small, (5, 5), 0), 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area = small.shape[0] * small.shape[1]
    best: np.ndarray | None = None
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:8]:
        hull = cv2.convexHull(contour)
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(quad) == 4 and 0.2 * area <= cv2.contourArea(quad) <= 0.97 * area:
            best = quad.reshape(4, 2).astype(np.float32) / scale
            break
    if best is None:
        return None
    # Corners in order: top-left, top-right, bottom-right, bottom-left.
    total, diff = best.sum(axis=1), np.diff(best, axis=1).ravel()
    corners = np.array(
        [best[total.argmin()], best[diff.argmin()], best[total.argmax()], best[diff.argmax()]],
        dtype=np.float32,
    )
    top, bottom = np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3])
    left, right = np.linalg.norm(corners[3] - corners[0]), np.linalg.norm(corners[2] - corners[1])
    out_w, out_h = round((top + bottom) / 2), round((left + right) / 2)
    if out_w < 50 or out_h < 50:
        return None
    target = np.array([[0, 0], [out_w - 1, 0], [out_w - 1, out_h - 1], [0, out_h - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners, target)
    source = np.ascontiguousarray(pixels[:, :, :3])
    return cv2.warpPerspective(source, matrix, (out_w, out_h), flags=cv2.INTER_CUBIC)


def _scan(pixels: np.ndarray, turns: tuple[int, ...] = _TURNS) -> Scan:
    base = grey(pixels)
    best: Scan | None = None
    first: Image.Image | None = None
    for rotation in turns:
        if rotation in (90, 270) and base.width > 4 * base.height:
            continue  # a strip lying flat: turned, it would be 1,100 pixels by 10,000 or more
        turned = base.rotate(rotation, expand=True) if rotation else base
        if rotation in (90, 270):
            turned = turned.resize((WORK_WIDTH, round(turned.height * WORK_WIDTH / turned.width)))
        angle = skew_angle(turned)
        straight = (
            turned.rotate(angle, Image.Resampling.BICUBIC, expand=True, fillcolor=255)
            if angle
            else turned
        )
        first = first or straight
        ink = ink_of(straight)
        for _lines, chars, group in _groups(_bands(ink > 0.5)):
            read = _read_group(ink, chars, group)
            try:
                zone = parse_zone(read)
            except MrzError:
                continue
            confidence = round(float(np.mean([line.confidence for line in read])), 3)
            if confidence < MIN_CONFIDENCE:
                continue
            found = Scan(
                straight,
                ZoneReading(zone, zone.lines, angle, rotation, confidence, tuple(read)),
                (group[0].top, group[-1].bottom),
            )
            if zone.sure:
                return found
            if best is None or _rank(found.reading) < _rank(best.reading):  # type: ignore[arg-type]
                best = found
        if best is not None and best.reading is not None and best.reading.zone.valid:
            return best  # check digits hold, a field unsure: no other turn reads it better
    if best is not None:
        return best
    assert first is not None
    return Scan(first, None, None)


def straighten(pixels: np.ndarray) -> Scan:
    """The grey image deskewed as sent, without looking for a zone (a side that carries none)."""
    base = grey(pixels)
    angle = skew_angle(base)
    if angle:
        base = base.rotate(angle, Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    return Scan(base, None, None)


def read_zone(pixels: np.ndarray) -> ZoneReading | None:
    """The zone of a document photo, or None when none can be read."""
    return scan(pixels).reading
