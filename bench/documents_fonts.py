"""Field-font consistency (issue 32): a redrawn date against the printed fields beside it.
Measured, not shipped (docs/decisions.md, "Issue 32: no field-font alarm").

A date redrawn on a patch of paper colour (tests/documents/doctored.py ``redrawn_date``) is
typed in another font onto a flat patch, while the fields around it were printed together and
scanned together. Each of the 45 public images (bench/documents_real.py's list), its four
unedited re-saves (JPEG 75, 90, 95, PNG) and its redrawn-date copy is straightened as the
pipeline does (``zone.straighten``) and its printed lines found and read by the visual-zone OCR
(``read_printed``, PP-OCRv4; the zone's lines, holding ``<``, left out). Per line, on the grey
image inside its box (Otsu's threshold splits ink from paper):

- ``grain``: the median |Laplacian| of the paper (ink and two pixels around it left out, and
  burnt-out paper over 250); ``grain_mean``: its mean; ``spread``: the paper's standard
  deviation; ``flat``: the share of paper pixels with |Laplacian| <= 1 (a difference, not a
  ratio);
- ``sharpness``: the 99th percentile of the step between neighbouring pixels over the line's
  contrast; ``darkness``: (paper - ink's 5th percentile) over paper; ``stroke``: ink area over
  its outline, over the height; ``height``.

Each over the median of the page's other lines within a factor 2 of its height (at least 3 of
them; for the grain statistics only where their median grain is at least 1.5, a page with
grain). The redrawn line is the one whose text reads the typed date (``01.01.2031``, or its
digits). Printed per statistic: the genuine extremes over the 225 genuine and re-saved files,
how many redrawn lines lie beyond them, and how many of those the recompression check does not
already call (``--forensics-only`` judging, as bench/documents_forensics.py).

    PYTHONPATH=. uv run --group dev python bench/documents_fonts.py [--cache DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image
from tests.documents.doctored import CAUGHT_BY, EDITS

from bench.documents_forensics import alarms, forensics_only, resaved, side
from bench.documents_real import TRUTH, extract
from hakiki.engines.documents.text_ocr import read_printed
from hakiki.engines.documents.zone import straighten

Line = tuple[str, Sequence[tuple[float, float]]]
REDRAWN = re.compile(r"2031|01\.01|0101")
LOW = ("grain", "grain_mean", "spread")  # a redrawn patch is smoother: the lowest ratio
BOTH = ("sharpness", "darkness", "stroke", "height")  # either way
HEIGHT_FACTOR = 2.0
MIN_NEIGHBOURS = 3
MIN_PAGE_GRAIN = 1.5


def _box(corners: Sequence[tuple[float, float]], shape: tuple[int, ...]) -> tuple[int, ...]:
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return (
        max(0, int(min(xs))),
        max(0, int(min(ys))),
        min(shape[1], int(np.ceil(max(xs)))),
        min(shape[0], int(np.ceil(max(ys)))),
    )


def _otsu(values: np.ndarray) -> float:
    hist = np.bincount(values.astype(np.uint8).ravel(), minlength=256).astype(np.float64)
    weights, means = np.cumsum(hist), np.cumsum(hist * np.arange(256))
    total = hist.sum()
    between = (means[-1] * weights / total - means) ** 2 / np.maximum(
        weights * (total - weights), 1e-9
    )
    return float(np.argmax(between))


def _grown(mask: np.ndarray, by: int) -> np.ndarray:
    out = mask.copy()
    for _ in range(by):
        step = out.copy()
        step[1:] |= out[:-1]
        step[:-1] |= out[1:]
        step[:, 1:] |= out[:, :-1]
        step[:, :-1] |= out[:, 1:]
        out = step
    return out


def measure(grey: np.ndarray, box: tuple[int, ...]) -> dict[str, float] | None:
    left, top, right, bottom = box
    crop = grey[top:bottom, left:right]
    if crop.shape[0] < 8 or crop.shape[1] < 16:
        return None
    ink = crop <= _otsu(crop)
    if not 0.03 <= float(ink.mean()) <= 0.6:
        return None
    paper = float(np.median(crop[~ink]))
    contrast = paper - float(np.median(crop[ink]))
    if contrast < 40:
        return None
    steps = np.concatenate(
        [np.abs(np.diff(crop, axis=1)).ravel(), np.abs(np.diff(crop, axis=0)).ravel()]
    )
    inner = crop[1:-1, 1:-1]
    lap = np.abs(4 * inner - crop[:-2, 1:-1] - crop[2:, 1:-1] - crop[1:-1, :-2] - crop[1:-1, 2:])
    away = ~_grown(ink, 2)[1:-1, 1:-1] & (inner < 250)
    if away.sum() < 30:
        return None
    outline = ink & ~(
        np.roll(ink, 1, 0) & np.roll(ink, -1, 0) & np.roll(ink, 1, 1) & np.roll(ink, -1, 1)
    )
    return {
        "height": float(crop.shape[0]),
        "grain": float(np.median(lap[away])),
        "grain_mean": float(lap[away].mean()),
        "spread": float(inner[away].std()),
        "flat": float((lap[away] <= 1).mean()),
        "sharpness": float(np.percentile(steps, 99)) / contrast,
        "darkness": (paper - float(np.percentile(crop[ink], 5))) / max(1.0, paper),
        "stroke": float(ink.sum()) / max(1.0, float(outline.sum())) / crop.shape[0],
    }  # fmt: skip


def lines_of(data: bytes, cache: Path | None) -> tuple[np.ndarray, list[Line], float]:
    """The straightened grey page and its printed lines (kept in ``cache`` when given)."""
    started = time.process_time()
    if cache is not None and cache.with_suffix(".npy").exists():
        lines = [(t, [tuple(c) for c in cs]) for t, cs in json.loads(cache.read_text())]
        return np.load(cache.with_suffix(".npy")), lines, 0.0  # type: ignore[return-value]
    straight = np.asarray(straighten(side(data).pixels).straight)
    lines: list[Line] = [(line.text, line.corners) for line in read_printed(straight)]
    if cache is not None:
        np.save(cache.with_suffix(".npy"), straight)
        cache.write_text(json.dumps(lines))
    return straight, lines, time.process_time() - started


def relative(straight: np.ndarray, lines: list[Line]) -> list[tuple[str, dict[str, float]]]:
    """Each line's statistics over its neighbours' medians (``flat``: the difference)."""
    grey = straight.astype(np.float32)
    measured = [
        (text, m)
        for text, corners in lines
        if "<" not in text and (m := measure(grey, _box(corners, grey.shape))) is not None
    ]
    out = []
    for text, line in measured:
        others = [
            o
            for _t, o in measured
            if o is not line and 1 / HEIGHT_FACTOR <= o["height"] / line["height"] <= HEIGHT_FACTOR
        ]
        if len(others) < MIN_NEIGHBOURS:
            continue
        median = {k: float(np.median([o[k] for o in others])) for k in line}
        ratios = {k: line[k] / median[k] for k in BOTH if median[k] > 0}
        if median["grain"] >= MIN_PAGE_GRAIN:
            ratios.update({k: line[k] / median[k] for k in LOW if median[k] > 0})
            ratios["flat"] = line["flat"] - median["flat"]
        out.append((text, ratios))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--cache", type=Path, help="keep pages and OCR lines here")
    parser.add_argument("--reverse", action="store_true", help="last image first")
    args = parser.parse_args()
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    names = sorted(json.loads(TRUTH.read_text())["images"])
    genuine: list[dict[str, float]] = []
    redrawn: dict[str, dict[str, float]] = {}
    recompression: set[str] = set()
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        paths = extract(args.mirrors, names, Path(folder))
        for name, path in sorted(paths.items(), reverse=args.reverse):
            data = path.read_bytes()
            image = Image.open(io.BytesIO(data)).convert("RGB")
            doctored = EDITS["redrawn_date"](image)[0]
            copies = {"genuine": data, **{f"resaved_{k}": v for k, v in resaved(image).items()}}
            for kind, copy in {**copies, "redrawn_date": doctored}.items():
                kept = args.cache / f"{name}.{kind}.json" if args.cache else None
                straight, lines, spent = lines_of(copy, kept)
                if spent:
                    seconds.append(spent)
                for text, ratios in relative(straight, lines):
                    if kind != "redrawn_date":
                        genuine.append(ratios)
                    elif REDRAWN.search(text.replace(" ", "")):
                        redrawn[name] = ratios
            if set(alarms(forensics_only(doctored))) & set(CAUGHT_BY["redrawn_date"]):
                recompression.add(name)
            print(f"{name:28} redrawn line: {redrawn.get(name, 'not found')}", flush=True)
    if seconds:
        print(f"\nCPU per file (straighten + OCR): median {statistics.median(seconds):.2f} s")
    print(
        f"genuine + re-saved lines compared: {len(genuine)}; redrawn lines found: "
        f"{len(redrawn)} of {len(paths)}; recompression already calls {len(recompression)}"
    )
    print("| statistic | genuine extreme | redrawn beyond it | of those, recompression misses |")
    for key in (*LOW, "flat", *BOTH):
        values = [g[key] for g in genuine if key in g]
        ways = [("lowest", min(values), -1)] if key in LOW else [("highest", max(values), 1)]
        if key in BOTH:
            ways = [("lowest", min(values), -1), ("highest", max(values), 1)]
        for way, extreme, sign in ways:
            beyond = [n for n, r in redrawn.items() if key in r and sign * (r[key] - extreme) > 0]
            new = [n for n in beyond if n not in recompression]
            print(f"| {key} ({way}) | {extreme:.3f} | {len(beyond)} | {len(new)} {new} |")


if __name__ == "__main__":
    main()
