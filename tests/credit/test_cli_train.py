"""``hakiki credit train``: the loan book trained into the organisation's registry from the
command line, activated, a second model activated over it; too little data trained but refused
activation (exit 1, the reason); a bad file the API's 400 message (exit 1); once as a real
process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hakiki.devtools import loan_book as generator
from tests.support.cli import invoke, run


def _book(tmp_path: Path, rows: int, seed: int) -> str:
    path = tmp_path / f"loans-{rows}-{seed}.csv"
    path.write_text(generator.generate(rows, seed).csv_text(), encoding="utf-8")
    return str(path)


def test_credit_train_stores_and_activates_models(cli_env: dict[str, str], tmp_path: Path) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    assert invoke(cli_env, "orgs", "create", "Book Lending").exit_code == 0
    args = ("credit", "train", "--org", "Book Lending", "--env", "sandbox")
    first = invoke(cli_env, *args, "--data", _book(tmp_path, 1_000, 1), "--activate", "--json")
    assert first.exit_code == 0, first.stderr
    model = json.loads(first.stdout)
    assert model["version"] == "lender-1" and model["status"] == "trained" and model["active"]
    assert model["previous_version"] == "hakiki-german-1.0.0"
    assert model["card"]["data"]["rows"] == 1_000 and model["card"]["metrics"]["holdout_auc"] > 0.6

    second = invoke(cli_env, *args, "--data", _book(tmp_path, 1_000, 2), "--activate")
    assert second.exit_code == 0, second.stderr
    assert second.stdout.startswith("lender-2 (cmo_") and "active" in second.stdout

    small = invoke(cli_env, *args, "--data", _book(tmp_path, 200, 3), "--activate")
    assert small.exit_code == 1
    assert "200 loan outcomes (at least 500 are needed)" in small.stdout

    bad = tmp_path / "bad.csv"
    bad.write_text("loan_id,amount\nL1,5\n", encoding="utf-8")
    refused = invoke(cli_env, *args, "--data", str(bad))
    assert refused.exit_code == 1
    assert "row 1, loan_amount: required column missing\n" in refused.stderr
    assert "row 1, amount: unknown column" in refused.stderr


@pytest.mark.processes
def test_credit_train_as_a_real_process(cli_env: dict[str, str], tmp_path: Path) -> None:
    assert invoke(cli_env, "migrate").exit_code == 0
    assert invoke(cli_env, "orgs", "create", "Smoke Book").exit_code == 0
    done = run(cli_env, "credit", "train", "--org", "Smoke Book", "--data", _book(tmp_path, 600, 4))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("lender-1 (cmo_")
