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
    advance width and the cap height, the glyph centred on its ink, as the reader cuts cells."""
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
        cell = ink[cap_top:baseline, left : left + advance]
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
    return ReadLine(scores=scores)
