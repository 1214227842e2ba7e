"""Ingested news feeds as the live adverse-media source, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from hakiki.core.database import Database
from hakiki.media.service import MediaLibrary, ingest
from tests.conftest import AccountFactory
from tests.support.cli import invoke, run

FEED = Path(__file__).resolve().parents[1] / "engines/adverse_media/data/east_africa_rss.xml"


async def test_ingest_stores_each_article_once(db: Database) -> None:
    data = FEED.read_bytes()
    first = await ingest(db, data, source="test-wire")
    again = await ingest(db, data, source="test-wire")
    assert first.articles == again.articles > 0
    assert again.new == 0


async def test_live_screening_finds_adverse_media_with_evidence(
    app: FastAPI, client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    await ingest(db, FEED.read_bytes(), source="test-wire")
    await app.state.runtime.part(MediaLibrary).refresh(db)
    account = await make_account("live", balance=10_000)
    response = await client.post(
        "/v3/screening/individual",
        json={"name": "Obinna Nwachukwu", "adverse_media": True},
        headers=account.headers,
    )
    assert response.status_code == 200, response.text
    aml = response.json()["data"]["aml"]
    media_hits = [h for h in aml["hits"] if h["check"] == "adverse_media"]
    assert media_hits, aml
    hit = media_hits[0]
    assert hit["media"]["url"].startswith("https://news.example.org/")
    assert "fraud" in hit["programs"]
    assert any(c["category"] == "fraud" for c in hit["media"]["categories"])
    assert "news_feeds" in {lst["code"] for lst in aml["lists"]}
    assert "adverse_media" not in {u["check"] for u in aml["unavailable"]}
    # A neutral name gets no adverse-media hit, and the check still counts as performed.
    clean = (
        await client.post(
            "/v3/screening/individual",
            json={"name": "Wanjiru Kamau", "adverse_media": True},
            headers=account.headers,
        )
    ).json()["data"]["aml"]
    assert [h for h in clean["hits"] if h["check"] == "adverse_media"] == []


@pytest.mark.processes
def test_media_commands(cli_env: dict[str, str], tmp_path: Path) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    first = run(cli_env, "media", "ingest", "--source", "test-wire", str(FEED), "--json")
    assert first.returncode == 0, first.stderr  # the one real process of the media commands
    report = json.loads(first.stdout)
    assert report["new"] == report["articles"] > 0
    again = invoke(cli_env, "media", "ingest", "--source", "test-wire", str(FEED), "--json")
    assert json.loads(again.stdout)["new"] == 0
    status = json.loads(invoke(cli_env, "media", "status", "--json").stdout)
    assert status["articles"] == report["articles"] and status["sources"] == 1
    bad = tmp_path / "not-a-feed.xml"
    bad.write_text("<html><body>hello</body></html>")
    refused = invoke(cli_env, "media", "ingest", "--source", "x", str(bad))
    assert refused.exit_code == 1 and "error:" in refused.stderr
