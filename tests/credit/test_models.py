"""A lender's own credit models through the API, on SQLite and PostgreSQL: a loan book from the
documented generator uploaded, trained by the job and carded; decisions switch to it on
activation (naming its version, taking its purposes and the statement's cash-flow features) and
back to the demo model on rollback; every decision replays from its stored inputs; too little
data cannot be activated; bad files are 400 naming row and column; other organisations get 404
and keys without credit:write 403."""

from __future__ import annotations

import asyncio
import csv
import io
import time
from typing import Any

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.credit.registry.loan_file import FIGURES, analysis_figures
from hakiki.credit.tables import credit_decisions, credit_models
from hakiki.devtools import loan_book as generator
from tests.conftest import AccountFactory
from tests.statements.conftest import sandbox_analysis

URL = "/v3/credit/models"
DECISION = "/v3/credit/decision"
APPLICANT = {  # a middling applicant: scores in the middle of the lender model's range
    "loan": {"amount": 8_000_000, "term_months": 12, "purpose": "school_fees"},
    "applicant": {
        "monthly_income": 5_000_000,
        "monthly_obligations": 1_500_000,
        "employment_months": 18,
    },
    "bureau": {"accounts": 2, "open_accounts": 1, "performing_accounts": 2, "lender_types": []},
    "statement": {
        "months": 6,
        "average_monthly_inflow": 5_500_000,
        "average_monthly_outflow": 4_500_000,
        "average_balance": 1_000_000,
        "income_regularity": 0.6,
        "disposable_income": 1_000_000,
        "betting_share": 0.02,
        "loan_stacking": 1,
    },
}


@pytest.fixture(scope="module")
def book_csv() -> bytes:
    return generator.generate(2_000, 38).csv_text().encode()


async def upload(
    client: httpx.AsyncClient, headers: dict[str, str], data: bytes, status: int = 202, **form: Any
) -> dict[str, Any]:
    response = await client.post(
        URL, files={"file": ("loans.csv", data, "text/csv")}, data=form, headers=headers
    )
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


async def trained(
    client: httpx.AsyncClient, headers: dict[str, str], model_id: str
) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        response = await client.get(f"{URL}/{model_id}", headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["status"] in ("trained", "failed"):
            return body
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.05)


async def decide(
    client: httpx.AsyncClient, headers: dict[str, str], body: dict[str, Any], status: int = 200
) -> dict[str, Any]:
    response = await client.post(DECISION, json=body, headers=headers)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def with_purpose(purpose: str) -> dict[str, Any]:
    return {**APPLICANT, "loan": {**APPLICANT["loan"], "purpose": purpose}}


async def test_decisions_switch_to_the_lenders_model_on_activation_and_back_on_rollback(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, book_csv: bytes
) -> None:
    account = await make_account("sandbox")
    headers = account.headers
    started = await upload(client, headers, book_csv)
    assert started["status"] == "pending" and started["version"] == "lender-1"
    assert started["rows"] == 2_000 and started["window_days"] == 90 and not started["active"]
    model = await trained(client, headers, started["model_id"])
    assert model["status"] == "trained" and model["progress"] == 100, model
    card = model["card"]
    assert card["activatable"] is True and card["data"]["rows"] == 2_000
    assert "protected_gender" not in card["inputs"] and "protected_gender" in card["fairness"]
    assert {"income_regularity", "betting_share", "loan_stacking", "affordability"} <= set(
        card["inputs"]
    )
    assert "school_fees" in card["loan_purposes"]
    async with db.reader.connect() as conn:  # the borrowers' rows are gone once trained
        stored = (await conn.execute(credit_models.select())).mappings().all()
    assert [r["book_encrypted"] for r in stored if r["id"] == model["model_id"]] == [None]

    # The demo model: labelled so, and the lender's purpose is a 400 naming the field.
    demo = await decide(client, headers, with_purpose("electronics"))
    assert demo["data"]["model"]["demo"] is True
    assert demo["data"]["model"]["version"] == "hakiki-german-1.0.0"
    assert "Demo model" in demo["data"]["model"]["label"]
    refused = await decide(client, headers, APPLICANT, status=400)
    assert refused["details"][0]["field"] == "loan.purpose"

    response = await client.post(f"{URL}/{model['model_id']}/activate", headers=headers)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "model_id": model["model_id"],
        "version": "lender-1",
        "demo": False,
        "previous_version": "hakiki-german-1.0.0",
    }
    own = await decide(client, headers, APPLICANT)
    info = own["data"]["model"]
    assert info["version"] == "lender-1" and info["model_id"] == model["model_id"]
    assert info["demo"] is False and "2,000 loans" in info["label"]
    assert own["data"]["variables"]["betting_share"] is not None
    riskier = {**APPLICANT, "statement": {**APPLICANT["statement"], "betting_share": 0.45}}
    assert (await decide(client, headers, riskier))["data"]["score"] < own["data"]["score"]
    wrong = await decide(client, headers, with_purpose("new_car"), status=400)
    assert "lender-1 was trained on" in wrong["message"]
    listed = (await client.get(URL, headers=headers)).json()
    assert listed["active_version"] == "lender-1" and listed["data"][0]["active"] is True

    response = await client.post(f"{URL}/{model['model_id']}/rollback", headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == "hakiki-german-1.0.0"
    assert response.json()["demo"] is True
    back = await decide(client, headers, with_purpose("electronics"))
    assert back["data"]["model"]["demo"] is True
    again = await client.post(f"{URL}/{model['model_id']}/rollback", headers=headers)
    assert again.status_code == 409  # not the active model any more: the demo model is
    assert "hakiki-german-1.0.0 is" in again.json()["message"]

    # Each decision replays from its stored (encrypted) inputs with the model that made it,
    # though another model is active now.
    replayed = (
        await client.get(f"/v3/credit/decisions/{own['reference']}/replay", headers=headers)
    ).json()
    assert replayed["model_version"] == "lender-1" and replayed["reproduced"] is True
    assert replayed["score"] == own["data"]["score"]
    async with db.reader.connect() as conn:
        row = (
            (
                await conn.execute(
                    credit_decisions.select().where(
                        credit_decisions.c.reference == own["reference"]
                    )
                )
            )
            .mappings()
            .one()
        )
    assert row["model_version"] == "lender-1" and "5000000" not in row["inputs_encrypted"]
    demo_replayed = await client.get(
        f"/v3/credit/decisions/{demo['reference']}/replay", headers=headers
    )
    assert demo_replayed.json()["model_version"] == "hakiki-german-1.0.0"
    assert demo_replayed.json()["reproduced"] is True


async def test_too_little_data_is_trained_but_refused_activation(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    small = generator.generate(300, 5).csv_text().encode()
    model = await trained(
        client, account.headers, (await upload(client, account.headers, small))["model_id"]
    )
    assert model["status"] == "trained" and model["activatable"] is False
    response = await client.post(f"{URL}/{model['model_id']}/activate", headers=account.headers)
    assert response.status_code == 409
    assert "300 loan outcomes (at least 500 are needed)" in response.json()["message"]
    assert (await decide(client, account.headers, with_purpose("business")))["data"]["model"][
        "demo"
    ] is True


async def test_a_bad_book_is_400_naming_row_and_column_and_nothing_is_stored(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    lines = generator.generate(3, 1).csv_text().splitlines()
    lines[2] = lines[2].replace(",school_fees,", ",school fees!,").replace("L000001", "L000001")
    header = lines[0].split(",")
    cells = lines[3].split(",")
    cells[header.index("loan_term_months")] = "six"
    lines[3] = ",".join(cells)
    bad = "\n".join(lines).encode()
    answer = await upload(client, account.headers, bad, status=400)
    details = answer["details"]
    assert {
        "field": "loan_term_months",
        "row": 4,
        "problem": "'six' is not a whole number",
    } in details
    unknown = await upload(client, account.headers, b"loan_id,amount\nL1,5\n", status=400)
    assert {d["field"] for d in unknown["details"]} >= {"amount", "disbursed_on"}
    listed = (await client.get(URL, headers=account.headers)).json()
    assert listed["data"] == [] and listed["active_version"] == "hakiki-german-1.0.0"


async def test_other_organisations_get_404_and_read_only_keys_403(
    client: httpx.AsyncClient, make_account: AccountFactory, book_csv: bytes
) -> None:
    owner = await make_account("sandbox")
    other = await make_account("sandbox")
    model_id = (await upload(client, owner.headers, book_csv))["model_id"]
    await trained(client, owner.headers, model_id)
    for method, path in (("GET", f"{URL}/{model_id}"), ("POST", f"{URL}/{model_id}/activate")):
        response = await client.request(method, path, headers=other.headers)
        assert response.status_code == 404, response.text
    live = await make_account("live")  # the other environment of an organisation is apart too
    assert (await client.get(f"{URL}/{model_id}", headers=live.headers)).status_code == 404
    reader = await make_account("sandbox", scopes=["credit:read"])
    response = await client.post(
        URL, files={"file": ("loans.csv", book_csv, "text/csv")}, headers=reader.headers
    )
    assert response.status_code == 403
    rollback = f"{URL}/{model_id}/rollback"
    assert (await client.post(rollback, headers=reader.headers)).status_code == 403
    assert (await client.post(rollback, headers=other.headers)).status_code == 404
    assert (await client.get(URL, headers=reader.headers)).status_code == 200


async def test_rows_naming_a_statement_analysis_train_on_its_figures(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox")
    done = await sandbox_analysis(
        client, account.headers, "mpesa-genuine.pdf",
        declared_name="JANE WANJIKU MWANGI", declared_phone="0722000111",
    )  # fmt: skip
    book = generator.generate(600, 9)
    header = [*generator.HEADER, "statement_analysis_id"]
    rows = [{**row, "statement_analysis_id": ""} for row in book.rows]
    for row in rows[:3]:  # their statement columns come from the analysis
        row.update({k: "" for k in FIGURES}, statement_analysis_id=done["analysis_id"])
    model = await trained(
        client,
        account.headers,
        (await upload(client, account.headers, as_csv(header, rows)))["model_id"],
    )
    assert model["status"] == "trained", model
    metrics = done["metrics"]
    assert analysis_figures(done)["income_regularity"] == str(metrics["income"]["regularity"])

    rows[5]["statement_analysis_id"] = "sta_00000000000000000000"
    failed = await trained(
        client,
        account.headers,
        (await upload(client, account.headers, as_csv(header, rows)))["model_id"],
    )
    assert failed["status"] == "failed" and failed["card"] is None
    assert failed["failure_reason"] == (
        "The loan book has problems: row 7, statement_analysis_id: sta_00000000000000000000 is "
        "not a completed statement analysis of this environment."
    )


def as_csv(header: list[str], rows: list[dict[str, str]]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()
