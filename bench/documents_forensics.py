"""Forensic and quality alarms on genuine document images, and doctored copies still caught.

Genuine: the public scans, photos and renders of konstantint/PassportEye and
yushulx/python-mrz-scanner-sdk (MIT; read from their git mirrors like bench/documents_real.py,
the list in bench/data/documents_real_truth.json). For each, every quality and forensic
alarm the pipeline raises (``analyse``, as POST /v3/documents/verify runs it). Target: none,
except ``editing_software`` where the file itself names its editor (a fact, not a threshold).

Doctored: copies of each genuine image made by tests/documents/doctored.py (a pasted photo, a
region copied over a field, a date redrawn, a screenshot, a photo of a screen, an editor's save)
and, for each, whether the check that exists for that edit raised attention.

Re-saved (issue 32, the recompression check): each genuine image saved again unedited as
JPEG at 75, 90 and 95 (a messenger's save) and as PNG; none may raise a forensic alarm.
``--forensics-only`` judges the doctored and re-saved copies by the forensic checks alone (as
the pipeline raises them on the image straightened, without the zone search that costs
seconds an image; copy-move then leaves no zone rows out), for all 45 images in minutes.

Barcodes (``--barcodes``): zxing-cpp on each image as sent (before) and through
``barcodes.read`` (after), on the genuine images and on PDF417 and QR codes rendered by
zxing-cpp at 0.8-2.2 pixels per module, blurred (0, 0.7, 1.2 px) and saved as JPEG (60, 85).

    uv run --group dev python bench/documents_forensics.py [--details] [--limit N] [--barcodes]
    # genuine images only, as another tree has it (PYTHONPATH=/work/main/src:. ... --limit 0)
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import statistics
import tempfile
import time
from collections import Counter
from datetime import date
from pathlib import Path

import numpy as np
import zxingcpp
from PIL import Image, ImageFilter
from tests.documents.doctored import CAUGHT_BY, EDITS

from bench.documents_real import TRUTH, extract
from hakiki.engines.documents import barcodes
from hakiki.engines.documents.verify import Analysis, Side, _forensics, analyse
from hakiki.engines.documents.zone import straighten
from hakiki.engines.face import load_image

TODAY = date(2026, 11, 27)
ALARM_CATEGORIES = ("quality", "forensics")
MODULES = (0.8, 1.0, 1.3, 1.7, 2.2)  # pixels per module of the rendered codes


def side(data: bytes) -> Side:
    # The service caps uploads at 1 MB; the bench reads every genuine file whole.
    image = load_image(data, max_bytes=1 << 26, max_pixels=40_000_000, max_side=2000)
    return Side("front", data, image.format, image.pixels, image.original_size)


def run(data: bytes) -> tuple[Analysis, float]:
    started = time.process_time()
    found = analyse(side(data), None, "passport", None, TODAY)
    return found, time.process_time() - started


def forensics_only(data: bytes) -> Analysis:
    """The forensic checks alone, as ``analyse`` raises them (no zone search)."""
    front = side(data)
    return Analysis(_forensics(front, straighten(front.pixels)), None, [], [])


def resaved(image: Image.Image) -> dict[str, bytes]:
    copies = {}
    for quality in (75, 90, 95):
        out = io.BytesIO()
        image.save(out, "JPEG", quality=quality)
        copies[f"jpeg{quality}"] = out.getvalue()
    out = io.BytesIO()
    image.save(out, "PNG")
    copies["png"] = out.getvalue()
    return copies


def alarms(found: Analysis) -> dict[str, str]:
    return {
        c.name.split(".", 1)[-1]: c.reason
        for c in found.checks
        if c.category in ALARM_CATEGORIES and c.status == "attention"
    }


def signals(found: Analysis) -> dict[str, object]:
    merged: dict[str, object] = {}
    for c in found.checks:
        if c.category in ALARM_CATEGORIES:
            merged.update({f"{c.name.split('.', 1)[-1]}.{k}": v for k, v in c.signals.items()})
    return merged


def _rendered_code(kind: str, module: float, blur: float, quality: int) -> np.ndarray:
    text = "@ANSI 636000020002DL00410199ZDAQ123456789DCSPUBLICDACJON"
    code = zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, kind))
    card = Image.new("RGB", (1000, 640), (236, 238, 230))
    card.paste(Image.fromarray(np.asarray(code.to_image(scale=4))).convert("RGB"), (60, 60))
    size = (round(card.width * module / 4), round(card.height * module / 4))
    card = card.resize(size, Image.Resampling.BILINEAR)
    if blur:
        card = card.filter(ImageFilter.GaussianBlur(blur))
    out = io.BytesIO()
    card.save(out, "JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(out.getvalue())).convert("RGB"))


def _codes_before_after(pixels: np.ndarray) -> tuple[bool, bool, float]:
    before = any(c.valid for c in zxingcpp.read_barcodes(pixels, formats=barcodes.FORMATS))
    started = time.process_time()
    after = bool(barcodes.read(pixels))
    return before, after, time.process_time() - started


def bench_barcodes(paths: dict[str, Path]) -> None:
    seconds: list[float] = []
    for name, path in sorted(paths.items()):
        image = load_image(path.read_bytes(), max_bytes=1 << 26, max_pixels=40_000_000)
        before, after, spent = _codes_before_after(image.pixels)
        seconds.append(spent)
        if before or after:
            print(f"  {name}: as sent {before}, read {after}")
    print(
        f"genuine images: barcodes.read CPU median {statistics.median(seconds):.3f} s, "
        f"max {max(seconds):.3f} s (an image without a code runs the whole ladder)"
    )
    for kind in ("PDF417", "QRCode"):
        counts = Counter()
        for module, blur, quality in itertools.product(MODULES, (0, 0.7, 1.2), (60, 85)):
            before, after, _spent = _codes_before_after(_rendered_code(kind, module, blur, quality))
            counts[f"{module} before"] += before
            counts[f"{module} after"] += after
        print(f"  {kind}: " + ", ".join(
            f"{m} px/module {counts[f'{m} before']}->{counts[f'{m} after']}/6" for m in MODULES
        ))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--details", action="store_true")
    parser.add_argument("--limit", type=int, default=-1, help="doctor only the first N images")
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--barcodes", action="store_true", help="the barcode ladder only")
    parser.add_argument("--forensics-only", action="store_true", help="copies: forensic checks")
    args = parser.parse_args()
    names = sorted(json.loads(TRUTH.read_text())["images"])
    if args.barcodes:
        with tempfile.TemporaryDirectory() as folder:
            bench_barcodes(extract(args.mirrors, names, Path(folder)))
        return
    rows: list[dict[str, object]] = []
    genuine_alarms: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    seconds: list[float] = []
    resaved_alarms: Counter[str] = Counter()
    resaved_count = 0
    judge = forensics_only if args.forensics_only else (lambda data: run(data)[0])
    with tempfile.TemporaryDirectory() as folder:
        paths = extract(args.mirrors, names, Path(folder))
        face = Image.open(paths["pe_0_pass-lva.jpg"]).convert("RGB").crop((200, 150, 450, 450))
        for index, (name, path) in enumerate(sorted(paths.items())):
            data = path.read_bytes()
            found, spent = run(data)
            seconds.append(spent)
            raised = alarms(found)
            genuine_alarms.update(list(raised))
            rows.append({"image": name, "edit": None, "alarms": raised, **signals(found)})
            if args.details:
                print(f"{name:28} {sorted(raised) or '-'} {signals(found)}", flush=True)
            if 0 <= args.limit <= index:
                continue
            image = Image.open(io.BytesIO(data)).convert("RGB")
            for how, copy in resaved(image).items():
                raised = alarms(judge(copy))
                resaved_count += 1
                resaved_alarms.update(list(raised))
                rows.append({"image": name, "edit": f"resaved_{how}", "alarms": raised})
                if args.details and raised:
                    print(f"  re-saved {how:8} ALARM {raised}")
            for edit, make in EDITS.items():
                doctored, _fmt = make(image, face) if edit == "pasted_photo" else make(image)
                found = judge(doctored)
                raised = alarms(found)
                hit = any(check in raised for check in CAUGHT_BY[edit])
                tried[edit] += 1
                caught[edit] += hit
                rows.append({"image": name, "edit": edit, "alarms": raised, **signals(found)})
                if args.details:
                    print(f"  {edit:16} {'caught' if hit else 'MISSED'} {sorted(raised)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))
    print(
        f"\ngenuine images: {len(paths)}; median CPU per image {statistics.median(seconds):.2f} s"
    )
    clean = sum(1 for r in rows if r["edit"] is None and not r["alarms"])
    print(f"genuine images without any alarm: {clean}")
    for check, count in sorted(genuine_alarms.items()):
        print(f"  alarm on genuine: {check:20} {count}")
    print(f"genuine copies re-saved (JPEG 75, 90, 95, PNG): {resaved_count}")
    for check, count in sorted(resaved_alarms.items()):
        print(f"  alarm on a re-saved genuine copy: {check:20} {count}")
    for edit in EDITS:
        print(f"  doctored {edit:16} caught {caught[edit]}/{tried[edit]}")
    recompressed = Counter(
        str(r["edit"]) for r in rows if r["edit"] and "recompression" in r["alarms"]
    )
    traced = Counter(str(r["edit"]) for r in rows if r["edit"] and r.get("recompression.traced"))
    print("recompression alarms by copy: " + ", ".join(f"{k} {v}" for k, v in recompressed.items()))
    print(
        "(earlier save traced, by copy: " + ", ".join(f"{k} {v}" for k, v in traced.items()) + ")"
    )


if __name__ == "__main__":
    main()
