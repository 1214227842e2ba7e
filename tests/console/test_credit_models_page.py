"""The console's credit models pages (issue 38): the list of the organisation's models of the
session's environment and a model's card; owners and admins activate and roll back with a
confirmation (the API's change, request-log row and audit row), analysts and viewers see the
pages without the buttons and get 403 on a POST; CSRF as every form; another organisation's
model is 404; a model refused for too little data shows why and stays refused."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, transaction
from hakiki.core.ids import new_id
from hakiki.core.privacy.audit import AuditWriter
from hakiki.core.runtime import Runtime
from hakiki.credit.registry import repository
from hakiki.credit.registry.loan_file import parse_csv
from hakiki.devtools import loan_book as generator
from hakiki.engines.credit.lender_training import Settings, train
from hakiki.engines.credit.loan_book import read_book
from tests.console.conftest import UserFactory
from tests.console.helpers import ConsoleUser, browser, csrf_of, signed_in

PAGE = "/console/credit-models"
DECISION = "/v3/credit/decision"
APPLICANT = {
    "loan": {"amount": 8_000_000, "term_months": 12, "purpose": "school_fees"},
    "applicant": {
        "monthly_income": 5_000_000,
        "monthly_obligations": 1_500_000,
        "employment_months": 18,
    },
}


def _document(rows: int, seed: int, version: str) -> dict[str, Any]:
    header, book = parse_csv(generator.generate(rows, seed).csv_text().encode())
    document = train(read_book(header, book), Settings(version=version, window_days=90))
    document["card"]["trained_at"] = utcnow().isoformat()
    return document


@pytest.fixture(scope="module")
def documents() -> dict[str, dict[str, Any]]:
    """A model with enough data (1,000 loans) and one with too little (300 loans)."""
    return {"enough": _document(1_000, 7, "lender-1"), "little": _document(300, 5, "lender-2")}


async def stored_model(
    db: Database, org_id: str, document: dict[str, Any], environment: str = "sandbox"
) -> str:
    """A trained model of ``org_id`` as the training job leaves it."""
    card = document["card"]
    now = utcnow()
    model_id = new_id("cmo")
    async with transaction(db) as conn:
        number = await repository.count_models(conn, org_id, environment) + 1
        await repository.insert_model(
            conn,
            {
                "id": model_id,
                "org_id": org_id,
                "environment": environment,
                "version": f"lender-{number}",
                "status": "trained",
                "stage": "trained",
                "progress": 100,
                "file_name": "loans.csv",
                "rows": card["data"]["rows"],
                "window_days": 90,
                "book_encrypted": None,
                "document": orjson.dumps({**document, "version": f"lender-{number}"}).decode(),
                "activatable": card["activatable"],
                "refusal_reason": card["refusal_reason"],
                "failure_reason": None,
                "request_id": new_id("req"),
                "created_at": now,
                "trained_at": now,
                "updated_at": now,
            },
        )
    return model_id


async def _decided_by(http: httpx.AsyncClient, csrf: str) -> str:
    answer = await http.post(DECISION, json=APPLICANT, headers={"X-CSRF-Token": csrf})
    assert answer.status_code in (200, 400), answer.text
    if answer.status_code == 400:  # the demo model knows no school_fees
        assert answer.json()["details"][0]["field"] == "loan.purpose"
        return "demo"
    version: str = answer.json()["data"]["model"]["version"]
    return version


async def _setup(
    make_user: UserFactory, db: Database, documents: dict[str, dict[str, Any]]
) -> tuple[ConsoleUser, str, str]:
    owner = await make_user("owner")
    good = await stored_model(db, owner.org_id, documents["enough"])
    small = await stored_model(db, owner.org_id, documents["little"])
    return owner, good, small


@pytest.mark.parametrize("role", ["owner", "admin"])
async def test_an_owner_or_admin_activates_and_rolls_back_from_the_console(
    app: FastAPI,
    make_user: UserFactory,
    db: Database,
    runtime: Runtime,
    documents: dict[str, dict[str, Any]],
    role: str,
) -> None:
    owner, good, small = await _setup(make_user, db, documents)
    user = owner if role == "owner" else await make_user("admin", org=owner)
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        listing = await http.get(PAGE)
        assert listing.status_code == 200, listing.text
        html = listing.text
        assert '<a href="/console/credit-models" aria-current="page">Credit models</a>' in html
        assert "Decisions in this environment use <strong>hakiki-german-1.0.0</strong>" in html
        rows = [r for r in html.split("<tr")[1:] if "<td>" in r]
        assert len(rows) == 2 and "lender-2" in rows[0] and "lender-1" in rows[1]
        card = documents["enough"]["card"]
        assert "<td>inactive</td>" in rows[1]
        assert f"<td>{card['metrics']['holdout_auc']}</td>" in rows[1]
        assert f"<td>{card['data']['outcomes']:,}</td>" in rows[1]
        assert card["data"]["period"]["from"] in rows[1]
        assert "<td>refused</td>" in rows[0] and "at least 500 are needed" in rows[0]

        page = await http.get(f"{PAGE}/{good}")
        assert page.status_code == 200, page.text
        assert 'id="activate"' in page.text and 'id="rollback"' not in page.text
        assert 'id="bands"' in page.text and 'id="fairness"' in page.text
        assert "protected_gender" in page.text and 'id="reason-codes"' in page.text
        assert documents["enough"]["variables"][0]["reason_code"] in page.text
        assert await _decided_by(http, csrf) == "demo"

        unconfirmed = await http.post(f"{PAGE}/{good}/activate", data={"csrf": csrf})
        assert unconfirmed.status_code == 400 and "confirm" in unconfirmed.text
        done = await http.post(f"{PAGE}/{good}/activate", data={"csrf": csrf, "confirm": "yes"})
        assert done.status_code == 303, done.text
        shown = await http.get(done.headers["location"])
        assert "Activated: decisions now use lender-1 (before: hakiki-german-1.0.0)" in shown.text
        assert 'id="rollback"' in shown.text and 'id="activate"' not in shown.text
        assert await _decided_by(http, csrf) == "lender-1"
        listing = await http.get(PAGE)
        assert "use <strong>lender-1</strong>" in listing.text

        back = await http.post(f"{PAGE}/{good}/rollback", data={"csrf": csrf, "confirm": "yes"})
        assert back.status_code == 303, back.text
        assert await _decided_by(http, csrf) == "demo"
        again = await http.post(f"{PAGE}/{good}/rollback", data={"csrf": csrf, "confirm": "yes"})
        assert again.status_code == 409 and "nothing to roll back" in again.text

        # The model with too little data: the reason shown, no button, and a POST refused.
        refused_page = await http.get(f"{PAGE}/{small}")
        assert 'id="refusal"' in refused_page.text and 'id="activate"' not in refused_page.text
        assert "300 loan outcomes (at least 500 are needed)" in refused_page.text
        refused = await http.post(f"{PAGE}/{small}/activate", data={"csrf": csrf, "confirm": "yes"})
        assert refused.status_code == 409
        assert 'id="model-error"' in refused.text and "at least 500 are needed" in refused.text
        assert await _decided_by(http, csrf) == "demo"

        await runtime.part(AuditWriter).flush()
        audit = await http.get("/v3/privacy/audit-log", headers={"X-CSRF-Token": csrf})
    rows_ = [
        (r["actor_type"], r["action"], r["endpoint"], r["resource_id"])
        for r in audit.json()["data"]
        if r["endpoint"].startswith("credit.models")
    ]
    assert rows_ == [  # newest first; the refused activation and the 409 are not rows
        ("user", "create", "credit.models.rollback", good),
        ("user", "create", "credit.models.activate", good),
    ]


@pytest.mark.parametrize("role", ["analyst", "viewer", "developer"])
async def test_other_roles_see_the_models_but_cannot_act(
    app: FastAPI,
    make_user: UserFactory,
    db: Database,
    documents: dict[str, dict[str, Any]],
    role: str,
) -> None:
    owner, good, _ = await _setup(make_user, db, documents)
    user = await make_user(role, org=owner)
    async with browser(app) as http:
        csrf = await signed_in(http, user)
        listing = await http.get(PAGE)
        assert listing.status_code == 200 and "lender-1" in listing.text
        page = await http.get(f"{PAGE}/{good}")
        assert page.status_code == 200 and 'id="holdout-auc"' in page.text
        assert 'id="activate"' not in page.text and 'id="rollback"' not in page.text
        refused = await http.post(f"{PAGE}/{good}/activate", data={"csrf": csrf, "confirm": "yes"})
        assert refused.status_code == 403, refused.text
        assert f"The {role} role cannot activate" in refused.text
        # Nor through the API with the session: the role holds no credit:write.
        api = await http.post(f"/v3/credit/models/{good}/activate", headers={"X-CSRF-Token": csrf})
        assert api.status_code == 403, api.text
        listing = await http.get(PAGE)
        assert "use <strong>hakiki-german-1.0.0</strong>" in listing.text


async def test_csrf_and_another_organisations_model(
    app: FastAPI, make_user: UserFactory, db: Database, documents: dict[str, dict[str, Any]]
) -> None:
    owner, good, _ = await _setup(make_user, db, documents)
    stranger = await make_user("owner")
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        forged = await http.post(
            f"{PAGE}/{good}/activate", data={"csrf": "x" * 43, "confirm": "yes"}
        )
        assert forged.status_code == 403 and "CSRF" in forged.text
        missing = await http.post(f"{PAGE}/{good}/activate", data={"confirm": "yes"})
        assert missing.status_code == 403
        assert await _decided_by(http, csrf) == "demo"
    async with browser(app) as http:
        csrf = await signed_in(http, stranger)
        assert (await http.get(f"{PAGE}/{good}")).status_code == 404
        post = await http.post(f"{PAGE}/{good}/activate", data={"csrf": csrf, "confirm": "yes"})
        assert post.status_code == 404
        listing = await http.get(PAGE)
        assert good not in listing.text and "No model trained" in listing.text
        page = await http.get(PAGE)
        assert csrf_of(page.text) == csrf


async def test_the_live_environment_keeps_its_own_registry(
    app: FastAPI, make_user: UserFactory, db: Database, documents: dict[str, dict[str, Any]]
) -> None:
    owner = await make_user("owner")
    live = await stored_model(db, owner.org_id, documents["enough"], environment="live")
    async with browser(app) as http:
        await signed_in(http, owner)
        assert "No model trained" in (await http.get(PAGE)).text
        assert (await http.get(f"{PAGE}/{live}")).status_code == 404
