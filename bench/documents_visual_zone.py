"""The visual zone against the machine-readable zone on real document images.

The 45 public images of bench/documents_real.py (PassportEye's and python-mrz-scanner-sdk's,
MIT), read from ``--images`` (default /work/real-docs) or else from the git mirrors. For each
image whose zone Hakiki reads right (all seven fields as transcribed in
bench/data/documents_real_truth.json) the printed page is read and compared with the zone, as
``POST /v3/documents/verify`` does; the printed fields are not transcribed, but these documents
are genuine (specimens), so a printed field "differing" from a zone read right is a false
alarm, unless the print itself differs (named in the details).

Per detection size (``--sides``: the longer side of the copy PP-OCR finds lines on; ``native``:
PP-OCR's own sizing on the whole image as decoded, the zone recognised too): how often the
number, surname, birth date (and the other fields) were found and matched, how often the check
passed, the false mismatches, and the CPU seconds of the reading per image (one thread).

``--transcribed``: every image, compared with its transcribed zone (how well the page is read
whatever the zone reader did; where Hakiki reads the zone right, as the endpoint runs it).

    uv run --group dev python bench/documents_visual_zone.py --transcribed \
        --sides 640,800,960,native --details
    uv run --group dev python bench/documents_visual_zone.py  # the endpoint's path, 800
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from documents_real import TRUTH, extract, truth_fields

FIELDS = ("document_number", "surname", "given_names", "birth_date", "expiry_date", "sex")
SEVEN = ("number", "state", "nationality", "birth", "sex", "expiry", "name")


def zone_fields(zone) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {
        "number": zone.document_number,
        "state": zone.issuing_state,
        "nationality": zone.nationality,
        "birth": zone.birth_date,
        "sex": zone.sex,
        "expiry": zone.expiry_date,
        "name": " ".join(f"{zone.surname} {zone.given_names}".split()),
    }


def run(
    paths: dict[str, Path], sides: list[str], details: bool, transcribed: bool
) -> dict[str, dict]:
    import numpy as np

    from hakiki.engines.documents import text_ocr
    from hakiki.engines.documents.verify import SURE_READING, visual_zone_check
    from hakiki.engines.documents.visual_zone import compare
    from hakiki.engines.documents.zone import scan
    from hakiki.engines.face.images import load_image
    from hakiki.engines.mrz.zones import MrzError, parse_text

    data = json.loads(TRUTH.read_text())["images"]
    text_ocr.recognise([np.full((48, 96, 3), 255, np.uint8)])  # the models, loaded once
    rows: dict[str, dict] = {side: {} for side in sides}
    for name, path in paths.items():
        image = load_image(path.read_bytes(), max_side=2000)
        scanned = scan(image.pixels)
        reading = scanned.reading
        sure = reading is not None and (reading.zone.valid or reading.confidence >= SURE_READING)
        right = sure and zone_fields(reading.zone) == truth_fields(data[name]["lines"])
        if transcribed:
            try:
                zone = parse_text(data[name]["lines"])
            except MrzError:
                continue  # a visa
        elif right and reading is not None:
            zone = reading.zone
        else:
            continue
        rows_found = scanned.zone_rows if right else None
        for side in sides:
            started = time.process_time()
            if side == "native":
                comparison = compare(text_ocr.read_text(image.pixels), zone)
                status = None
            elif int(side) == text_ocr.DETECT_SIDE and right:
                check = visual_zone_check([scanned], scanned, zone)  # as the endpoint runs it
                comparison, status = None, check
            else:
                lines = text_ocr.read_printed(
                    np.asarray(scanned.straight), detect_side=int(side), leave_out=rows_found
                )
                comparison, status = compare(lines, zone), None
            spent = time.process_time() - started
            if status is not None:
                outcomes = {f: status.signals[f] for f in FIELDS}
                passed, lines_read = status.status == "passed", status.signals["lines"]
            else:
                assert comparison is not None
                outcomes, passed = dict(comparison.outcomes), comparison.confirmed
                lines_read = comparison.lines
            rows[side][name] = {
                "seconds": spent,
                "outcomes": outcomes,
                "passed": passed,
                "lines": lines_read,
            }
            if details:
                said = " ".join(f"{f}={o}" for f, o in outcomes.items())
                kind = data[name]["kind"]
                print(f"{side:>6} {name:28s} {kind:6s} {spent:5.2f}s {said}", flush=True)
    return rows


def table(rows: dict[str, dict]) -> None:
    sides = list(rows)
    print("| detection size | " + " | ".join(sides) + " |")
    print("|---|" + "---|" * len(sides))
    images = {side: len(r) for side, r in rows.items()}
    print("| images compared | " + " | ".join(str(images[s]) for s in sides) + " |")
    for field in FIELDS:
        cells = [sum(r["outcomes"][field] == "match" for r in rows[s].values()) for s in sides]
        print(f"| {field} printed as in the zone | " + " | ".join(map(str, cells)) + " |")
    cells = [sum(r["passed"] for r in rows[s].values()) for s in sides]
    print("| check passed (number, surname, birth date) | " + " | ".join(map(str, cells)) + " |")
    cells = [
        sum(any(o == "mismatch" for o in r["outcomes"].values()) for r in rows[s].values())
        for s in sides
    ]
    print("| **a field read as differing** | " + " | ".join(map(str, cells)) + " |")
    cells = [
        sum(
            not r["passed"] and "mismatch" not in r["outcomes"].values() and bool(r["lines"])
            for r in rows[s].values()
        )
        for s in sides
    ]
    print("| attention: read in part, nothing differing | " + " | ".join(map(str, cells)) + " |")
    for label, pick in (("median", statistics.median), ("max", max)):
        cells = [f"{pick(r['seconds'] for r in rows[s].values()):.2f} s" for s in sides]
        print(f"| {label} CPU per image | " + " | ".join(cells) + " |")
    for side in sides:
        flagged = [
            f"{name} ({', '.join(f for f, o in r['outcomes'].items() if o == 'mismatch')})"
            for name, r in rows[side].items()
            if "mismatch" in r["outcomes"].values()
        ]
        print(f"{side}: differing: {', '.join(flagged) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=Path, default=Path("/work/real-docs"))
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--sides", default="800", help="detection sizes, e.g. 640,800,native")
    parser.add_argument("--only", help="a comma-separated list of image names")
    parser.add_argument("--details", action="store_true")
    parser.add_argument(
        "--transcribed",
        action="store_true",
        help="compare with the transcribed zone on every image (not only where Hakiki reads it)",
    )
    args = parser.parse_args()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    names = list(json.loads(TRUTH.read_text())["images"])
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        if args.images.is_dir():
            paths = {n: args.images / n for n in names if (args.images / n).exists()}
        else:
            paths = extract(args.mirrors, names, Path(folder))
        rows = run(paths, args.sides.split(","), args.details, args.transcribed)
    print(f"{len(paths)} images")
    table(rows)


if __name__ == "__main__":
    main()
