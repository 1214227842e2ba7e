"""The document pipeline: quality, zone, barcodes, consistency, forensics and the printed page
against the zone (visual_zone), each a check with its status and reason, and the verdict they
give (the face checks are added by the caller, which holds the face models and the fraud bank).

Verdict: any check ``failed`` rejects the document; any ``attention`` asks a person to look;
otherwise it is clear. A photo too poor to judge (quality problems, or no zone where the
document type carries one) answers ``attention`` with ``retryable`` and the reason, so the
user can take it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

import numpy as np

from hakiki.engines.documents import barcodes, consistency, forensics, quality, visual_zone
from hakiki.engines.documents.text_ocr import TextLine, read_printed
from hakiki.engines.documents.zone import TRIM, WORK_WIDTH, Scan, ZoneReading, scan, straighten
from hakiki.engines.mrz.zones import Zone

Status = Literal["passed", "attention", "failed", "not_run"]
Category = Literal["quality", "mrz", "barcode", "consistency", "forensics", "face"]
Verdict = Literal["clear", "attention", "rejected"]
ZONE_EXPECTED = frozenset({"passport", "national_id", "residence_permit", "visa"})
# Check digits that fail on glyphs read this surely are what is printed, not a misreading.
SURE_READING = 0.8
ELA_ATTENTION = 25.0  # the worst block's error level over the median's (clean photos: 5-21)


@dataclass(frozen=True)
class Check:
    name: str
    category: Category
    status: Status
    reason: str
    signals: dict[str, float | int | str | bool | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Side:
    """One uploaded image: its field name, bytes, format and decoded RGB pixels."""

    field: str
    data: bytes
    format: str
    pixels: np.ndarray
    original_size: tuple[int, int]


@dataclass
class Analysis:
    checks: list[Check]
    zone: Zone | None
    codes: list[barcodes.Barcode]
    retry_reasons: list[str]


def verdict(checks: list[Check]) -> Verdict:
    """A photo too poor to judge is never rejected on what was read from it: attention."""
    if any(c.category == "quality" and c.status == "attention" for c in checks):
        return "attention"
    statuses = {c.status for c in checks}
    if "failed" in statuses:
        return "rejected"
    return "attention" if "attention" in statuses else "clear"


# The share of the sent image's width the reader read, by how it found the zone.
_SHARE_READ = {"whole": 1.0, "turned": 1.0, "half": 0.5, "trimmed": 1 - 2 * TRIM}


def _zone_box(side: Side, scanned: Scan) -> quality.ZoneBox | None:
    """Where the zone lies in the reader's straightened image, and the scale back to the sent
    image (the reader turns the image, then scales it to ``WORK_WIDTH`` along the text)."""
    reading = scanned.reading
    # A flattened photo's scale is the document outline's, unknown here: judged as no zone.
    if reading is None or scanned.zone_rows is None or reading.located not in _SHARE_READ:
        return None
    width, height = side.original_size
    along = (height if reading.rotation in (90, 270) else width) * _SHARE_READ[reading.located]
    top, bottom = scanned.zone_rows
    return quality.ZoneBox(top, bottom, len(reading.lines), along / WORK_WIDTH)


def _quality(side: Side, scanned: Scan, retry: list[str]) -> Check:
    found = quality.assess(
        side.pixels, np.asarray(scanned.straight), side.original_size, _zone_box(side, scanned)
    )
    signals: dict[str, float | int | str | bool | None] = {
        "short_side": found.short_side,
        "zone_glyph_height": found.glyph_height,
        "sharpness": found.sharpness,
        "brightness": found.brightness,
        "glare": found.glare,
    }
    if found.acceptable:
        return Check(f"{side.field}.quality", "quality", "passed", "good enough to judge", signals)
    retry.extend(f"{side.field}: {problem}" for problem in found.problems)
    return Check(
        f"{side.field}.quality", "quality", "attention", "; ".join(found.problems), signals
    )


def _zone_check(scanned: Scan | None, document_type: str, retry: list[str]) -> Check:
    reading = scanned.reading if scanned else None
    if reading is None:
        if document_type in ZONE_EXPECTED:
            retry.append(
                "the machine-readable zone could not be read; photograph the whole document, "
                "flat, in good light"
            )
            return Check("mrz", "mrz", "attention", "no machine-readable zone could be read")
        return Check("mrz", "mrz", "not_run", f"a {document_type} carries no zone")
    zone = reading.zone
    signals: dict[str, float | int | str | bool | None] = {
        "layout": zone.layout,
        "confidence": reading.confidence,
        "skew_degrees": reading.skew_degrees,
        "rotation": reading.rotation,
        "located": reading.located,
    }
    if zone.sure:
        return Check(
            "mrz", "mrz", "passed", f"{zone.layout} zone read; every check digit holds", signals
        )
    if zone.valid:
        # Check digits hold, but on one of several readings: never passed (issue 32).
        unsure = ", ".join(d.field for d in zone.unsure)
        signals["unsure_fields"] = unsure
        retry.append("some characters of the zone could be read two ways; take a sharper photo")
        return Check(
            "mrz",
            "mrz",
            "attention",
            f"check digits hold, but the zone reads more than one way: {unsure} unsure "
            "(document.unsure lists the candidates)",
            signals,
        )
    failed = ", ".join(f.field for f in zone.failures)
    signals["failed_check_digits"] = failed
    if _sure(reading):
        return Check("mrz", "mrz", "failed", f"check digits do not hold: {failed}", signals)
    retry.append("the zone was read unsurely; take a sharper photo")
    return Check(
        "mrz",
        "mrz",
        "attention",
        f"check digits do not hold ({failed}) on an unsure reading",
        signals,
    )


def _sure(reading: ZoneReading) -> bool:
    """A reading sure enough that failing check digits are the document's: the glyph matcher's
    (alone or fused) above ``SURE_READING``. The recogniser alone is never: a digit it misread
    surely is likelier than a forged check digit in the photos only it can read."""
    return reading.confidence >= SURE_READING and "glyphs" in reading.readers


def _consistency(
    zone: Zone | None, document_type: str, country: str | None, today: date
) -> list[Check]:
    if zone is None:
        return [Check("consistency", "consistency", "not_run", "no zone was read")]
    checks = []
    for finding in consistency.check(zone, document_type, country, today):
        status: Status = (
            "not_run" if finding.passed is None
            else "passed" if finding.passed
            else "failed" if finding.severe
            else "attention"
        )  # fmt: skip
        checks.append(Check(finding.check, "consistency", status, finding.reason))
    return checks


def _forensics(side: Side, scanned: Scan) -> list[Check]:
    found = forensics.examine(side.data, side.format, scanned.straight, scanned.zone_rows)
    name = side.field
    checks = [
        Check(f"{name}.editing_software", "forensics", "attention" if found.edited else "passed",
              f"the metadata names {found.software}" if found.edited else "no editor named",
              {"software": found.software}),
        Check(f"{name}.copy_move", "forensics", "attention" if found.copy_move else "passed",
              "a region appears twice in the image" if found.copy_move else "no region repeated",
              {"blocks": found.copy_move_blocks}),
        Check(f"{name}.screen", "forensics", "attention" if found.screen else "passed",
              ("a screenshot" if found.screenshot else "a photo of a screen (moiré)")
              if found.screen else "a photo of a physical document",
              {"moire": found.moire, "screenshot": found.screenshot}),
    ]  # fmt: skip
    checks.append(_recompression_check(name, found.recompression))
    if found.error_level_ratio is None:
        checks.append(Check(f"{name}.error_level", "forensics", "not_run", "not a JPEG"))
    else:
        high = found.error_level_ratio >= ELA_ATTENTION
        checks.append(
            Check(f"{name}.error_level", "forensics", "attention" if high else "passed",
                  "one region re-compresses unlike the rest" if high else "even error levels",
                  {"ratio": found.error_level_ratio})
        )  # fmt: skip
    return checks


def _recompression_check(name: str, traced: forensics.Recompression) -> Check:
    signals: dict[str, float | int | str | bool | None] = {
        "traced": traced.traced,
        "frequencies": traced.frequencies,
        "off_lattice": traced.base,
        "region_score": traced.score,
        "region_windows": traced.windows,
        "region": ",".join(map(str, traced.box)) if traced.box and traced.region else None,
    }
    check = f"{name}.recompression"
    if not traced.traced:
        # No earlier save to compare regions by: unsure, which is no concern about the document.
        return Check(check, "forensics", "not_run",
                     "no earlier JPEG save traced (saved once, lossless, or first saved finer): "
                     "a pasted or redrawn region cannot be told this way", signals)  # fmt: skip
    if traced.region:
        left, top, right, bottom = traced.box or (0, 0, 0, 0)
        return Check(check, "forensics", "attention",
                     f"a region of {right - left} x {bottom - top} px at ({left}, {top}) lacks the "
                     "earlier JPEG save the rest of the image carries: pasted or redrawn "
                     "between two saves", signals)  # fmt: skip
    return Check(check, "forensics", "passed",
                 "the whole image carries the same earlier JPEG save", signals)  # fmt: skip


def _printed_lines(scanned: Scan, zone_scan: Scan | None) -> list[TextLine]:
    """The printed lines of one side, straightened as the zone reader left it (the zone's own
    lines, read already, are not recognised again)."""
    leave_out = scanned.zone_rows if scanned is zone_scan else None
    return read_printed(np.asarray(scanned.straight), leave_out=leave_out)


def visual_zone_check(scans: list[Scan], zone_scan: Scan | None, zone: Zone | None) -> Check:
    """The printed page against the zone, side by side (the front first; the back only when
    the front does not settle it)."""
    name = "visual_zone"
    if zone is None:
        return Check(name, "consistency", "not_run", "no zone was read to compare the print with")
    comparison: visual_zone.Comparison | None = None
    for scanned in scans:
        read = visual_zone.compare(_printed_lines(scanned, zone_scan), zone)
        comparison = read if comparison is None else comparison.joined(read)
        if comparison.confirmed:
            break
    assert comparison is not None
    signals: dict[str, float | int | str | bool | None] = {
        "lines": comparison.lines,
        **comparison.outcomes,
    }
    matched, differing, missing = (
        comparison.fields(outcome) for outcome in ("match", "mismatch", "not_found")
    )
    if not comparison.lines:
        return Check(name, "consistency", "not_run", "no printed text was read", signals)
    said = "; ".join(
        f"{words}: {', '.join(fields)}"
        for words, fields in (
            ("printed otherwise than in the zone", differing),
            ("not found in the print", missing),
            ("printed as in the zone", matched),
        )
        if fields
    )
    if differing:
        signals["outcome"] = "differs"
        return Check(name, "consistency", "attention", said, signals)
    if comparison.confirmed:
        signals["outcome"] = "confirmed"
        return Check(name, "consistency", "passed", said, signals)
    # Nothing read differs, but the number, surname and birth date are not all confirmed: the
    # comparison did not run to its end, which is no concern about the document (a card's back
    # sent alone, small print): not passed, and no reason to ask a person (docs/decisions.md).
    signals["outcome"] = "partial"
    return Check(name, "consistency", "not_run", f"compared in part: {said}", signals)


def _barcode_check(codes: list[barcodes.Barcode], zone: Zone | None) -> Check:
    if not codes:
        return Check("barcode", "barcode", "not_run", "no PDF417 or QR code found")
    formats = ", ".join(sorted({c.format for c in codes}))
    carries = barcodes.names_number(codes, zone.document_number if zone else "")
    signals: dict[str, float | int | str | bool | None] = {
        "formats": formats,
        "names_document_number": carries,
    }
    if carries is False:
        return Check(
            "barcode",
            "barcode",
            "attention",
            f"{formats} read; it does not carry the zone's document number",
            signals,
        )
    return Check("barcode", "barcode", "passed", f"{formats} read", signals)


def analyse(
    front: Side, back: Side | None, document_type: str, country: str | None, today: date
) -> Analysis:
    retry: list[str] = []
    sides = [front] + ([back] if back else [])
    # An identity card's zone is on its back: read that side first (a passport's page and a
    # visa's sticker carry theirs on the front).
    order = sides if document_type in ("passport", "visa") else list(reversed(sides))
    scans: dict[str, Scan] = {}
    zone_scan: Scan | None = None
    for side in order:  # once a side's zone is read, the others are only straightened
        searched = document_type in ZONE_EXPECTED
        scans[side.field] = (
            straighten(side.pixels) if zone_scan else scan(side.pixels, search=searched)
        )
        if scans[side.field].reading is not None:
            zone_scan = scans[side.field]
    reading = zone_scan.reading if zone_scan else None
    # What an unsure reading says (check digits failing) is not the document's: not used.
    sure = reading is not None and (reading.zone.valid or _sure(reading))
    zone = reading.zone if reading is not None and sure else None
    checks = [_quality(side, scans[side.field], retry) for side in sides]
    checks.append(_zone_check(zone_scan, document_type, retry))
    codes = [code for side in sides for code in barcodes.read(side.pixels)][: barcodes.MAX_CODES]
    checks.append(_barcode_check(codes, zone))
    checks.extend(_consistency(zone, document_type, country, today))
    for side in sides:
        checks.extend(_forensics(side, scans[side.field]))
    checks.append(visual_zone_check([scans[side.field] for side in sides], zone_scan, zone))
    return Analysis(checks, zone, codes, retry)
