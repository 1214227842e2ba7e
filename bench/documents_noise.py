"""Noise-residual inconsistency on single-save files (issue 32): measured, not shipped.

A pasted photo or a redrawn date saved once (no earlier JPEG lattice for the recompression
check) might still differ from the page in its noise: a scanned page carries the scanner's
grain and the print's texture everywhere, a photo pasted from a clean digital source or a patch
of flat paper colour does not. Two statistics on the luma's 4-neighbour Laplacian, per 8 x 8
block, with blocks touching black or white (clipped, no noise left) left out:

- **quietest window**: the median block noise of a portrait-sized window (a fifth of the page's
  width, 1.2 times as tall) over the page's median block noise, the lowest over the page
  (windows with more than 30% clipped blocks skipped). Lower is quieter than the page.
- **clean structure**: per window, the spread of its blocks' mean grey levels (a face, print)
  over its absolute median block noise, the page's highest over its 75th percentile of windows:
  a pasted photo from a clean source holds much structure for little grain, unlike the page.
- **smooth component**: the largest 4-connected set of blocks not touching the page's edge
  whose quiet pixels (the block's 25th percentile of the Laplacian) are at most 0.3 of the
  page's, as a share of the page's blocks.

Each on the 45 public images (as bench/documents_real.py reads them), each re-saved unedited
(JPEG 75, 90, 95, PNG), and the pasted-photo and redrawn-date copies of
tests/documents/doctored.py; printed: the genuine extreme, and how many doctored copies lie
beyond it (what a threshold with no genuine alarm would catch). Pages whose median block noise
is under 2 (renders: no grain to compare) are counted apart.

    uv run --group dev python bench/documents_noise.py [--mirrors /work/.mirror]
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image
from tests.documents.doctored import EDITS

from bench.documents_forensics import resaved
from bench.documents_real import TRUTH, extract

BLOCK = 8
MIN_PAGE_NOISE = 2.0


def _blocks(values: np.ndarray) -> np.ndarray:
    h, w = (values.shape[0] // BLOCK) * BLOCK, (values.shape[1] // BLOCK) * BLOCK
    cut = values[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK)
    return cut.transpose(0, 2, 1, 3).reshape(h // BLOCK, w // BLOCK, BLOCK * BLOCK)


def noise_maps(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per block: the median and 25th percentile of |Laplacian|, the mean grey level, and
    whether it clips."""
    grey = np.asarray(Image.open(io.BytesIO(data)).convert("L"), dtype=np.float32)
    lap = np.abs(
        4 * grey[1:-1, 1:-1] - grey[:-2, 1:-1] - grey[2:, 1:-1] - grey[1:-1, :-2] - grey[1:-1, 2:]
    )
    residual, pixels = _blocks(lap), _blocks(grey[1:-1, 1:-1])
    clipped = (pixels.max(axis=2) >= 250) | (pixels.min(axis=2) <= 5)
    return (
        np.median(residual, axis=2),
        np.percentile(residual, 25, axis=2),
        pixels.mean(axis=2),
        clipped,
    )


def windows(
    median: np.ndarray, mean: np.ndarray, clipped: np.ndarray, page: float
) -> tuple[float | None, float | None]:
    """The quietest window's noise over the page's, and the clean-structure score."""
    rows, cols = median.shape
    ww = max(2, cols // 5)
    wh = max(2, round(ww * 1.2))
    quiet: list[float] = []
    structure: list[float] = []
    for y in range(rows - wh + 1):
        for x in range(cols - ww + 1):
            kept = ~clipped[y : y + wh, x : x + ww]
            if kept.mean() < 0.7:
                continue
            noise = float(np.median(median[y : y + wh, x : x + ww][kept]))
            quiet.append(noise / page)
            structure.append(float(mean[y : y + wh, x : x + ww][kept].std()) / max(noise, 0.5))
    if not quiet:
        return None, None
    return min(quiet), max(structure) / max(float(np.percentile(structure, 75)), 0.5)


def smooth_component(quiet: np.ndarray, clipped: np.ndarray, page: float) -> float:
    low = (quiet <= 0.3 * page) & ~clipped
    rows, cols = low.shape
    seen = np.zeros_like(low)
    largest = 0
    for y, x in zip(*np.nonzero(low), strict=True):
        if seen[y, x]:
            continue
        seen[y, x] = True
        stack, size, edge = [(y, x)], 0, False
        while stack:
            a, b = stack.pop()
            size += 1
            edge = edge or a in (0, rows - 1) or b in (0, cols - 1)
            for c, d in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                if 0 <= c < rows and 0 <= d < cols and low[c, d] and not seen[c, d]:
                    seen[c, d] = True
                    stack.append((c, d))
        if not edge:
            largest = max(largest, size)
    return largest / low.size


def measure(data: bytes) -> dict[str, float | None] | None:
    median, quiet, mean, clipped = noise_maps(data)
    if not (~clipped).any():
        return None
    page = float(np.median(median[~clipped]))
    if page < MIN_PAGE_NOISE:
        return None
    window, structure = windows(median, mean, clipped, page)
    return {
        "window": window,
        "structure": structure,
        "component": smooth_component(quiet, clipped, page),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = parser.parse_args()
    names = sorted(json.loads(TRUTH.read_text())["images"])
    rows: dict[str, list[dict[str, float | None] | None]] = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = extract(args.mirrors, names, Path(folder))
        face = Image.open(paths["pe_0_pass-lva.jpg"]).convert("RGB").crop((200, 150, 450, 450))
        for _name, path in sorted(paths.items()):
            data = path.read_bytes()
            image = Image.open(io.BytesIO(data)).convert("RGB")
            rows.setdefault("genuine", []).append(measure(data))
            for copy in resaved(image).values():
                rows.setdefault("genuine", []).append(measure(copy))
            rows.setdefault("pasted_photo", []).append(
                measure(EDITS["pasted_photo"](image, face)[0])
            )
            rows.setdefault("redrawn_date", []).append(measure(EDITS["redrawn_date"](image)[0]))
    genuine = [r for r in rows["genuine"] if r]
    floor = min(r["window"] for r in genuine if r["window"] is not None)
    ceiling = max(float(r["component"] or 0) for r in genuine)
    clean = max(float(r["structure"] or 0) for r in genuine)
    beyond = sorted((float(r["structure"] or 0) for r in genuine), reverse=True)[:3]
    print(f"genuine + re-saved: {len(rows['genuine'])} ({len(genuine)} with grain to compare)")
    print(f"  quietest window, lowest genuine: {floor:.3f}")
    print(f"  smooth component, largest genuine: {ceiling:.4f} of the page")
    print(f"  clean structure, highest genuine: {clean:.2f} (top three {beyond})")
    for edit in ("pasted_photo", "redrawn_date"):
        kept = [r for r in rows[edit] if r]
        window = sum(1 for r in kept if r["window"] is not None and r["window"] < floor)
        component = sum(1 for r in kept if float(r["component"] or 0) > ceiling)
        scores = sorted((round(float(r["structure"] or 0), 2) for r in kept), reverse=True)
        structure = sum(1 for v in scores if v > clean)
        print(
            f"  {edit}: {len(rows[edit])} copies ({len(kept)} with grain); beyond every genuine: "
            f"quietest window {window}, smooth component {component}, clean structure "
            f"{structure} (highest {scores[:6]})"
        )


if __name__ == "__main__":
    main()
