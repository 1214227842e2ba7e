"""The bundled list snapshots and their manifest."""

from __future__ import annotations

import gzip
import hashlib
from importlib import resources

import pytest

from hakiki.engines.screening import bundled


def test_manifest_describes_every_file() -> None:
    lists = bundled.read_manifest()
    assert [(item.code, item.version) for item in lists] == [
        ("us_ofac_sdn", "2024-05-03"),
        ("un_sc_consolidated", "2026-02-27"),
    ]
    assert lists[0].source_url == "https://www.treasury.gov/ofac/downloads/sdn.csv"
    assert lists[1].source_url == "https://scsanctions.un.org/resources/xml/en/consolidated.xml"
    data = resources.files("hakiki.engines.screening.data")
    for item in lists:
        assert item.checks == frozenset({"sanction"})
        for meta in item.files.values():
            raw = gzip.decompress(data.joinpath(meta["path"]).read_bytes())
            assert len(raw) == meta["bytes"]
            assert hashlib.sha256(raw).hexdigest() == meta["sha256"]
            assert meta["source_url"].startswith("https://")
            assert meta["copied_from"]
    assert data.joinpath("SOURCES.md").is_file()


def test_checksum_mismatch_is_refused() -> None:
    item = bundled.read_manifest()[1]
    meta = dict(item.files["xml"], sha256="0" * 64)
    broken = bundled.BundledList(
        item.code,
        item.title,
        item.version,
        item.source_url,
        item.format,
        item.checks,
        {"xml": meta},
    )
    with pytest.raises(bundled.BundledDataError, match="does not match"):
        bundled.load_bundled_snapshot(broken)
