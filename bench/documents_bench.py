"""Benchmark the document pipeline (``hakiki.engines.documents``) on one core.

Documents: the two ICAO specimens of tests/data/documents/ and TD1 cards rendered by
tests/documents/specimens.py (straight, rotated 6 and -9 degrees with blur, upside down, and with
a PDF417 back), each ``--repeat`` times. Per document: decode with the upload guards, then the
whole of ``analyse`` (zone found, deskewed and read; quality; barcodes; consistency; forensics);
p50 and p90 of CPU time (process time: what one core spends, whatever else runs on the
machine), and the p50 of each stage measured on its own.

    uv run --group dev python bench/documents_bench.py
    uv run --group dev python bench/documents_bench.py --repeat 10 --faces

BLAS threads default to 1 (set before numpy is imported). The face match (a selfie) is the face
engine's cost on top: bench/face_bench.py.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 50) * 1000:7.1f} ms  p90 {percentile(values, 90) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--faces", action="store_true", help="also time the selfie match")
    args = parser.parse_args()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(args.threads)

    import numpy as np
    from tests.documents.specimens import TD1_KENYA, TD1_UTOPIA, render_card
    from tests.documents.test_verify import _card_with_barcode

    from hakiki.engines.documents import barcodes, forensics, quality
    from hakiki.engines.documents.ocrb import templates
    from hakiki.engines.documents.verify import Side, analyse
    from hakiki.engines.documents.zone import scan
    from hakiki.engines.face.images import load_image

    data = ROOT / "tests" / "data" / "documents"
    documents = [
        ("td3 specimen", "passport", (data / "pe-passport-td3.jpg").read_bytes(), None),
        ("td2 specimen", "national_id", (data / "pe-passport-td2.jpg").read_bytes(), None),
        ("td1 straight", "national_id", render_card(TD1_KENYA), None),
        ("td1 6deg blur", "national_id", render_card(TD1_UTOPIA, angle=6, blur=1.2), None),
        ("td1 -9deg blur", "national_id", render_card(TD1_KENYA, angle=-9, blur=1.5), None),
        ("td1 upside down", "national_id", render_card(TD1_KENYA, angle=180, blur=1), None),
        ("td1 + PDF417 back", "national_id", _card_with_barcode("ANCI 123456789"),
         render_card(TD1_KENYA, angle=4)),
    ]  # fmt: skip
    started = time.process_time()
    templates()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, BLAS threads {args.threads}")
    print(f"OCR-B glyphs rendered in {(time.process_time() - started) * 1000:.0f} ms")
    totals: list[float] = []
    walls: list[float] = []
    stages: dict[str, list[float]] = {
        k: [] for k in ("decode", "zone", "quality", "barcodes", "forensics")
    }
    for label, kind, front, back in documents:
        own: list[float] = []
        for _ in range(args.repeat):
            w0, t0 = time.perf_counter(), time.process_time()
            image = load_image(front, max_bytes=1 << 20, max_side=2000)
            sides = [Side("front_image", front, image.format, image.pixels, image.original_size)]
            if back is not None:
                other = load_image(back, max_bytes=1 << 20, max_side=2000)
                sides.append(
                    Side("back_image", back, other.format, other.pixels, other.original_size)
                )
            t1 = time.process_time()
            result = analyse(sides[0], sides[1] if back else None, kind, "KE", date(2026, 11, 24))
            t2 = time.process_time()
            walls.append(time.perf_counter() - w0)
            own.append(t2 - t0)
            stages["decode"].append(t1 - t0)
            seen = scan(image.pixels)
            t3 = time.process_time()
            quality.assess(image.pixels, np.asarray(seen.straight), image.original_size)
            t4 = time.process_time()
            barcodes.read(image.pixels)
            t5 = time.process_time()
            forensics.examine(front, image.format, seen.straight, seen.zone_rows)
            t6 = time.process_time()
            stages["zone"].append(t3 - t2)
            stages["quality"].append(t4 - t3)
            stages["barcodes"].append(t5 - t4)
            stages["forensics"].append(t6 - t5)
        totals.extend(own)
        zone = result.zone
        read = f"{zone.layout} {zone.document_number}" if zone else "no zone"
        print(f"  {label:18} {ms(own)}  {read}")
    print("stages (front image):")
    for name, values in stages.items():
        print(f"  {name:10} {ms(values)}")
    print(f"per document, {len(totals)} runs: CPU {ms(totals)}")
    print(f"                        wall {ms(walls)} (load average {os.getloadavg()[0]:.1f})")
    if args.faces:
        from hakiki.engines.face import FaceEmbedder

        embedder = FaceEmbedder()
        faces = ROOT / "tests" / "engines" / "face" / "data"
        card = render_card(TD1_KENYA, angle=4, portrait=(faces / "obama.jpg").read_bytes())
        selfie = (faces / "obama2.jpg").read_bytes()
        matches: list[float] = []
        for _ in range(args.repeat):
            t0 = time.process_time()
            embedder.embed_bytes(card)
            embedder.embed_bytes(selfie)
            matches.append(time.process_time() - t0)
        print(f"face match (portrait and selfie embedded), CPU {ms(matches)}")


if __name__ == "__main__":
    main()
