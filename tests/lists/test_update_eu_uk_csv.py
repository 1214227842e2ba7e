"""The EU CSV export and the FCDO UK Sanctions List through `lists update`: configuration,
download, parse, store; on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hakiki.core.settings import Settings
from hakiki.lists import store
from hakiki.lists.service import update_lists
from hakiki.lists.sources import ListsConfig, configured_sources, parse_source
from tests.lists.server import TEST_DATA, ListServer


def test_sources_for_the_eu_csv_and_the_uk_sanctions_list() -> None:
    codes = {s.code: s for s in configured_sources(ListsConfig())}
    fcdo = codes["gb_fcdo_sanctions"]
    assert fcdo.format == "uk_csv" and fcdo.enabled is False
    assert fcdo.files == {"csv": "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv"}
    # Switching the EU list to its CSV export drops the default XML address.
    eu = ListsConfig(sources={"eu_fsf": {"format": "eu_csv", "files": {"csv": "http://x/eu.csv"}}})
    [csv_source] = [s for s in configured_sources(eu) if s.code == "eu_fsf"]
    assert csv_source.files == {"csv": "http://x/eu.csv"} and csv_source.source_url.endswith("csv")
    with pytest.raises(ValueError, match="needs a 'csv' file"):
        configured_sources(ListsConfig(sources={"eu_fsf": {"format": "eu_csv"}}))


def test_eu_sources_parse_either_export() -> None:
    [xml_source] = [s for s in configured_sources(ListsConfig()) if s.code == "eu_fsf"]
    csv_bytes = (TEST_DATA / "eu_fsf_sample.csv").read_bytes()
    xml_bytes = (TEST_DATA / "eu_fsf_sample.xml").read_bytes()
    from_csv = parse_source(xml_source, {"xml": csv_bytes}, fallback_version="2000-01-01")
    from_xml = parse_source(xml_source, {"xml": xml_bytes}, fallback_version="2000-01-01")
    assert [e.entity_id for e in from_csv.entities] == [e.entity_id for e in from_xml.entities]
    assert from_csv.version == from_xml.version == "2024-05-03"


async def test_update_downloads_both_csv_lists(
    settings: Settings, db: Any, list_server: ListServer, tmp_path: Path
) -> None:
    mine = settings.model_copy(update={"data_dir": tmp_path / "data"})
    eu_url = list_server.serve("/eu/csv", (TEST_DATA / "eu_fsf_sample.csv").read_bytes())
    uk_url = list_server.serve(
        "/uk/UK-Sanctions-List.csv", (TEST_DATA / "uk_sanctions_list_sample.csv").read_bytes()
    )
    cfg = ListsConfig(
        sources={
            "eu_fsf": {"format": "eu_csv", "files": {"csv": eu_url + "?token=secret"}},
            "gb_fcdo_sanctions": {"files": {"csv": uk_url}},
        },
        retries=0,
        timeout_seconds=2.0,
        max_warning_ratio=0.5,  # the fixtures hold deliberately bad rows
    )
    outcomes = await update_lists(mine, db, codes=["eu_fsf", "gb_fcdo_sanctions"], config=cfg)
    by_code = {o.code: o for o in outcomes}
    assert all(o.status == "ok" for o in outcomes), outcomes
    assert (by_code["eu_fsf"].version, by_code["eu_fsf"].entity_count) == ("2024-05-03", 3)
    uk = by_code["gb_fcdo_sanctions"]
    assert (uk.version, uk.entity_count) == ("2026-04-24", 4)
    stored = store.current_version(mine.data_dir, "eu_fsf")
    assert stored is not None and stored.entity_count == 3
    manifest = (mine.data_dir / "lists" / "eu_fsf" / "2024-05-03" / "manifest.json").read_text()
    assert "secret" not in manifest and '"format": "eu_csv"' in manifest
