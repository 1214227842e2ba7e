"""PEP lists the operator loads (issue 34): `hakiki lists load` with format, code, title,
licence and checks; the publisher's date and the licence in `hakiki lists status`, in
GET /v3/account/lists and in every answer's list entry; a live PEP screening through the API
returning the positions, their country and whether the tenure has ended (SQLite and
PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from hakiki.core.clock import utcnow
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.service import load_file, reload
from hakiki.lists.sources import file_source
from tests.conftest import AccountFactory
from tests.support.cli import invoke

ROOT = Path(__file__).resolve().parents[2]
PEPS_CSV = ROOT / "examples/peps.csv"
POPOLO = ROOT / "tests/engines/screening/data/popolo_sample.json"
SHARED = ROOT.parent / "shared/data/lists/opensanctions"
NC = "CC BY-NC 4.0 (OpenSanctions): non-commercial use"


def test_lists_load_and_status_show_the_licence_and_the_publishers_date(
    cli_env: dict[str, str],
) -> None:
    loaded = invoke(
        cli_env, "lists", "load", str(PEPS_CSV), "--format", "pep_csv", "--code", "demo_peps",
        "--title", "Demo PEPs", "--licence", "CC0 (fictional sample)",
    )  # fmt: skip
    assert loaded.exit_code == 0, loaded.stderr
    assert loaded.stdout == (
        "demo_peps: loaded, version 2026-01-15, 3 entities (pep; licence: CC0 (fictional sample))\n"
    )
    popolo = invoke(
        cli_env, "lists", "load", str(POPOLO), "--format", "popolo_json", "--code", "ke_na",
        "--country", "KE", "--published", "2019-06-01", "--licence", "CC0", "--json",
    )  # fmt: skip
    assert popolo.exit_code == 0, popolo.stderr
    outcome = json.loads(popolo.stdout)
    assert outcome["status"] == "ok" and outcome["version"] == "2019-06-01"  # stated date

    status = invoke(cli_env, "lists", "status", "--json")
    rows = {row["code"]: row for row in json.loads(status.stdout)["data"]}
    demo = rows["demo_peps"]
    assert demo["in_use"] and demo["checks"] == ["pep"] and demo["entity_count"] == 3
    assert demo["licence"] == "CC0 (fictional sample)" and demo["published"] == "2026-01-15"
    assert demo["version"] == "2026-01-15" and demo["title"] == "Demo PEPs"
    # age and staleness count from the publisher's date, not from today's load
    age = (utcnow().date() - utcnow().date().fromisoformat("2026-01-15")).days
    assert demo["age_days"] == age and demo["stale"] is (age > 90)
    assert rows["ke_na"]["published"] == "2019-06-01" and rows["ke_na"]["stale"] is True
    assert rows["ke_na"]["licence"] == "CC0" and rows["ke_na"]["entity_count"] == 3
    text = invoke(cli_env, "lists", "status").stdout
    assert "demo_peps: 2026-01-15 (downloaded, 3 entities" in text
    assert "; published 2026-01-15; licence: CC0 (fictional sample)" in text
    assert "ke_na: 2019-06-01 (downloaded, 3 entities, " in text
    assert "STALE: over 90 days, load a newer file (`hakiki lists load`)" in text

    screened = invoke(cli_env, "screen", "Amani Wanjiku Otieno", "--checks", "pep")
    [result] = [json.loads(line) for line in screened.stdout.splitlines()]
    [hit] = result["hits"]
    assert hit["list_code"] == "demo_peps" and hit["pep"]["tenure_ended"] is True
    assert {"code": "demo_peps", "licence": "CC0 (fictional sample)"}.items() <= next(
        v for v in result["lists"] if v["code"] == "demo_peps"
    ).items()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "nope", "--code", "x_peps"], "unknown format 'nope'"),
        (["--format", "pep_csv", "--code", "Bad Code"], "list code 'Bad Code'"),
        (["--format", "pep_csv", "--code", "x_peps", "--published", "15/01/2026"], "YYYY-MM-DD"),
        (["--format", "pep_csv", "--code", "x_peps", "--checks", "media"], "pep or sanction"),
        (["--format", "pep_csv", "--code", "x_peps", "--country", "Atlantis"], "ISO code"),
    ],
)
def test_lists_load_refuses_bad_flags_naming_them(
    cli_env: dict[str, str], args: list[str], message: str
) -> None:
    result = invoke(cli_env, "lists", "load", str(PEPS_CSV), *args)
    assert result.exit_code == 2 and message in result.stderr


def test_lists_load_refuses_a_file_that_does_not_parse_and_keeps_nothing(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    bad = tmp_path / "peps.csv"
    bad.write_text("full_name,office\nA,B\n", encoding="utf-8")
    result = invoke(cli_env, "lists", "load", str(bad), "--format", "pep_csv", "--code", "x")
    assert result.exit_code == 2 and "list code 'x'" in result.stderr
    result = invoke(cli_env, "lists", "load", str(bad), "--format", "pep_csv", "--code", "xy")
    assert result.exit_code == 1 and "xy: REFUSED, keeping nothing" in result.stdout
    assert "no 'name' column" in result.stdout
    rows = json.loads(invoke(cli_env, "lists", "status", "--json").stdout)["data"]
    [row] = [r for r in rows if r["code"] == "xy"]
    assert row["in_use"] is False and row["last_attempt"]["status"] == "failed"


@pytest.mark.skipif(not SHARED.exists(), reason="shared list data not mounted")
def test_opensanctions_exports_take_their_checks_from_topics_or_the_operator(
    cli_env: dict[str, str],
) -> None:
    congress = SHARED / "us_congress_senzing_2026-01.json"
    loaded = invoke(
        cli_env, "lists", "load", str(congress), "--format", "senzing_json", "--code",
        "us_congress", "--licence", NC,
    )  # fmt: skip
    assert loaded.exit_code == 0, loaded.stderr
    assert "us_congress: loaded, version 2025-12-08, 1317 entities (pep;" in loaded.stdout
    wd = SHARED / "wd_persons_sa_sample_2024-03/entities.ftm.json"
    refused = invoke(
        cli_env, "lists", "load", str(wd), "--format", "ftm_json", "--code", "sa_peps"
    )  # the sample's persons carry no topics: the operator must say what the list is
    assert refused.exit_code == 1 and "give the list's checks" in refused.stdout
    loaded = invoke(
        cli_env, "lists", "load", str(wd), "--format", "ftm_json", "--code", "sa_peps",
        "--checks", "pep", "--licence", NC,
    )  # fmt: skip
    assert loaded.exit_code == 0 and "version 2024-03-14, 607 entities (pep;" in loaded.stdout
    rows = json.loads(invoke(cli_env, "lists", "status", "--json").stdout)["data"]
    by_code = {row["code"]: row for row in rows}
    assert by_code["us_congress"]["checks"] == ["pep"]
    assert by_code["sa_peps"]["published"] == "2024-03-14" and by_code["sa_peps"]["licence"] == NC
    screened = invoke(cli_env, "screen", "Abdullah bin Suleiman Al Hamdan", "--checks", "pep")
    [hit] = [h for h in json.loads(screened.stdout)["hits"] if h["entity_id"] == "Q12223501"]
    assert {
        "title": None,
        "country": None,
        "start_date": "1933-01-01",
        "end_date": "1943-01-01",
        "tenure_ended": True,
    } in hit["pep"]["positions"]
    assert "Minister of Finance" in [p["title"] for p in hit["pep"]["positions"]]


@pytest.mark.skipif(not SHARED.exists(), reason="shared list data not mounted")
async def test_live_pep_screening_returns_positions_country_and_tenure(
    app: FastAPI,
    client: httpx.AsyncClient,
    db: Any,
    make_account: AccountFactory,
    tmp_path: Path,
) -> None:
    runtime = app.state.runtime
    mine = runtime.settings.model_copy(update={"data_dir": tmp_path / "data"})
    congress = file_source(
        "us_congress", SHARED / "us_congress_senzing_2026-01.json", format="senzing_json",
        checks=["pep"], licence=NC, title="US Congress (OpenSanctions)",
    )  # fmt: skip
    peps = file_source("demo_peps", PEPS_CSV, format="pep_csv", licence="CC0")
    for source in (congress, peps):
        outcome = await load_file(mine, db, source)
        assert outcome.status == "ok", outcome.error
    engines = runtime.part(ScreeningEngines)
    original = engines.live
    try:
        await reload(runtime, mine)
        live = await make_account("live", balance=10_000)
        response = await client.post(
            "/v3/screening/pep", json={"name": "Nancy Pelosi"}, headers=live.headers
        )
        assert response.status_code == 200, response.text
        aml = response.json()["data"]["aml"]
        [hit] = aml["hits"]
        assert hit["check"] == "pep" and hit["list_code"] == "us_congress"
        assert hit["pep"] == {
            "positions": [
                {
                    "title": "United States representative",
                    "country": "us",
                    "start_date": None,
                    "end_date": None,
                    "tenure_ended": None,  # the Senzing export carries no tenure dates
                }
            ],
            "countries": ["us"],
            "tenure_ended": None,
        }
        used = {entry["code"]: entry for entry in aml["lists"]}
        assert (
            used["us_congress"]["licence"] == NC and used["us_congress"]["version"] == "2025-12-08"
        )
        assert used["demo_peps"]["licence"] == "CC0"

        response = await client.post(
            "/v3/screening/individual",
            json={"name": "Amani Wanjiku Otieno", "birth_date": "1968-04-12"},
            headers=live.headers,
        )
        assert response.status_code == 200, response.text
        [hit] = [h for h in response.json()["data"]["aml"]["hits"] if h["check"] == "pep"]
        assert hit["pep"]["tenure_ended"] is True and hit["pep"]["countries"] == ["ke"]
        assert [p["title"] for p in hit["pep"]["positions"]] == [
            "Member of Parliament, Kisumu Central",
            "Deputy Speaker, National Assembly",
        ]
        response = await client.post(
            "/v3/screening/pep", json={"name": "Baraka Mwita Chacha"}, headers=live.headers
        )
        [hit] = response.json()["data"]["aml"]["hits"]
        assert hit["pep"]["tenure_ended"] is False  # status current, no end date
        assert hit["pep"]["positions"][0]["country"] == "ke"

        status = await client.get("/v3/account/lists", headers=live.headers)
        row = {r["code"]: r for r in status.json()["data"]}["us_congress"]
        assert row["licence"] == NC and row["published"] == "2025-12-08"
    finally:
        engines.live = original


async def test_sandbox_pep_test_names_show_a_held_and_an_ended_position(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    sandbox = await make_account("sandbox")
    held = await client.post(
        "/v3/screening/pep", json={"name": "Sandbox Politically Exposed"}, headers=sandbox.headers
    )
    [hit] = held.json()["data"]["aml"]["hits"]
    assert hit["pep"]["tenure_ended"] is False
    assert hit["pep"]["positions"][0]["title"] == "Sandbox Minister of Test Affairs"
    ended = await client.post(
        "/v3/screening/pep", json={"name": "Sandbox Every List"}, headers=sandbox.headers
    )
    [hit] = ended.json()["data"]["aml"]["hits"]
    assert hit["pep"] == {
        "positions": [
            {
                "title": "Sandbox Member of Parliament",
                "country": "tz",
                "start_date": "2010-11-18",
                "end_date": "2015-11-17",
                "tenure_ended": True,
            }
        ],
        "countries": ["tz"],
        "tenure_ended": True,
    }
