"""OpenSanctions exports through `lists update`: FollowTheMoney JSON lines, targets.simple.csv
and Senzing JSON, from a local path or a URL the operator gives (issue 33)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hakiki.core.settings import Settings
from hakiki.engines.screening import Subject
from hakiki.lists import store
from hakiki.lists.loading import build_current_engine
from hakiki.lists.service import update_lists
from hakiki.lists.sources import ListsConfig, configured_sources, parse_source
from tests.lists.server import TEST_DATA, ListServer

# Fictional targets in the publisher's column layout (one Sanction row, which is skipped).
TARGETS = (
    '"id","schema","name","aliases","birth_date","countries","addresses","identifiers",'
    '"sanctions","phones","emails","dataset","first_seen","last_seen","last_change"\n'
    '"t-1","Person","Zawadi Nyokabi Mwangangi","Zawadi Mwangangi;Z. N. Mwangangi",'
    '"1971-03-02;1972","ke;tz","","A1234567","Fictional programme","","","Fictional",'
    '"2024-01-01","2024-01-02","2024-01-02"\n'
    '"t-2","Company","Kilima Ndogo Trading Ltd","","","ug","","","","","","Fictional",'
    '"2024-01-01","2024-01-02","2024-01-02"\n'
    '"t-3","Sanction","","","","","","","","","","Fictional","2024-01-01","2024-01-02",'
    '"2024-01-02"\n'
)


def _source(fmt: str, role: str, location: str, checks: list[str] | None = None) -> Any:
    override: dict[str, Any] = {"format": fmt, "files": {role: location}, "title": fmt}
    if checks:
        override["checks"] = checks
    config = ListsConfig(sources={"os_" + fmt: override})
    return next(s for s in configured_sources(config) if s.code == "os_" + fmt), config


def test_targets_simple_csv_parses_names_dates_countries_and_skips_other_schemas() -> None:
    source, _ = _source("targets_simple_csv", "csv", "/srv/targets.simple.csv")
    snapshot = parse_source(source, {"csv": TARGETS.encode()}, fallback_version="2024-01-02")
    person, company = snapshot.entities
    assert person.entity_id == "t-1" and person.schema == "Person"
    assert [n.name for n in person.names] == [
        "Zawadi Nyokabi Mwangangi",
        "Zawadi Mwangangi",
        "Z. N. Mwangangi",
    ]
    assert person.birth_dates == ("1971-03-02", "1972") and person.countries == ("ke", "tz")
    assert person.identifiers == (("identifier", "A1234567"),)
    assert person.programs == ("Fictional programme",)
    assert company.schema == "Organization" and company.programs == ("Fictional",)
    assert snapshot.warnings == ("1 non-screenable rows skipped (1 Sanction)",)


def test_ftm_and_senzing_formats_parse_their_exports() -> None:
    ftm, _ = _source("ftm_json", "json", "/srv/entities.ftm.json", ["sanction"])
    data = (TEST_DATA / "ftm_zala.ftm.json").read_bytes()
    snapshot = parse_source(ftm, {"json": data}, fallback_version="2024-01-02")
    assert len(snapshot.entities) > 10 and snapshot.checks == frozenset({"sanction"})
    senzing, _ = _source("senzing_json", "json", "/srv/senzing.json", ["pep"])
    data = (TEST_DATA / "senzing_us_congress_sample.json").read_bytes()
    snapshot = parse_source(senzing, {"json": data}, fallback_version="2024-01-02")
    assert len(snapshot.entities) > 10 and snapshot.checks == frozenset({"pep"})


async def test_update_reads_a_local_path_and_a_file_url_and_screens_them(
    settings: Settings, db: Any, tmp_path: Path
) -> None:
    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    targets = tmp_path / "targets.simple.csv"
    targets.write_text(TARGETS, encoding="utf-8")
    entities = tmp_path / "entities.ftm.json"
    entities.write_bytes((TEST_DATA / "ftm_zala.ftm.json").read_bytes())
    config = ListsConfig(
        sources={
            "os_targets": {"format": "targets_simple_csv", "files": {"csv": str(targets)}},
            "os_ftm": {
                "format": "ftm_json",
                "files": {"json": entities.as_uri()},
                "checks": ["sanction"],
            },
        },
        retries=0,
        max_warning_ratio=0.5,  # one warning (the Sanction row) against two targets
    )
    outcomes = await update_lists(mine, db, codes=["os_targets", "os_ftm"], config=config)
    assert [o.status for o in outcomes] == ["ok", "ok"], outcomes
    assert outcomes[0].entity_count == 2
    assert store.current_version(mine.data_dir, "os_targets") is not None
    engine, _ = build_current_engine(mine)
    hits = engine.screen(Subject("Zawadi Nyokabi Mwangangi", birth_date="1971-03-02")).hits
    assert hits and hits[0].entity_id == "t-1" and hits[0].list_code == "os_targets"


async def test_a_file_over_the_limit_is_refused_with_its_size(
    settings: Settings, db: Any, tmp_path: Path
) -> None:
    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    targets = tmp_path / "targets.simple.csv"
    targets.write_text(TARGETS, encoding="utf-8")
    config = ListsConfig(
        sources={"os_targets": {"format": "targets_simple_csv", "files": {"csv": str(targets)}}},
        retries=0,
        max_warning_ratio=0.5,  # one warning (the Sanction row) against two targets
        max_bytes=100,
    )
    [outcome] = await update_lists(mine, db, codes=["os_targets"], config=config)
    assert outcome.status == "failed" and "exceeds the 100 limit" in str(outcome.error)


def test_the_default_file_limit_admits_a_two_gigabyte_export() -> None:
    assert ListsConfig().max_bytes >= 2 * 1024**3


async def test_a_url_still_downloads(
    settings: Settings, db: Any, list_server: ListServer, tmp_path: Path
) -> None:
    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    url = list_server.serve("/os/targets.simple.csv", TARGETS.encode())
    config = ListsConfig(
        sources={"os_targets": {"format": "targets_simple_csv", "files": {"csv": url}}},
        retries=0,
        max_warning_ratio=0.5,  # one warning (the Sanction row) against two targets
        timeout_seconds=2.0,
    )
    [outcome] = await update_lists(mine, db, codes=["os_targets"], config=config)
    assert outcome.status == "ok" and outcome.entity_count == 2


def _small_reads(data: bytes) -> Any:
    """A binary file whose sized reads hand out at most 7 bytes: lines cut everywhere."""
    import io

    class Trickle(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            return super().read(size if size is None or size < 0 else min(size, 7))

        def readline(self, size: int | None = -1) -> bytes:
            return super().readline(size)

    return Trickle(data)


def test_streamed_formats_parse_a_file_as_they_parse_its_bytes() -> None:
    from hakiki.lists.sources import parse_stream

    cases = [
        ("targets_simple_csv", "csv", TARGETS.encode()),
        ("ftm_json", "json", (TEST_DATA / "ftm_zala.ftm.json").read_bytes()),
        ("senzing_json", "json", (TEST_DATA / "senzing_us_congress_sample.json").read_bytes()),
        ("senzing_json", "json", b'\n\n  [{"RECORD_ID": "1", "RECORD_TYPE": "PERSON", '
         b'"NAMES": [{"NAME_FULL": "Amani Juma"}]}]'),
    ]  # fmt: skip
    for fmt, role, data in cases:
        source, _ = _source(fmt, role, "/srv/x", ["sanction"])
        whole = parse_source(source, {role: data}, fallback_version="v")
        streamed = parse_stream(source, _small_reads(data), fallback_version="v")
        assert streamed == whole and whole.entities, fmt


async def test_a_stored_ftm_version_is_parsed_from_its_gzip_stream(
    settings: Settings, db: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    import gzip

    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    entities = tmp_path / "entities.ftm.json"
    entities.write_bytes((TEST_DATA / "ftm_zala.ftm.json").read_bytes())
    config = ListsConfig(
        sources={"os_ftm": {"format": "ftm_json", "files": {"json": str(entities)}}},
        retries=0,
    )
    outcomes = await update_lists(mine, db, codes=["os_ftm"], config=config)
    assert [o.status for o in outcomes] == ["ok"], outcomes
    stored = store.current_version(mine.data_dir, "os_ftm")
    assert stored is not None

    def no_whole_file(*_: Any, **__: Any) -> bytes:
        raise AssertionError("the stored file was decompressed whole")

    monkeypatch.setattr(gzip, "decompress", no_whole_file)
    snapshot = store.load_snapshot(mine.data_dir, stored)
    assert len(snapshot.entities) == outcomes[0].entity_count
    # a changed file is refused, as before
    path = store.lists_root(mine.data_dir) / "os_ftm" / stored.folder / "json.gz"
    path.write_bytes(gzip.compress(entities.read_bytes() + b"\n"))
    with pytest.raises(store.StoredListError, match="checksum"):
        store.load_snapshot(mine.data_dir, stored)


async def test_a_downloaded_file_is_never_whole_in_memory(
    settings: Settings, db: Any, list_server: ListServer, tmp_path: Path
) -> None:
    """`lists update` writes a download to disk a chunk at a time and parses it from there:
    the update's peak of Python memory stays far below the file's size (on main the body was
    held whole, twice: its chunks and their join)."""
    import json
    import tracemalloc

    lines = []
    for line in (TEST_DATA / "ftm_zala.ftm.json").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record["properties"]["notes"] = ["a long note " * 12_000]  # 144 kB a record, unused
        lines.append(json.dumps(record))
    body = ("\n".join(lines) + "\n").encode()
    assert len(body) > 12_000_000
    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    url = list_server.serve("/os/entities.ftm.json", body)
    config = ListsConfig(
        sources={"os_ftm": {"format": "ftm_json", "files": {"json": url}}},
        retries=0,
        timeout_seconds=10.0,
    )
    tracemalloc.start()
    try:
        [outcome] = await update_lists(mine, db, codes=["os_ftm"], config=config)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome.status == "ok", outcome.error
    assert peak < len(body) / 2, (peak, len(body))
    stored = store.current_version(mine.data_dir, "os_ftm")
    assert stored is not None and stored.manifest["files"][0]["bytes"] == len(body)
    assert len(store.load_snapshot(mine.data_dir, stored).entities) == outcome.entity_count
    # nothing left behind but the stored version
    folder = store.lists_root(mine.data_dir) / "os_ftm"
    assert not [p for p in folder.iterdir() if p.name.startswith(".download-")]
