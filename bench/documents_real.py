"""Machine-readable zones of real document images: Hakiki's reader beside PassportEye, one run.

Images: the public scans, photos and renders of konstantint/PassportEye (MIT; its
passporteye/mrz/testdata and tests/data) and yushulx/python-mrz-scanner-sdk (MIT), read from
their git mirrors (``--mirrors``, default /work/.mirror); the zones, transcribed by eye and
checked digit by digit, are in bench/data/documents_real_truth.json.

A second table: our own rendered documents (tests/documents/specimens.py) photographed by
tests/documents/camera.py (perspective, rotation by any angle, a curved page, glare, a thumb,
small and soft, upside down; phone JPEG), read by the same readers in the same run.

Per image and per reader: zone found; each of seven fields right (document number, issuing
state, nationality, birth date, sex, expiry date, name); the document number's check digit
holding (and the number not reported unsure) while the number is wrong, the worst answer;
CPU time of the reading, the processes it starts included (Hakiki: ``scan`` on one BLAS thread;
PassportEye: ``read_mrz`` with one Tesseract thread, in its own interpreter).

    OMP_NUM_THREADS=1 uv run --group dev python bench/documents_real.py \
        --passporteye /work/venv-pe/bin/python --before /work/main/src  # main, same run

PassportEye (MIT, needs Tesseract) is not a dependency of Hakiki: install it in its own venv.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TRUTH = ROOT / "bench" / "data" / "documents_real_truth.json"
FIELDS = ("number", "state", "nationality", "birth", "sex", "expiry", "name")
_SOURCES = {  # file-name prefix: mirror, folders to look in
    "pe_": ("konstantint+PassportEye", ("passporteye/mrz/testdata/", "tests/data/")),
    "yu_": ("yushulx+python-mrz-scanner-sdk",
            ("images/", "examples/official/kyc-api/test_images/")),
}  # fmt: skip

_PASSPORTEYE = r"""
import json, os, sys
from passporteye import read_mrz
def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
for path in sys.argv[1:]:
    started = cpu()
    try:
        m = read_mrz(path)
    except Exception:
        m = None
    spent = cpu() - started
    row = {"path": path, "seconds": spent, "read": None}
    if m is not None:
        row["read"] = {"number": m.number, "state": m.country, "nationality": m.nationality,
                       "birth": m.date_of_birth, "sex": m.sex, "expiry": m.expiration_date,
                       "name": m.surname + " " + m.names, "number_holds": bool(m.valid_number)}
    print(json.dumps(row), flush=True)
"""


def extract(mirrors: Path, names: list[str], into: Path) -> dict[str, Path]:
    found = {}
    for name in names:
        mirror, folders = _SOURCES[name[:3]]
        git_dir = mirrors / mirror / "repo"
        for folder in folders:
            shown = subprocess.run(
                ["git", "--git-dir", str(git_dir), "show", f"HEAD:{folder}{name[3:]}"],
                capture_output=True,
            )
            if shown.returncode == 0:
                (into / name).write_bytes(shown.stdout)
                found[name] = into / name
                break
    return found


def truth_fields(lines: list[str]) -> dict[str, str]:
    """The seven fields by their positions in the zone (as printed, even when not ICAO-clean)."""
    if len(lines) == 3:
        first, second, third = lines
        number, state, name = first[5:14], first[2:5], third
        birth, sex, expiry, nationality = second[0:6], second[7], second[8:14], second[15:18]
    else:
        first, second = lines
        number, state, name = second[0:9], first[2:5], first[5:]
        birth, sex, expiry, nationality = second[13:19], second[20], second[21:27], second[10:13]
    surname, _, given = name.partition("<<")
    return {
        "number": number.rstrip("<"),
        "state": state.rstrip("<"),
        "nationality": nationality.rstrip("<"),
        "birth": birth,
        "sex": "X" if sex == "<" else sex,
        "expiry": expiry,
        "name": _name(surname.replace("<", " ") + " " + given.replace("<", " ")),
    }


def _name(text: str) -> str:
    return " ".join(text.replace("<", " ").split())


# Documents photographed for the second table: ICAO's Utopia specimens and zeros everywhere.
def camera_photos(into: Path) -> tuple[dict[str, Path], dict[str, tuple[str, ...]]]:
    from tests.documents.camera import SHOTS, photograph
    from tests.documents.specimens import TD1_KENYA, TD1_UTOPIA, render_card
    from tests.engines.documents.test_unsure import ZEROS

    td3_utopia = (
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    )
    documents = {"td3-uto": td3_utopia, "td1-uto": TD1_UTOPIA, "td1-ken": TD1_KENYA,
                 "td3-zeros": ZEROS[1], "td1-zeros": ZEROS[4]}  # fmt: skip
    paths, lines = {}, {}
    for label, zone in documents.items():
        document = render_card(zone, width=1400, fmt="PNG")
        for shot in SHOTS:
            name = f"cam_{label}_{shot.seed}.jpg"
            (into / name).write_bytes(photograph(document, shot))
            paths[name], lines[name] = into / name, zone
    return paths, lines


def hakiki_reads(paths: dict[str, Path]) -> dict[str, dict]:
    import numpy as np
    from PIL import Image

    from hakiki.engines.documents.ocrb import templates
    from hakiki.engines.documents.zone import scan

    templates()
    try:  # the recogniser is made at its first use (0.6 s): not charged to one image
        from hakiki.engines.documents.text_ocr import _ocr

        _ocr()
    except ImportError:
        pass
    out: dict[str, dict] = {}
    for name, path in paths.items():
        pixels = np.asarray(Image.open(path).convert("RGB"))
        started = time.process_time()
        reading = scan(pixels).reading
        spent = time.process_time() - started
        row: dict = {"seconds": spent, "read": None}
        if reading is not None:
            zone = reading.zone
            unsure = {doubt.field for doubt in getattr(zone, "unsure", ())}
            failed = {f.field for f in zone.failures}
            row["read"] = {
                "number": zone.document_number,
                "state": zone.issuing_state,
                "nationality": zone.nationality,
                "birth": zone.birth_date,
                "sex": zone.sex,
                "expiry": zone.expiry_date,
                "name": _name(zone.surname + " " + zone.given_names),
                "number_holds": "document_number" not in failed and "document_number" not in unsure,
                "unsure": sorted(unsure),
            }
        out[name] = row
    return out


def passporteye_reads(python: str, paths: dict[str, Path]) -> dict[str, dict]:
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    done = subprocess.run(
        [python, "-W", "ignore", "-c", _PASSPORTEYE, *map(str, paths.values())],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    by_path = {str(p): n for n, p in paths.items()}
    out = {}
    for line in done.stdout.splitlines():
        row = json.loads(line)
        read = row["read"]
        if read is not None:
            read["name"] = _name(read["name"])
            read["number"] = read["number"].rstrip("<")
            read["state"] = read["state"].rstrip("<")
            read["nationality"] = read["nationality"].rstrip("<")
        out[by_path[row["path"]]] = row
    return out


def score(truths: dict[str, dict], reads: dict[str, dict], kinds: dict[str, str]) -> dict:
    found = all_right = number_right = wrong_but_valid = layouts = layouts_right = 0
    photos_right = 0
    unsure = 0
    wrong_names = []
    for name, truth in truths.items():
        layouts += kinds[name] != "visa"
        read = reads[name]["read"]
        if read is None:
            continue
        found += 1
        right = {f: read[f] == truth[f] for f in FIELDS}
        all_right += all(right.values())
        layouts_right += kinds[name] != "visa" and all(right.values())
        number_right += right["number"]
        unsure += bool(read.get("unsure"))
        photos_right += kinds[name] == "photo" and all(right.values())
        if read["number_holds"] and not right["number"]:
            wrong_but_valid += 1
            wrong_names.append(f"{name} ({read['number']} for {truth['number']})")
    return {
        "images": len(truths),
        "zone found": found,
        "all seven fields right": all_right,
        "all seven right, TD1/TD2/TD3 (no visas)": (
            f"{layouts_right}/{layouts} ({100 * layouts_right / max(layouts, 1):.0f}%)"
        ),
        "document number right": number_right,
        "number's check digit holds but the number is wrong": wrong_but_valid,
        "a field reported unsure": unsure,
        "camera photos with all fields right": photos_right,
        "median CPU seconds per image": round(
            statistics.median(r["seconds"] for r in reads.values()), 3
        ),
        "wrong but valid": wrong_names,
    }


def table(scores: dict[str, dict]) -> None:
    labels = list(scores)
    print("| | " + " | ".join(labels) + " |")
    print("|---|" + "---|" * len(labels))
    for key in next(iter(scores.values())):
        if key != "wrong but valid":
            print(f"| {key} | " + " | ".join(str(scores[lb][key]) for lb in labels) + " |")
    for label in labels:
        print(f"{label}, wrong but valid: {', '.join(scores[label]['wrong but valid']) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--passporteye", help="a Python interpreter with passporteye installed")
    parser.add_argument("--label", default="Hakiki")
    parser.add_argument("--before", help="another tree's src/ (e.g. main's), read beside this one")
    parser.add_argument("--reads-only", type=Path, help=argparse.SUPPRESS)  # the --before child
    parser.add_argument("--images", type=Path, help=argparse.SUPPRESS)  # name: path, for it
    parser.add_argument("--no-camera", action="store_true", help="the real images only")
    parser.add_argument("--details", action="store_true", help="every image's readings")
    args = parser.parse_args()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    if args.reads_only:
        listed = json.loads(args.images.read_text())
        reads = hakiki_reads({name: Path(path) for name, path in listed.items()})
        args.reads_only.write_text(json.dumps(reads))
        return
    data = json.loads(TRUTH.read_text())["images"]
    kinds = {name: entry["kind"] for name, entry in data.items()}
    with tempfile.TemporaryDirectory() as folder:
        paths = extract(args.mirrors, list(data), Path(folder))
        missing = sorted(set(data) - set(paths))
        if missing:
            sys.exit(f"images not found under {args.mirrors}: {', '.join(missing)}")
        truths = {name: truth_fields(data[name]["lines"]) for name in paths}
        real = set(paths)
        if not args.no_camera:
            photos, zones = camera_photos(Path(folder))
            paths.update(photos)
            truths.update({name: truth_fields(list(zone)) for name, zone in zones.items()})
            kinds.update({name: "photo" for name in photos})
        results = {}
        if args.before:
            out, listed = Path(folder) / "before.json", Path(folder) / "images.json"
            listed.write_text(json.dumps({name: str(path) for name, path in paths.items()}))
            env = dict(os.environ, PYTHONPATH=args.before)
            command = [sys.executable, __file__, "--reads-only", str(out), "--images", str(listed)]
            subprocess.run(command, env=env, check=True)
            results["Hakiki before"] = json.loads(out.read_text())
        results[args.label] = hakiki_reads(paths)
        if args.passporteye:
            results["PassportEye"] = passporteye_reads(args.passporteye, paths)
    for title, names in (("real images", real), ("rendered camera photos", set(paths) - real)):
        if not names:
            continue
        chosen = {name: truths[name] for name in paths if name in names}
        counted = {k: sum(1 for n in chosen if kinds[n] == k) for k in sorted(set(kinds.values()))}
        print(f"\n{title}: {len(chosen)} images: { {k: v for k, v in counted.items() if v} }")
        table(
            {
                label: score(chosen, {n: reads[n] for n in chosen}, kinds)
                for label, reads in results.items()
            }
        )
    if args.details:
        for name in paths:
            print(name, truths[name])
            for label in results:
                print(f"    {label}: {results[label][name]['read']}")


if __name__ == "__main__":
    main()
