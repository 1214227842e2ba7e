"""Is the photo good enough to judge? Resolution, sharpness, light, glare and framing.

Thresholds were set on the ICAO specimens and on cards rendered by the tests (sharp, then
blurred until the zone could no longer be read) — docs/decisions.md#documents.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIN_SHORT_SIDE = 500  # pixels: below it a zone's glyphs are under about 10 pixels high
MIN_SHARPNESS = 6.0  # variance of the Laplacian at the working width: a card blurred by
# a 2.5-pixel Gaussian (still read) gives 10, by 4 pixels (unreadable) 2
MIN_MEAN_LIGHT = 45.0  # mean grey level
MAX_GLARE = 0.3  # share of a grid cell burnt out (every channel at 250 or more)
WHITE_PAGE = 0.3


@dataclass(frozen=True)
class Quality:
    short_side: int
    sharpness: float
    brightness: float
    glare: float
    problems: tuple[str, ...]  # each a reason the photo cannot be judged, in plain words

    @property
    def acceptable(self) -> bool:
        return not self.problems


def laplacian_variance(grey: np.ndarray) -> float:
    g = grey.astype(np.float32)
    lap = -4 * g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    return float(lap.var())


def glare_share(pixels: np.ndarray) -> float:
    """The largest share of burnt-out pixels in a cell of a 4 x 4 grid: glare is a patch. A
    white page or a scan is burnt out everywhere (over ``WHITE_PAGE`` of it): that is not glare."""
    burnt = np.asarray((pixels >= 250).all(axis=2), dtype=bool)
    if float(burnt.mean()) > WHITE_PAGE:
        return 0.0
    height, width = burnt.shape
    return max(
        float(
            burnt[
                r * height // 4 : (r + 1) * height // 4, c * width // 4 : (c + 1) * width // 4
            ].mean()
        )
        for r in range(4)
        for c in range(4)
    )


def assess(pixels: np.ndarray, grey: np.ndarray, original_size: tuple[int, int]) -> Quality:
    """``pixels``: RGB at any size; ``grey``: the working-width grey image the reader uses."""
    short = min(original_size)
    sharpness = laplacian_variance(grey)
    brightness = float(grey.mean())
    glare = glare_share(pixels[::2, ::2])  # every other pixel is plenty for a patch
    problems = []
    if short < MIN_SHORT_SIDE:
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
        short, round(sharpness, 1), round(brightness, 1), round(glare, 3), tuple(problems)
    )
