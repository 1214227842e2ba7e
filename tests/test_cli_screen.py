"""`hakiki lists ...` and `hakiki screen`, in this process; `lists status` and `screen NAME` once
each as a real process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date

import pytest

from hakiki.core.clock import utcnow
from tests.lists.server import NEW_UN_DATE, ListServer, run_list_server, un_xml
from tests.support.cli import invoke, run


@pytest.fixture
def list_server() -> Iterator[ListServer]:
    with run_list_server() as server:
        yield server


def lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


@pytest.mark.processes
def test_lists_status_and_update(cli_env: dict[str, str], list_server: ListServer) -> None:
    status = run(cli_env, "lists", "status", "--json")
    assert status.returncode == 0, status.stderr
    rows = {row["code"]: row for row in json.loads(status.stdout)["data"]}
    assert rows["us_ofac_sdn"]["source"] == "bundled"
    assert rows["un_sc_consolidated"]["entity_count"] == 1003

    url = list_server.serve("/un/consolidated.xml", un_xml())
    cli_env["HAKIKI_LISTS_SOURCES"] = json.dumps({"un_sc_consolidated": {"files": {"xml": url}}})
    cli_env["HAKIKI_LISTS_RETRIES"] = "0"
    update = invoke(cli_env, "lists", "update", "--list", "un_sc_consolidated", "--json")
    assert update.exit_code == 0, update.stderr
    [outcome] = lines(update.stdout)
    assert outcome["status"] == "ok" and outcome["version"] == NEW_UN_DATE

    list_server.serve("/un/consolidated.xml", b"garbage", status=500)
    failed = invoke(cli_env, "lists", "update", "--list", "un_sc_consolidated")
    assert failed.exit_code == 1 and "FAILED, keeping 2026-11-20" in failed.stdout
    assert invoke(cli_env, "lists", "update", "--list", "nope").exit_code == 1

    text = invoke(cli_env, "lists", "status")
    assert text.exit_code == 0
    age = (utcnow().date() - date.fromisoformat(NEW_UN_DATE)).days  # the file's own date
    assert (
        f"un_sc_consolidated: {NEW_UN_DATE} (downloaded, 1003 entities, {age} days old)"
        in text.stdout
    )
    assert "us_ofac_sdn: 2024-05-03 (bundled, 14965 entities" in text.stdout
    assert "STALE: over 90 days, run `hakiki lists update`" in text.stdout
    assert "last error:" in text.stdout

    # screen uses the downloaded version, like the API would
    screened = invoke(
        cli_env, "screen", "Abubakar Shekau", "--birth-date", "1969", "--country", "NG"
    )
    assert screened.exit_code == 0, screened.stderr
    [result] = lines(screened.stdout)
    un_hits = [h for h in result["hits"] if h["list_code"] == "un_sc_consolidated"]  # type: ignore[attr-defined]
    assert un_hits and all(h["list_version"] == NEW_UN_DATE for h in un_hits)


@pytest.mark.processes
def test_screen_single_and_stdin(cli_env: dict[str, str]) -> None:
    single = run(
        cli_env, "screen", "Abubakar Shekau", "--birth-date", "1969", "--country", "NG",
        "--schema", "Person", "--threshold", "0.8", "--checks", "sanction,pep",
    )  # fmt: skip
    assert single.returncode == 0, single.stderr
    [result] = lines(single.stdout)
    assert result["input"] == {
        "name": "Abubakar Shekau", "schema": "Person", "birth_date": "1969", "country": ["NG"],
    }  # fmt: skip
    hits = result["hits"]
    assert isinstance(hits, list) and hits
    assert {h["list_code"] for h in hits} == {"us_ofac_sdn", "un_sc_consolidated"}
    assert all(h["score"] >= 0.8 and h["explanation"]["name"]["reason"] for h in hits)
    assert {v["code"] for v in result["lists"]} == {"us_ofac_sdn", "un_sc_consolidated"}
    assert result["checks_without_lists"] == ["pep"]

    stdin = "\n".join(
        [
            json.dumps({"name": "Abubakar Shekau", "birth_date": 1969, "country": "NG"}),
            "{not json",
            json.dumps({"name": "Wanjiku Kamau Njoroge", "schema": "Person"}),
            json.dumps({"name": ""}),
            "",
            json.dumps({"name": "X", "schema": "Planet"}),
        ]
    )
    batch = invoke(cli_env, "screen", stdin=stdin)
    assert batch.exit_code == 0, batch.stderr
    out = lines(batch.stdout)
    assert len(out) == 5
    assert out[0]["hits"] and out[0]["input"]["birth_date"] == 1969  # type: ignore[index]
    assert out[1] == {"line": 2, "error": out[1]["error"]} and "invalid JSON" in str(
        out[1]["error"]
    )
    assert out[2]["hits"] == []
    assert out[3]["line"] == 4 and "name" in str(out[3]["error"])
    assert out[4]["line"] == 6 and "schema" in str(out[4]["error"])


def test_screen_compare(cli_env: dict[str, str]) -> None:
    pairs = "\n".join(
        [
            json.dumps(
                {
                    "a": {"name": "Abubakar Shekau", "birth_date": "1969"},
                    "b": {"name": "SHEKAU, Abubakar", "birth_date": "1969-01-01"},
                }
            ),
            json.dumps({"a": {"name": "Grace Wanjiru"}, "b": {"name": "Osama bin Laden"}}),
            json.dumps({"a": {"name": "Acme Trading Ltd", "schema": "Organization"},
                        "b": {"name": "ACME TRADING LIMITED"}}),
            json.dumps({"a": {"name": "Jon Smith"}}),
            "[]",
        ]
    )  # fmt: skip
    result = invoke(cli_env, "screen", "--compare", stdin=pairs)
    assert result.exit_code == 0, result.stderr
    out = lines(result.stdout)
    assert len(out) == 5
    assert out[0]["decision"] == "match" and float(out[0]["score"]) >= 0.9  # type: ignore[arg-type]
    assert "birth_date" in out[0]["explanation"]  # type: ignore[operator]
    assert out[1]["decision"] == "no_match" and out[1]["score"] == 0.0
    assert out[2]["decision"] == "match"
    assert out[3]["line"] == 4 and out[4]["line"] == 5


def test_screen_says_what_ran_and_dates_each_list(cli_env: dict[str, str]) -> None:
    """The bundled lists hold no PEP list and an OFAC list of 2024-05-03: asked for sanction and
    pep, a clean name is INCOMPLETE (never CLEAR), pep not performed, OFAC dated and stale."""
    single = invoke(cli_env, "screen", "Grace Wanjiru Kamau", "--checks", "sanction,pep")
    assert single.exit_code == 0, single.stderr
    [result] = lines(single.stdout)
    assert result["status"] == "INCOMPLETE"
    outcomes = {o["check"]: o for o in result["outcomes"]}  # type: ignore[attr-defined]
    assert outcomes["sanction"]["outcome"] == "clear"
    assert outcomes["pep"]["outcome"] == "not_performed"
    assert "No pep list" in outcomes["pep"]["reason"]
    ofac = next(v for v in result["lists"] if v["code"] == "us_ofac_sdn")  # type: ignore[attr-defined]
    assert ofac["published"] == "2024-05-03" and ofac["stale"] is True and ofac["age_days"] > 900

    clear = invoke(cli_env, "screen", "Grace Wanjiru Kamau", "--checks", "sanction")
    assert lines(clear.stdout)[0]["status"] == "CLEAR"

    text = invoke(
        cli_env, "screen", "Grace Wanjiru Kamau", "--checks", "sanction,pep", "--format", "text"
    )
    assert text.exit_code == 0, text.stderr
    assert text.stdout.startswith("Grace Wanjiru Kamau: INCOMPLETE\n")
    assert "  pep: not performed (No pep list is loaded on this server.)" in text.stdout
    assert "  list us_ofac_sdn: published 2024-05-03, " in text.stdout
    assert "days old, STALE" in text.stdout

    cli_env["HAKIKI_LIST_STALE_FATAL"] = "true"
    fatal = lines(invoke(cli_env, "screen", "Grace Wanjiru Kamau", "--checks", "sanction").stdout)
    [sanction] = fatal[0]["outcomes"]  # type: ignore[misc]
    assert sanction["outcome"] == "not_performed" and "us_ofac_sdn" in sanction["reason"]
    assert fatal[0]["status"] == "INCOMPLETE"
