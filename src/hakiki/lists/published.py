"""The publisher's date of a list version, read from inside its files, never the download day.

* UN XML ``dateGenerated``, EU ``generationDate`` / ``fileGenerationDate``, the UK CSVs'
  ``Report Date`` (else the latest ``Last Updated``), OFAC XML ``Publish_Date``, BIS DPL's
  latest ``Last_Update``: their parsers make it the version.
* OpenSanctions FtM and Senzing exports: the newest ``last_change`` / ``LAST_CHANGE`` of an
  entity; ``targets.simple.csv``: the newest ``last_change`` column, when the file has one.
* OFAC's legacy CSV files carry no date: unknown (None), and so is their age.
"""

from __future__ import annotations

import csv
import io
import re

from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers.common import parse_iso_date

# Formats whose parser reads the publication date into the version (when given none).
DATED_BY_PARSER = frozenset({"un_xml", "uk_csv", "eu_xml", "eu_csv", "ofac_xml", "bis_dpl"})
UNDATED = frozenset({"ofac_csv", "ofac_consolidated_csv"})
_FULL_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_JSON_LAST_CHANGE = re.compile(rb'"(?:last_change|LAST_CHANGE)"\s*:\s*"(\d{4}-\d{2}-\d{2})')


def is_full_date(text: str | None) -> bool:
    return bool(text and _FULL_DATE.fullmatch(text))


def published_date(fmt: str, files: dict[str, bytes], snapshot: ListSnapshot) -> str | None:
    """The publisher's date of the version parsed into ``snapshot`` from ``files`` (ISO
    ``YYYY-MM-DD``), or None when the files carry none."""
    if fmt in DATED_BY_PARSER:
        return snapshot.version if is_full_date(snapshot.version) else None
    if fmt in ("ftm_json", "senzing_json"):
        return _newest_json_change(files["json"])
    if fmt == "targets_simple_csv":
        return _newest_csv_change(files["csv"])
    return None


def _newest_json_change(data: bytes) -> str | None:
    newest = max((m.group(1) for m in _JSON_LAST_CHANGE.finditer(data)), default=None)
    return newest.decode() if newest else None


def _newest_csv_change(data: bytes) -> str | None:
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", errors="replace", newline="")
    reader = csv.DictReader(text)
    if "last_change" not in (reader.fieldnames or ()):
        return None
    dates = (parse_iso_date(row.get("last_change")) for row in reader)
    return max((d for d in dates if d and is_full_date(d)), default=None)


def legacy_published(manifest: dict[str, object]) -> str | None:
    """The publisher's date of a version stored before manifests recorded it: the version of
    a format whose parser reads the date into it, else unknown."""
    if "published" in manifest:
        value = manifest["published"]
        return str(value) if value else None
    version = str(manifest.get("version") or "")
    if manifest.get("format") in DATED_BY_PARSER and is_full_date(version):
        return version
    return None
