"""GET /v3/account/lists: any valid key; the engine in use, its sources and update attempts."""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from hakiki.core.clock import utcnow
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.service import reload, update_lists, warn_if_stale
from hakiki.lists.sources import ListsConfig
from tests.conftest import AccountFactory
from tests.lists.server import NEW_UN_DATE, ListServer, un_xml


async def test_lists_status_endpoint(
    app: FastAPI,
    client: httpx.AsyncClient,
    db: Any,
    make_account: AccountFactory,
    list_server: ListServer,
    tmp_path: Path,
) -> None:
    assert (await client.get("/v3/account/lists")).status_code == 401
    account = await make_account("sandbox")
    response = await client.get("/v3/account/lists", headers=account.headers)
    assert response.status_code == 200, response.text
    rows = {row["code"]: row for row in response.json()["data"]}
    assert response.json()["pagination"]["total_items"] == len(rows)
    sdn = rows["us_ofac_sdn"]
    assert sdn["in_use"] and sdn["source"] == "bundled" and sdn["entity_count"] == 14965
    assert sdn["version"] == "2024-05-03" and sdn["checks"] == ["sanction"]
    assert sdn["age_days"] == (utcnow().date() - date(2024, 5, 3)).days
    assert sdn["stale"] is True  # older than the 90 days of HAKIKI_LIST_MAX_AGE_DAYS
    assert rows["eu_fsf"]["in_use"] is False and rows["eu_fsf"]["version"] is None

    runtime = app.state.runtime
    mine = runtime.settings.model_copy(update={"data_dir": tmp_path / "data"})
    path = "/un/consolidated.xml"
    sources = {
        "us_ofac_sdn": {"enabled": False},
        "us_ofac_consolidated": {"enabled": False},
        "un_sc_consolidated": {"files": {"xml": list_server.url(path)}},
    }
    cfg = ListsConfig(sources=sources, retries=0, timeout_seconds=2.0)
    list_server.serve(path, un_xml())
    [ok] = await update_lists(mine, db, config=cfg)
    list_server.serve(path, status=503, body=b"down")
    [failed] = await update_lists(mine, db, config=cfg)
    assert ok.status == "ok" and failed.status == "failed"

    engines = runtime.part(ScreeningEngines)
    original = engines.live
    try:
        await reload(runtime, mine)
        live = await make_account("live")
        response = await client.get("/v3/account/lists", headers=live.headers)
        assert response.status_code == 200
        un = {row["code"]: row for row in response.json()["data"]}["un_sc_consolidated"]
        assert un["version"] == NEW_UN_DATE and un["source"] == "downloaded"
        # The age counts from the publisher's date inside the file, not the download
        assert un["date"] == NEW_UN_DATE and un["stale"] is False
        assert un["age_days"] == (utcnow().date() - date.fromisoformat(NEW_UN_DATE)).days
        assert un["entity_count"] == 1003
        assert un["last_attempt"]["status"] == "failed"
        assert "HTTP 503" in un["last_error"] and un["last_error_at"]
    finally:
        engines.live = original


def test_stale_lists_are_warned_about_at_start_up(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    runtime = app.state.runtime
    engine = runtime.part(ScreeningEngines).live
    with caplog.at_level(logging.WARNING, logger="hakiki.lists"):
        stale = warn_if_stale(engine, runtime.settings)
    assert "us_ofac_sdn" in {info.code for info in stale}
    assert any(
        "us_ofac_sdn" in r.getMessage() and "hakiki lists update" in r.getMessage()
        for r in caplog.records
    )
    caplog.clear()
    patient = runtime.settings.model_copy(update={"list_max_age_days": 100_000})
    assert warn_if_stale(engine, patient) == [] and not caplog.records
