"""Each format's date is the publisher's, read from inside its files (lists/published.py):
never the day the files were fetched. A file set without one has no date, and a version that
says nothing of its age."""

from __future__ import annotations

import csv
import io

import pytest

from hakiki.engines.screening.model import ListSnapshot
from hakiki.lists.published import legacy_published
from hakiki.lists.sources import ListSource, parse_source, undated_version
from hakiki.lists.store import files_digest
from tests.lists.server import TEST_DATA, un_xml

FETCH_DAY = "2026-11-27"  # what the download day would have said


def parsed(
    fmt: str, files: dict[str, bytes], checks: frozenset[str] = frozenset({"sanction"})
) -> ListSnapshot:
    source = ListSource(
        code="x", title="X", format=fmt, files=dict.fromkeys(files, "u"), checks=checks
    )
    return parse_source(source, files, fallback_version=undated_version(files_digest(files)))


@pytest.mark.parametrize(
    ("fmt", "role", "name", "published"),
    [
        ("ftm_json", "json", "ftm_wd_persons_sa_sample.ftm.json", "2024-03-14"),
        ("ftm_json", "json", "ftm_zala.ftm.json", "2026-04-29"),
        ("senzing_json", "json", "senzing_us_congress_sample.json", "2025-12-08"),
        ("uk_csv", "csv", "uk_conlist_sample.csv", "2020-02-20"),
        ("eu_xml", "xml", "eu_fsf_sample.xml", None),  # checked below: the file's own date
    ],
)
def test_dated_formats_take_the_date_inside_the_file(
    fmt: str, role: str, name: str, published: str | None
) -> None:
    snapshot = parsed(fmt, {role: (TEST_DATA / name).read_bytes()}, frozenset({"pep"}))
    assert snapshot.published is not None and snapshot.published != FETCH_DAY
    if published is not None:
        assert snapshot.published == published
    assert snapshot.version == snapshot.published


def test_un_bis_and_targets_simple_csv() -> None:
    un = parsed("un_xml", {"xml": un_xml(date="2025-01-02")})
    assert un.published == un.version == "2025-01-02"
    bis = parsed("bis_dpl", {"txt": (TEST_DATA / "bis_dpl_2022-09.txt").read_bytes()})
    assert bis.published is not None and bis.published.startswith("2022-")  # its Last_Update
    rows = [
        ["id", "schema", "name", "last_change"],
        ["a", "Person", "Ann Example", "2025-03-04T10:00:00"],
        ["b", "Person", "Bo Example", "2025-06-07T11:00:00"],
    ]
    text = io.StringIO()
    csv.writer(text).writerows(rows)
    targets = parsed("targets_simple_csv", {"csv": text.getvalue().encode()})
    assert targets.published == targets.version == "2025-06-07"
    text = io.StringIO()
    csv.writer(text).writerows([row[:3] for row in rows])  # an export without the column
    undated = parsed("targets_simple_csv", {"csv": text.getvalue().encode()})
    assert undated.published is None and undated.version.startswith("sha256-")


def test_ofac_csv_files_carry_no_date() -> None:
    files = {
        role: (TEST_DATA / f"ofac_cons_{role}.csv").read_bytes() for role in ("prim", "alt", "add")
    }
    snapshot = parsed("ofac_consolidated_csv", files)
    assert snapshot.published is None
    assert snapshot.version == undated_version(files_digest(files))  # the files, not a day
    assert snapshot.version.startswith("sha256-") and len(snapshot.version) == 19


def test_versions_stored_before_dates_were_recorded() -> None:
    assert legacy_published({"format": "un_xml", "version": "2026-02-27"}) == "2026-02-27"
    # OFAC's version was the download day: not a publication date
    assert legacy_published({"format": "ofac_csv", "version": "2026-11-20"}) is None
    assert legacy_published({"format": "ftm_json", "version": "2026-11-20"}) is None
    assert legacy_published({"format": "ofac_csv", "published": None}) is None
