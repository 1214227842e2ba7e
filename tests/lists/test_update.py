"""List updates against a local server: good files, 500, timeout, garbage, collapsed lists,
too-large files; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from hakiki.core.database import read
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings
from hakiki.engines.screening.subject import Subject
from hakiki.lists import repository, store
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.service import (
    describe_engine,
    list_status,
    load_current_engine,
    reload,
    select_sources,
    update_lists,
)
from hakiki.lists.sources import ListsConfig, configured_sources
from tests.lists.server import NEW_UN_DATE, ListServer, good_sources, un_xml


def local(settings: Settings, tmp_path: Path) -> Settings:
    """The test's database with its own data folder (its own stored lists)."""
    return settings.model_copy(update={"data_dir": tmp_path / "data"})


def config(sources: dict[str, Any], **extra: Any) -> ListsConfig:
    values: dict[str, Any] = {
        "sources": sources,
        "retries": 1,
        "retry_backoff_seconds": 0.0,
        "timeout_seconds": 2.0,
        **extra,
    }
    return ListsConfig(**values)


def un_only(url: str) -> dict[str, Any]:
    return {
        "us_ofac_sdn": {"enabled": False},
        "us_ofac_consolidated": {"enabled": False},
        "un_sc_consolidated": {"files": {"xml": url}},
    }


async def test_good_update_is_stored_swapped_in_and_shown(
    settings: Settings, db: Any, list_server: ListServer, tmp_path: Path
) -> None:
    mine = local(settings, tmp_path)
    outcomes = await update_lists(mine, db, config=config(good_sources(list_server)))
    by_code = {o.code: o for o in outcomes}
    assert set(by_code) == {"un_sc_consolidated", "us_ofac_consolidated", "gb_hmt_sanctions"}
    assert all(o.status == "ok" and o.error is None for o in outcomes), outcomes
    assert by_code["un_sc_consolidated"].version == NEW_UN_DATE
    assert by_code["un_sc_consolidated"].entity_count == 1003
    assert by_code["us_ofac_consolidated"].entity_count == 442
    assert by_code["gb_hmt_sanctions"].version == "2020-02-20"
    assert by_code["un_sc_consolidated"].changed

    # Files gzipped with a manifest, and the version made current
    stored = store.current_version(mine.data_dir, "un_sc_consolidated")
    assert stored is not None and stored.folder == NEW_UN_DATE
    folder = mine.data_dir / "lists" / "un_sc_consolidated" / NEW_UN_DATE
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["entity_count"] == 1003 and len(manifest["sha256"]) == 64
    assert (folder / "xml.gz").is_file()
    assert manifest["sha256"] == by_code["un_sc_consolidated"].sha256
    for path in [mine.data_dir, *mine.data_dir.rglob("*")]:  # owner-only, whatever the umask
        assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600), path

    async with read(db) as conn:
        rows = await repository.history(conn, "un_sc_consolidated", limit=1)
    assert rows[0]["status"] == "ok" and rows[0]["version"] == NEW_UN_DATE
    assert rows[0]["entity_count"] == 1003 and rows[0]["sha256"] == manifest["sha256"]

    # The same files again: same folder, unchanged
    again = await update_lists(
        mine, db, codes=["un_sc_consolidated"], config=config(good_sources(list_server))
    )
    assert again[0].status == "ok" and not again[0].changed
    assert sorted(p.name for p in folder.parent.iterdir()) == [NEW_UN_DATE, "current"]

    # reload() swaps the runtime's engine with one attribute assignment
    old = load_current_engine(settings.model_copy(update={"data_dir": tmp_path / "empty"}))
    engines = ScreeningEngines(live=old, sandbox=old)
    runtime = cast(Runtime, SimpleNamespace(settings=mine, part=lambda kind: engines))
    engine = await reload(runtime)
    assert engines.live is engine and engine is not old
    versions = {v.code: v.version for v in engine.lists}
    assert versions["us_ofac_sdn"] == "2024-05-03" and versions["un_sc_consolidated"] == NEW_UN_DATE
    assert versions["gb_hmt_sanctions"] == "2020-02-20" and "us_ofac_consolidated" in versions
    sources = {info.code: info.source for info in describe_engine(engine)}
    assert sources["us_ofac_sdn"] == "bundled" and sources["un_sc_consolidated"] == "downloaded"
    result = engine.screen(Subject(name="Abubakar Shekau"))
    assert any(
        h.list_code == "un_sc_consolidated" and h.list_version == NEW_UN_DATE for h in result.hits
    )

    status = {
        row["code"]: row
        for row in await list_status(
            mine, db, engine=engine, config=config(good_sources(list_server))
        )
    }
    un = status["un_sc_consolidated"]
    assert (
        un["version"] == NEW_UN_DATE and un["source"] == "downloaded" and un["entity_count"] == 1003
    )
    assert un["last_attempt"]["status"] == "ok" and un["in_use"]
    assert status["gb_hmt_sanctions"]["entity_count"] == 41
    assert (
        status["us_ofac_sdn"]["source"] == "bundled"
        and status["us_ofac_sdn"]["entity_count"] == 14965
    )
    assert status["eu_fsf"]["in_use"] is False and status["eu_fsf"]["update_enabled"] is False
    # Without an engine, status reads what would be loaded now: the same
    planned = {row["code"]: row for row in await list_status(mine, db)}
    assert planned["un_sc_consolidated"]["version"] == NEW_UN_DATE


async def test_failures_keep_the_last_good_version(
    settings: Settings, db: Any, list_server: ListServer, tmp_path: Path
) -> None:
    mine = local(settings, tmp_path)
    path = "/un/consolidated.xml"
    url = list_server.url(path)
    cfg = config(un_only(url), timeout_seconds=0.5)

    async def attempt() -> Any:
        [outcome] = await update_lists(mine, db, config=cfg)
        return outcome

    # Collapsed against the bundled snapshot (no download yet): refused
    list_server.serve(path, un_xml(keep=5))
    collapsed = await attempt()
    assert collapsed.status == "failed" and "collapsed" in collapsed.error
    assert "5 entities" in collapsed.error and "1003" in collapsed.error
    assert store.current_version(mine.data_dir, "un_sc_consolidated") is None

    list_server.serve(path, un_xml())
    good = await attempt()
    assert good.status == "ok" and good.version == NEW_UN_DATE

    failures = {
        "500": (dict(status=500, body=b"oops"), "HTTP 500"),
        "timeout": (dict(body=un_xml(date="2026-11-21"), delay=1.5), "timed out"),
        "garbage": (dict(body=b"\x00\x01garbage<<<not xml"), "could not parse"),
        "collapsed": (dict(body=un_xml(date="2026-11-21", keep=100)), "collapsed"),
        "not found": (dict(status=404, body=b"gone"), "HTTP 404"),
    }
    for label, (route, expected) in failures.items():
        list_server.hits.clear()
        list_server.serve(path, **route)  # type: ignore[arg-type]
        outcome = await attempt()
        assert outcome.status == "failed", label
        assert expected in outcome.error, (label, outcome.error)
        assert outcome.previous_version == NEW_UN_DATE
        current = store.current_version(mine.data_dir, "un_sc_consolidated")
        assert current is not None and current.version == NEW_UN_DATE, label
        if label == "500":
            assert list_server.hits[path] == 2  # one retry
            assert "2 attempts" in outcome.error

    async with read(db) as conn:
        rows = await repository.history(conn, "un_sc_consolidated", limit=7)
    assert [r["status"] for r in rows] == ["failed"] * 5 + ["ok", "failed"]
    assert rows[0]["error"] and "HTTP 404" in rows[0]["error"] and rows[0]["version"] is None

    engine = load_current_engine(mine)
    assert {v.code: v.version for v in engine.lists}["un_sc_consolidated"] == NEW_UN_DATE
    status = {r["code"]: r for r in await list_status(mine, db, engine=engine, config=cfg)}
    un = status["un_sc_consolidated"]
    assert un["version"] == NEW_UN_DATE and un["source"] == "downloaded"
    assert un["last_attempt"]["status"] == "failed" and "HTTP 404" in un["last_error"]


async def test_size_limit_and_unusable_records(
    settings: Settings, db: Any, list_server: ListServer, tmp_path: Path
) -> None:
    mine = local(settings, tmp_path)
    url = list_server.serve("/un/big.xml", un_xml())
    [outcome] = await update_lists(mine, db, config=config(un_only(url), max_bytes=10_000))
    assert outcome.status == "failed" and "limit" in outcome.error

    empty = list_server.serve("/un/empty.xml", un_xml(keep=0))
    [outcome] = await update_lists(mine, db, config=config(un_only(empty)))
    assert outcome.status == "failed" and "no entities" in outcome.error
    assert store.current_version(mine.data_dir, "un_sc_consolidated") is None


def test_stored_version_that_is_corrupt_falls_back_to_bundled(tmp_path: Path) -> None:
    code_dir = tmp_path / "lists" / "un_sc_consolidated" / "2026-01-01"
    code_dir.mkdir(parents=True)
    (code_dir / "manifest.json").write_text(
        json.dumps(
            {
                "code": "un_sc_consolidated", "title": "UN", "format": "un_xml",
                "checks": ["sanction"], "version": "2026-01-01", "fetched_at": "x",
                "entity_count": 1, "sha256": "0" * 64,
                "files": [{"role": "xml", "path": "xml.gz", "url": "u", "sha256": "0" * 64}],
            }
        )
    )  # fmt: skip
    (code_dir.parent / "current").write_text("2026-01-01")
    engine = load_current_engine(Settings(data_dir=tmp_path))
    assert {v.code: v.version for v in engine.lists}["un_sc_consolidated"] == "2026-02-27"


def test_sources_configuration() -> None:
    codes = {s.code: s for s in configured_sources(ListsConfig())}
    assert codes["eu_fsf"].enabled is False and codes["us_ofac_sdn"].enabled is True
    assert codes["us_ofac_sdn"].files["sdn"] == "https://www.treasury.gov/ofac/downloads/sdn.csv"
    custom = ListsConfig(
        sources={"my_dpl": {"format": "bis_dpl", "files": {"txt": "http://x/dpl.txt"}}}
    )
    assert {s.code for s in select_sources(custom, None)} >= {"my_dpl", "us_ofac_sdn"}
    with pytest.raises(ValueError, match="unknown list"):
        select_sources(ListsConfig(), ["nope"])
    with pytest.raises(ValueError, match="unknown keys"):
        configured_sources(ListsConfig(sources={"eu_fsf": {"url": "x"}}))
    with pytest.raises(ValueError, match="unknown file roles"):
        configured_sources(ListsConfig(sources={"eu_fsf": {"files": {"csv": "x"}}}))
