"""Is the photo good enough to judge? Resolution, sharpness, light, glare and framing.

Calibrated on 45 genuine public document images (bench/documents_forensics.py; issue 32):

- **Resolution** is judged on what is read: the height of the zone's glyphs in the sent
  image's pixels when the zone was found (genuine scans with glyphs 7.5 px high and more were
  read right; at 6 px and less, never). Without a zone, only an image too small to hold an
  ID-1 card's zone at that height is said to be too small (a file's pixel count alone said
  "too low" of 17 images read perfectly).
- **Glare** is a burnt-out patch on the document that fades out: not connected to the image's
  edge (the page, the scanner's lid or a white background around the document reaches it)
  and ringed by a light halo (a white field or box printed on the document ends at a hard
  edge). A flat scan's white paper hides nothing. Glare over the zone stops the zone from
  being found at all: the mrz check then asks for another photo.

Thresholds: docs/decisions.md ("Issue 32: forensics and quality calibrated").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIN_GLYPH_HEIGHT = 7.0  # pixels of the sent image: zones read right from 7.5 px, never at 6.2
# An ID-1 card (54 mm) whose zone glyphs (OCR-B size 1: 2.42 mm) are 7 px high is 156 px tall.
MIN_SHORT_SIDE = 156
MIN_SHARPNESS = 6.0  # variance of the Laplacian at the working width: a card blurred by
# a 2.5-pixel Gaussian (still read) gives 10, by 4 pixels (unreadable) 2
MIN_MEAN_LIGHT = 45.0  # mean grey level
BURNT = 250  # every channel at or above it
MAX_GLARE = 0.01  # share of the image under one patch of glare
HALO = 230  # a glare's halo: the cells around the patch at least this light
MIN_HALO = 0.5  # share of the ring that is halo (genuine white fields and boxes: 0.31 at most)
HALO_STEP = 2.0  # grey levels the ring is lighter than the ring beyond (a printed box: -6.5)


@dataclass(frozen=True)
class ZoneBox:
    """Where the zone was found in the reader's straightened image, and that image's scale."""

    top: int
    bottom: int
    lines: int
    pixels_per_straight: float  # sent image's pixels per straightened image's pixel


@dataclass(frozen=True)
class Quality:
    short_side: int
    sharpness: float
    brightness: float
    glare: float
    problems: tuple[str, ...]  # each a reason the photo cannot be judged, in plain words
    glyph_height: float | None = None  # the zone's glyphs, pixels of the sent image

    @property
    def acceptable(self) -> bool:
        return not self.problems


def laplacian_variance(grey: np.ndarray) -> float:
    g = grey.astype(np.float32)
    lap = -4 * g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    return float(lap.var())


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    edges = np.flatnonzero(np.diff(np.concatenate([[0], flags.astype(np.int8), [0]])))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def zone_lines(grey: np.ndarray, box: ZoneBox) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The zone's glyph lines (top, bottom rows in ``grey``) and its ink mask."""
    crop = grey[box.top : box.bottom].astype(np.float32)
    if crop.size == 0:
        return [], np.zeros((0, 0), dtype=bool)
    low, high = np.percentile(crop, 5), np.percentile(crop, 95)
    ink = crop < (low + high) / 2
    profile = ink.sum(axis=1)
    runs = _runs(profile > 0.2 * max(int(profile.max()), 1))
    runs = sorted(runs, key=lambda r: r[1] - r[0], reverse=True)[: box.lines]
    return sorted(runs), ink


def glyph_height(grey: np.ndarray, box: ZoneBox) -> float | None:
    lines, _ink = zone_lines(grey, box)
    if not lines:
        return None
    return float(np.median([b - a for a, b in lines])) * box.pixels_per_straight


def _grow(mask: np.ndarray) -> np.ndarray:
    grown = mask.copy()
    grown[1:] |= mask[:-1]
    grown[:-1] |= mask[1:]
    grown[:, 1:] |= mask[:, :-1]
    grown[:, :-1] |= mask[:, 1:]
    return grown


def _reach(seed: np.ndarray, within: np.ndarray) -> np.ndarray:
    """Every pixel of ``within`` connected to ``seed`` (4-connected)."""
    reached = seed & within
    while True:
        grown = _grow(reached) & within
        if (grown == reached).all():
            return reached
        reached = grown


def glare_share(pixels: np.ndarray) -> float:
    """The share of the image under the largest patch of glare: burnt-out cells (8 x 8 pixels)
    not connected to the image's edge (the page or the scanner's lid around a document reaches
    the edge) and ringed by a halo (glare fades out; a white box printed on the document, or a
    form's field, ends at a hard edge)."""
    height, width = pixels.shape[0] // 8 * 8, pixels.shape[1] // 8 * 8
    light = pixels[:height, :width].min(axis=2)
    cells = light.reshape(height // 8, 8, width // 8, 8)
    burnt = (cells >= BURNT).mean(axis=(1, 3)) > 0.5
    level = cells.mean(axis=(1, 3))
    edge = np.zeros_like(burnt)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    left = burnt & ~_reach(edge, burnt)
    largest = 0
    while left.any():
        seed = np.zeros_like(left)
        seed.flat[int(np.flatnonzero(left)[0])] = True
        patch = _reach(seed, left)
        left &= ~patch
        near = _grow(_grow(patch))
        far = _grow(_grow(near)) & ~near
        ring = near & ~patch
        if not far.any():
            continue
        # Lighter next to the patch than further out: light fading out, not a printed field.
        fading = float(level[ring].mean()) - float(level[far].mean()) >= HALO_STEP
        if fading and float((level[ring] >= HALO).mean()) >= MIN_HALO:
            largest = max(largest, int(patch.sum()))
    return largest / burnt.size


def assess(
    pixels: np.ndarray,
    grey: np.ndarray,
    original_size: tuple[int, int],
    zone: ZoneBox | None = None,
) -> Quality:
    """``pixels``: RGB at any size; ``grey``: the reader's straightened grey image; ``zone``:
    where the reader found the zone in it, if it did."""
    short = min(original_size)
    sharpness = laplacian_variance(grey)
    brightness = float(grey.mean())
    height = glyph_height(grey, zone) if zone is not None else None
    glare = glare_share(pixels[::2, ::2])  # every other pixel is plenty for a patch
    problems = []
    if height is not None and height < MIN_GLYPH_HEIGHT:
        problems.append(
            f"the resolution is too low (the zone's characters are {height:.0f} pixels high; "
            f"they need at least {MIN_GLYPH_HEIGHT:.0f}): take the photo closer"
        )
    elif height is None and short < MIN_SHORT_SIDE:
        problems.append(
            f"the resolution is too low ({original_size[0]} x {original_size[1]} pixels; "
            f"the short side needs at least {MIN_SHORT_SIDE})"
        )
    if sharpness < MIN_SHARPNESS:
        problems.append("the photo is blurred; hold the camera still and focus on the document")
    if brightness < MIN_MEAN_LIGHT:
        problems.append("the photo is too dark")
    if glare > MAX_GLARE:
        problems.append("glare hides part of the document; tilt it away from the light")
    return Quality(
        short,
        round(sharpness, 1),
        round(brightness, 1),
        round(glare, 3),
        tuple(problems),
        None if height is None else round(height, 1),
    )
