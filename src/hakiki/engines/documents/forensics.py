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
- **Recompression** (issue 32): a JPEG saved twice keeps the first save's quantisation lattice
  in its 8 x 8 DCT coefficients wherever the pixels were left alone (aligned double
  compression); a photo pasted or a date redrawn between the two saves does not carry it. The
  first lattice is estimated per frequency from the whole page (the last save's table is in the
  file), every block is scored by how many of its coefficients fall off it, and a compact
  region off the lattice that the page holds everywhere else is the edit. An image saved once
  (or lossless, or first saved finer than last) carries no earlier lattice: the check does not
  run rather than guess.
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
# Recompression (issue 32), calibrated on the 45 public images and on each of them re-saved
# unedited at qualities 75, 90 and 95 (a messenger's save): an earlier lattice is traced on
# at least RECOMPRESSION_MIN_FREQUENCIES of the 20 lowest AC frequencies, each fitting at least
# LATTICE_FIT of the page's non-zero coefficients. The page off its lattice: genuine re-saves
# at most 8%; a region's excess off-lattice count over that base (a z-score): genuine re-saves
# at most 21 (over 8 windows of 3 x 3 blocks), pasted photos 33-278 (73 windows and more),
# redrawn dates 44-141 (10 windows and more).
RECOMPRESSION_MIN_FREQUENCIES = 3
LATTICE_FIT = 0.8  # 0.85 lost the lattice where a pasted photo covers 12% of a small page
RECOMPRESSION_MAX_BASE = 0.25  # more of the page off its lattice: no single earlier save
RECOMPRESSION_STRONG = 40.0  # a small region this far off: attention
RECOMPRESSION_WIDE = 25.0  # a wide region (RECOMPRESSION_WIDE_WINDOWS) this far off: attention
RECOMPRESSION_WIDE_WINDOWS = 30
RECOMPRESSION_MIN_WINDOWS = 4
_CLIP_MARGIN = 3  # blocks touching black or white were clipped at a decode: off any lattice
_WINDOW = 3  # blocks (24 pixels) per side of the window a region is judged in
_LOSSLESS_STEP = 2.0  # a lossless file's "last step": the colour conversion's rounding
_MAP_SIDE = 2048  # pixels: a larger page is mapped on its middle 2048 x 2048
_LATTICE_SAMPLE = 8000  # blocks the lattice is estimated on


@dataclass(frozen=True)
class Recompression:
    """The earlier save's lattice on a JPEG's page (None: no earlier save traced)."""

    frequencies: int  # frequencies with an earlier lattice traced
    base: float | None  # the page's share of coefficients off that lattice
    score: float  # the most deviant region's excess off the lattice (a z-score)
    windows: int  # its size, in windows of 3 x 3 blocks
    box: tuple[int, int, int, int] | None  # its pixels (left, top, right, bottom), as stored

    @property
    def traced(self) -> bool:
        return (
            self.frequencies >= RECOMPRESSION_MIN_FREQUENCIES
            and self.base is not None
            and self.base <= RECOMPRESSION_MAX_BASE
        )

    @property
    def region(self) -> bool:
        """A region re-compressed apart from the rest of the page (pasted or redrawn)."""
        if not self.traced or self.windows < RECOMPRESSION_MIN_WINDOWS:
            return False
        return self.score >= RECOMPRESSION_STRONG or (
            self.score >= RECOMPRESSION_WIDE and self.windows >= RECOMPRESSION_WIDE_WINDOWS
        )


NOT_TRACED = Recompression(0, None, 0.0, 0, None)


@dataclass(frozen=True)
class Forensics:
    software: str | None  # the editor named in the metadata
    error_level_ratio: float | None  # None for PNG and WebP
    copy_move_blocks: int  # blocks moved by the most common displacement
    moire: float
    screenshot: bool
    recompression: Recompression = NOT_TRACED

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


def _dct_matrix() -> np.ndarray:
    k = np.arange(8)
    d = np.cos((2 * k[None, :] + 1) * k[:, None] * np.pi / 16) * np.sqrt(2 / 8)
    d[0] /= np.sqrt(2)
    return d


_DCT = _dct_matrix()
# The 20 lowest AC frequencies (u + v from 1 to 5): the ones a printed page fills.
_FREQUENCIES = [(u, v) for u in range(8) for v in range(8) if 0 < u + v <= 5]


def _luma_coefficients(
    image: Image.Image,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]] | None:
    """The 8 x 8 DCT of the decoded luma (a JPEG: libjpeg's own YCbCr output, no colour
    conversion), the last save's luma table (a lossless file: steps of one, its own rounding
    and the colour conversion's), which blocks touch black or white, and where the mapped part
    begins (left, top)."""
    if image.format == "JPEG":
        tables = getattr(image, "quantization", None)
        if not tables or 0 not in tables or image.mode not in ("L", "RGB", "YCbCr"):
            return None
        table = np.asarray(tables[0], dtype=np.float64)
        if table.size != 64:
            return None
        if image.mode == "RGB":
            image.draft("YCbCr", image.size)
        luma = np.asarray(image.getchannel(0) if image.mode != "L" else image, dtype=np.float64)
    else:  # a JPEG saved again without loss (PNG, WebP lossless) keeps the JPEG's lattice
        table = np.full(64, _LOSSLESS_STEP)
        rgb = np.asarray(image.convert("RGB"), dtype=np.float64)
        luma = rgb @ np.array([0.299, 0.587, 0.114])
    # A large page is mapped on its middle (grid-aligned), within a bounded memory.
    top = max(0, (luma.shape[0] - _MAP_SIDE) // 16 * 8)
    left = max(0, (luma.shape[1] - _MAP_SIDE) // 16 * 8)
    luma = luma[top : top + _MAP_SIDE, left : left + _MAP_SIDE].astype(np.float32)
    h, w = luma.shape[0] // 8 * 8, luma.shape[1] // 8 * 8
    if h < 32 or w < 32:
        return None
    blocks = (luma[:h, :w] - 128).reshape(h // 8, 8, w // 8, 8).transpose(0, 2, 1, 3)
    edge = (luma[:h, :w] <= _CLIP_MARGIN) | (luma[:h, :w] >= 255 - _CLIP_MARGIN)
    clipped: np.ndarray = np.asarray(edge.reshape(h // 8, 8, w // 8, 8).any(axis=(1, 3)))
    return (
        _DCT.astype(np.float32) @ blocks @ _DCT.T.astype(np.float32),
        table.reshape(8, 8),
        clipped,
        (left, top),
    )


Lattice = dict[tuple[int, int], tuple[int, float]]  # frequency: (earlier step, tolerance)


def _earlier_lattice(coefficients: np.ndarray, table: np.ndarray, clipped: np.ndarray) -> Lattice:
    """Per frequency, the coarsest earlier step the page's non-zero coefficients sit on (within
    the last step's rounding), when it fits ``LATTICE_FIT`` of them and far more than chance."""
    kept = coefficients[~clipped]
    if len(kept) > _LATTICE_SAMPLE:
        kept = kept[:: len(kept) // _LATTICE_SAMPLE + 1]
    found: Lattice = {}
    for u, v in _FREQUENCIES:
        tolerance = table[u, v] / 2 + 1.0
        values = kept[:, u, v]
        values = values[np.abs(values) > tolerance]
        if len(values) < 40:
            continue
        for step in range(int(np.ceil(2.2 * tolerance)) + 1, 64):
            off = np.abs(values - np.round(values / step) * step)
            fit = float((off <= tolerance).mean())
            if fit >= LATTICE_FIT and fit > min(1.0, 2 * tolerance / step) + 0.35:
                found[(u, v)] = (step, tolerance)
    return found


def _window_sums(grid: np.ndarray) -> np.ndarray:
    summed = np.pad(grid, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    k = _WINDOW
    return summed[k:, k:] - summed[:-k, k:] - summed[k:, :-k] + summed[:-k, :-k]


def _regions(mask: np.ndarray) -> list[np.ndarray]:
    """The 4-connected regions of ``mask``, each as its cells' coordinates."""
    left = {(int(y), int(x)) for y, x in np.argwhere(mask)}
    regions = []
    while left:
        stack, cells = [left.pop()], []
        while stack:
            y, x = stack.pop()
            cells.append((y, x))
            for near in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if near in left:
                    left.remove(near)
                    stack.append(near)
        regions.append(np.asarray(cells))
    return regions


def recompression(image: Image.Image) -> Recompression:
    """Where the page does not carry the earlier save's lattice (module docstring)."""
    decoded = _luma_coefficients(image)
    if decoded is None:
        return NOT_TRACED
    coefficients, table, clipped, (x0, y0) = decoded
    lattice = _earlier_lattice(coefficients, table, clipped)
    if len(lattice) < RECOMPRESSION_MIN_FREQUENCIES:
        return Recompression(len(lattice), None, 0.0, 0, None)
    off = np.zeros(coefficients.shape[:2])
    counted = np.zeros(coefficients.shape[:2])
    for (u, v), (step, tolerance) in lattice.items():
        values = coefficients[:, :, u, v]
        significant = np.abs(values) > tolerance + 0.5
        off += significant & (np.abs(values - np.round(values / step) * step) > tolerance)
        counted += significant
    off[clipped] = 0
    counted[clipped] = 0
    base = float(off.sum() / max(counted.sum(), 1.0))
    if min(off.shape) < _WINDOW or base > RECOMPRESSION_MAX_BASE:
        return Recompression(len(lattice), round(base, 4), 0.0, 0, None)
    window_off, window_counted = _window_sums(off), _window_sums(counted)
    share = np.where(window_counted >= 10, window_off / np.maximum(window_counted, 1), 0.0)
    best = Recompression(len(lattice), round(base, 4), 0.0, 0, None)
    spread = max(base * (1 - base), 1e-6)
    for cells in _regions(share >= 0.5):
        cover = np.zeros(off.shape, dtype=bool)
        for y, x in cells:
            cover[y : y + _WINDOW, x : x + _WINDOW] = True
        n = float(counted[cover].sum())
        score = (float(off[cover].sum()) - base * n) / float(np.sqrt(n * spread))
        if score > best.score:
            # Its box: the covered blocks mostly off the lattice themselves.
            own = np.argwhere(cover & (off >= 0.5 * counted) & (counted > 0))
            top, left = own.min(axis=0) * 8
            bottom, right = (own.max(axis=0) + 1) * 8
            best = Recompression(
                len(lattice), round(base, 4), round(score, 1), len(cells),
                (int(left) + x0, int(top) + y0, int(right) + x0, int(bottom) + y0),
            )  # fmt: skip
    return best


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
    # Opened again: a JPEG decoder's YCbCr output is asked for before it decodes.
    with Image.open(io.BytesIO(data), formats=[fmt]) as again:
        traced = recompression(again)
    return Forensics(
        software=software,
        error_level_ratio=ela,
        copy_move_blocks=copy_move_blocks(straight, zone_rows),
        moire=moire(native),
        screenshot=screenshot_shape(size, camera, chrome),
        recompression=traced,
    )
