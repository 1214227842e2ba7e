"""OCR of machine-readable zones by glyph matching against the OCR-B font shipped beside this
module (font/OCRB.otf, public domain and permissive: font/SOURCES.md).

A zone's characters are monospaced capitals, digits and ``<``, so a line is cut into cells of
one pitch and each cell is compared (normalised cross-correlation, a few pixels of shift) with
every glyph rendered at the same size. No model, no download: Pillow renders the font.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib.resources import files

import numpy as np
from PIL import Image, ImageDraw, ImageFont

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"
DIGITS = frozenset("0123456789")
CELL_W, CELL_H = 20, 28  # every cell and glyph is compared at this size
_SHIFT = 2  # pixels of shift tried each way, at cell size
_RENDER_SIZE = 96
# Glyphs scoring within this of the best are readings the matcher is not sure to have ruled out.
MARGIN = 0.05
# Printed zeros still score a little under O (the shipped font's 0 is not the printers'): on the
# real scans of bench/documents_real.py the 0-minus-O score of a printed 0 was -0.08 to +0.14
# (median +0.02), of a printed O -0.17 to -0.03 (median -0.10). Half the gap of the medians.
_ZERO_BIAS = 0.04


def _font_path() -> str:
    return str(files("hakiki.engines.documents") / "font" / "OCRB.otf")


def _normalise(block: np.ndarray) -> np.ndarray:
    """Zero mean, unit norm (flattened): the dot product of two is their correlation."""
    flat = block.astype(np.float32).ravel()
    flat = flat - flat.mean()
    norm = float(np.linalg.norm(flat))
    return flat / norm if norm > 1e-6 else flat


def _render_glyphs() -> np.ndarray:
    """One normalised template per character of ALPHABET: ink (1 = dark) in a cell of one
    advance width and the cap height, the glyph centred on its ink, as the reader cuts cells.

    The shipped font draws its digits about 8% taller than its capitals; documents print both
    at one height (ICAO 9303 part 3). A digit is therefore cut from its own top, not clipped at
    the cap height: a clipped 0 has lost its top curve and loses to O on every real zero."""
    font = ImageFont.truetype(_font_path(), _RENDER_SIZE)
    _, cap_top, _, baseline = font.getbbox("H")
    advance = round(font.getlength("H"))
    templates = []
    for ch in ALPHABET:
        canvas = Image.new("L", (advance * 3, _RENDER_SIZE * 2), 0)
        ImageDraw.Draw(canvas).text((advance, 0), ch, font=font, fill=255)
        ink = np.asarray(canvas, dtype=np.float32) / 255.0
        columns = np.nonzero(ink.sum(axis=0) > 0)[0]
        centre = (columns[0] + columns[-1] + 1) / 2
        left = round(centre - advance / 2)
        top = int(np.nonzero(ink.sum(axis=1) > 0)[0][0]) if ch in DIGITS else cap_top
        cell = ink[top:baseline, left : left + advance]
        resized = Image.fromarray((cell * 255).astype(np.uint8)).resize(
            (CELL_W, CELL_H), Image.Resampling.BILINEAR
        )
        templates.append(_normalise(np.asarray(resized)))
    return np.stack(templates)


_templates: np.ndarray | None = None
_lock = threading.Lock()


def templates() -> np.ndarray:
    global _templates
    with _lock:
        if _templates is None:
            _templates = _render_glyphs()
        return _templates


@dataclass(frozen=True)
class ReadLine:
    """A line read cell by cell: ``scores[i, j]`` is how well cell i matches ALPHABET[j]."""

    scores: np.ndarray

    @property
    def text(self) -> str:
        return "".join(ALPHABET[j] for j in self.scores.argmax(axis=1))

    @property
    def confidence(self) -> float:
        """The mean best correlation of the cells (1 is a perfect match)."""
        return float(self.scores.max(axis=1).mean())

    def best(self, position: int, allowed: str) -> str:
        """The best character at ``position`` among ``allowed`` (digits where a date is)."""
        indices = [ALPHABET.index(ch) for ch in allowed]
        row = self.scores[position, indices]
        return allowed[int(row.argmax())]

    def candidates(self, position: int, allowed: str) -> list[tuple[str, float]]:
        """The characters among ``allowed`` scoring within ``MARGIN`` of the best, best first:
        one when the glyph is clear, several when the matcher cannot tell them apart."""
        ranked = sorted(
            ((ch, float(self.scores[position, ALPHABET.index(ch)])) for ch in allowed),
            key=lambda pair: -pair[1],
        )
        return [pair for pair in ranked if pair[1] >= ranked[0][1] - MARGIN]


def read_cells(
    ink: np.ndarray, top: int, bottom: int, centres: list[float], pitch: float
) -> ReadLine:
    """Match the cells of one line. ``ink`` is the deskewed image (float, 1 = dark); each cell
    is one pitch wide around its centre, from the line's top to its bottom (the cap height)."""
    height, width = ink.shape
    glyphs = templates()
    pad_x = pitch * _SHIFT / CELL_W
    pad_y = (bottom - top) * _SHIFT / CELL_H
    big_w, big_h = CELL_W + 2 * _SHIFT, CELL_H + 2 * _SHIFT
    patches = []
    for centre in centres:
        x0, x1 = centre - pitch / 2 - pad_x, centre + pitch / 2 + pad_x
        y0, y1 = top - pad_y, bottom + pad_y
        box = (
            max(0, round(x0)),
            max(0, round(y0)),
            min(width, max(round(x1), 1)),
            min(height, max(round(y1), 1)),
        )
        region = ink[box[1] : box[3], box[0] : box[2]]
        if region.size == 0:
            region = np.zeros((2, 2), dtype=np.float32)
        resized = np.asarray(
            Image.fromarray((region * 255).astype(np.uint8)).resize(
                (big_w, big_h), Image.Resampling.BILINEAR
            ),
            dtype=np.float32,
        )
        windows = np.lib.stride_tricks.sliding_window_view(resized, (CELL_H, CELL_W))
        patches.append(windows.reshape(-1, CELL_H * CELL_W))  # every shift of the cell
    stacked = np.stack(patches)  # cells x shifts x pixels
    stacked = stacked - stacked.mean(axis=2, keepdims=True)
    norms = np.linalg.norm(stacked, axis=2, keepdims=True)
    stacked = stacked / np.maximum(norms, 1e-6)
    scores = np.einsum("csp,gp->csg", stacked, glyphs).max(axis=1)
    scores[:, ALPHABET.index("0")] += _ZERO_BIAS
    return ReadLine(scores=scores)
