"""Signs that a document photo was edited or is not a photo of a document at all.

- **Editing software**: the EXIF ``Software`` tag and XMP's ``CreatorTool`` and history
  ``softwareAgent`` (read as text with a regular expression, never parsed as XML) naming an
  editor. The strongest single signal (NOTES.md: the ICAO specimens say Paint.NET).
- **Error level**: the JPEG re-saved at quality 90; an edited region re-compresses differently
  from the rest. Weak alone: it only raises attention, never rejects.
- **Copy-move**: blocks of 16 x 16 pixels (step 4) at a 512-pixel working width, each reduced
  to its 4 x 4 mean grey levels, coarsely quantised; textured blocks with equal keys are pairs;
  many pairs sharing one displacement is a region pasted elsewhere in the same image. Shifts
  along a row (within 2 pixels vertically) are ignored: a zone's ``<<<<`` fillers and repeated
  letters are legitimate copies along a line.
- **Screens**: a photo of a screen carries the screen's pixel grid, a strong isolated peak in
  the spectrum near the finest frequencies of the image as sent; a screenshot has no camera
  EXIF, a screen's proportions and its bars (status, title, navigation).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import numpy as np
from PIL import Image

EDITORS = re.compile(
    rb"photoshop|gimp|paint\.net|lightroom|affinity|pixelmator|canva|snapseed|picsart|fotor|"
    rb"photopea|corel|paintshop|inkscape|illustrator|facetune|meitu|photo ?editor",
    re.IGNORECASE,
)
_XMP_TOOLS = re.compile(rb"(?:CreatorTool|softwareAgent)[\"'>=\s]+([^\"'<]{1,100})", re.IGNORECASE)
ELA_QUALITY = 90
ELA_ATTENTION = 6.0  # ratio of the worst block's error level to the median block's
COPY_MOVE_WIDTH = 512
# Pairs with one displacement: genuine scans and renders up to 124 (repeated print: a
# document's own text and patterns repeat), so only a large copy is called one (issue 32).
COPY_MOVE_MIN_BLOCKS = 150
COPY_MOVE_MIN_SHIFT = 24  # pixels at the working width: nearer blocks overlap
# The fine spectral peak over its band's median, on a crop at the sent resolution: genuine
# scans, photos and renders 4-77; a screen's grid photographed 620 and more (issue 32).
MOIRE_ATTENTION = 200.0
MOIRE_CROP = 512
CHROME_ZONE = 0.08  # of the height, at the top and at the bottom
CHROME_ROWS = 4  # flat rows of 540, at each end
MIN_DETAIL = 0.02  # fine-detail energy over coarse: sharp photos 0.13-0.16, blurred under 0.01
# Not 4:3: a phone camera's own frame, and a camera photo shared through a messenger loses its
# EXIF: a photo of a card on a plain table at 4:3 was taken for a screenshot.
_SCREEN_RATIOS = (16 / 9, 18 / 9, 19.5 / 9, 20 / 9, 19 / 9, 16 / 10)


@dataclass(frozen=True)
class Forensics:
    software: str | None  # the editor named in the metadata
    error_level_ratio: float | None  # None for PNG and WebP
    copy_move_blocks: int  # blocks moved by the most common displacement
    moire: float
    screenshot: bool

    @property
    def edited(self) -> bool:
        return self.software is not None

    @property
    def copy_move(self) -> bool:
        return self.copy_move_blocks >= COPY_MOVE_MIN_BLOCKS

    @property
    def screen(self) -> bool:
        return self.moire >= MOIRE_ATTENTION or self.screenshot


def metadata_software(image: Image.Image) -> tuple[str | None, bool]:
    """(the editor named by EXIF or XMP, whether any camera make or model is recorded)."""
    exif = image.getexif()
    named = [str(exif.get(305, ""))]
    xmp = image.info.get("xmp") or image.info.get("XML:com.adobe.xmp") or b""
    if isinstance(xmp, str):
        xmp = xmp.encode("utf-8", "replace")
    named += [m.decode("utf-8", "replace") for m in _XMP_TOOLS.findall(xmp[:200_000])]
    editor = next((n.strip() for n in named if EDITORS.search(n.encode())), None)
    camera = bool(str(exif.get(271, "")).strip() or str(exif.get(272, "")).strip())
    return (editor[:100] if editor else None), camera


def error_level_ratio(image: Image.Image) -> float:
    rgb = image.convert("RGB")
    rgb.thumbnail((1024, 1024))
    out = io.BytesIO()
    rgb.save(out, "JPEG", quality=ELA_QUALITY)
    again = Image.open(io.BytesIO(out.getvalue())).convert("RGB")
    diff = np.abs(np.asarray(rgb, np.int16) - np.asarray(again, np.int16)).max(axis=2)
    h, w = (diff.shape[0] // 16) * 16, (diff.shape[1] // 16) * 16
    blocks = diff[:h, :w].reshape(h // 16, 16, w // 16, 16).mean(axis=(1, 3))
    median = float(np.median(blocks))
    return round(float(blocks.max()) / max(median, 0.5), 2)


def _cell_means(g: np.ndarray, size: int) -> np.ndarray:
    """The mean of every size x size cell, at every position (an integral image)."""
    summed = np.pad(g, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    total = (
        summed[size:, size:]
        - summed[:-size, size:]
        - summed[size:, :-size]
        + summed[:-size, :-size]
    )
    return total / (size * size)


def copy_move_blocks(grey: Image.Image, skip_rows: tuple[int, int] | None = None) -> int:
    """Blocks moved by the most common displacement (at every pixel position, so a region
    pasted at any offset lines up). ``grey`` should be deskewed, so text runs along rows;
    ``skip_rows`` (top, bottom in ``grey``) is the machine-readable zone, whose fillers repeat
    from line to line by design."""
    width = COPY_MOVE_WIDTH
    scale = width / grey.width
    small = grey.resize((width, max(32, round(grey.height * scale))))
    g = np.asarray(small, dtype=np.float64)
    cells = _cell_means(g, 8)
    # Texture in both directions: a straight edge is the same block all along itself.
    across = _cell_means(np.abs(np.diff(g, axis=1))[:-1, :], 15)
    down = _cell_means(np.abs(np.diff(g, axis=0))[:, :-1], 15)
    texture = np.minimum(across, down)
    rows, cols = texture.shape
    keys = np.stack(
        [cells[8 * i : 8 * i + rows, 8 * j : 8 * j + cols] for i in range(2) for j in range(2)],
        axis=-1,
    )
    if skip_rows is not None:
        top, bottom = int(skip_rows[0] * scale) - 16, int(skip_rows[1] * scale) + 1
        texture[max(top, 0) : max(bottom, 0), :] = 0
    textured = np.argwhere(texture >= 3)
    if len(textured) < 2:
        return 0
    quantised = (keys[textured[:, 0], textured[:, 1]] // 10).astype(np.int8)
    order = np.lexsort(quantised.T[::-1])
    ordered, places = quantised[order], textured[order]
    same = np.flatnonzero((ordered[1:] == ordered[:-1]).all(axis=1))
    moves = places[same + 1] - places[same]
    flip = (moves[:, 0] < 0) | ((moves[:, 0] == 0) & (moves[:, 1] < 0))
    moves[flip] = -moves[flip]
    keep = (np.abs(moves[:, 0]) > 2) & ((moves**2).sum(axis=1) >= COPY_MOVE_MIN_SHIFT**2)
    if not keep.any():
        return 0
    _, counts = np.unique(moves[keep], axis=0, return_counts=True)
    return int(counts.max())


def moire(grey: Image.Image) -> float:
    """How much the strongest fine periodic peak stands above its band, on a crop of the image
    at the resolution it was sent: a screen's pixel grid, photographed, leaves a peak near the
    camera's finest frequency (or its alias, the moiré). Resizing first would blur it away;
    printed patterns and halftones of genuine scans stay under ``MOIRE_ATTENTION``."""
    side = min(MOIRE_CROP, grey.width, grey.height) // 2 * 2
    if side < 64:
        return 0.0
    left, top = (grey.width - side) // 2, (grey.height - side) // 2
    g = np.asarray(grey.crop((left, top, left + side, top + side)), dtype=np.float32)
    g = (g - g.mean()) * np.outer(np.hanning(side), np.hanning(side))
    spectrum = np.abs(np.fft.fftshift(np.fft.fft2(g)))
    yy, xx = np.mgrid[:side, :side] - side // 2
    radius = np.hypot(yy, xx)
    band = spectrum[(radius > side * 0.3) & (radius < side * 0.5)]
    low = spectrum[(radius > 2) & (radius < side * 0.05)]
    median = float(np.median(band))
    # A blurred photo has no fine detail left: any residue would look like a peak.
    if median <= 0 or median < MIN_DETAIL * float(np.median(low)):
        return 0.0
    return round(float(band.max()) / median, 1)


def screen_chrome(image: Image.Image) -> bool:
    """A screen's bars: rows of one flat colour across the whole width at the top and at the
    bottom (a status bar, an app's title and navigation bars). A camera's rows are never flat;
    a photo on a black cloth can be, at one end (a genuine passport photo of the set)."""
    small = np.asarray(image.convert("RGB").resize((270, 540)), dtype=np.float32)
    flat = small.std(axis=1).max(axis=1) < 2.0
    edge = round(len(flat) * CHROME_ZONE)
    return int(flat[:edge].sum()) >= CHROME_ROWS and int(flat[-edge:].sum()) >= CHROME_ROWS


def screenshot_shape(size: tuple[int, int], camera: bool, chrome: bool) -> bool:
    """A screen's proportions, no camera recorded and a screen's bars (any format: screenshots
    are shared as JPEG too)."""
    if camera or not chrome:
        return False
    long, short = max(size), min(size)
    return short >= 600 and any(abs(long / short - r) < 0.01 for r in _SCREEN_RATIOS)


def examine(
    data: bytes, fmt: str, straight: Image.Image, zone_rows: tuple[int, int] | None = None
) -> Forensics:
    """``data``: the upload (already checked by the image guards); ``straight``: its grey image,
    deskewed (text along rows)."""
    with Image.open(io.BytesIO(data), formats=[fmt]) as image:
        software, camera = metadata_software(image)
        ela = error_level_ratio(image) if fmt == "JPEG" else None
        size = image.size
        native = image.convert("L")
        chrome = screen_chrome(image)
    return Forensics(
        software=software,
        error_level_ratio=ela,
        copy_move_blocks=copy_move_blocks(straight, zone_rows),
        moire=moire(native),
        screenshot=screenshot_shape(size, camera, chrome),
    )
