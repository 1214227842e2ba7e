"""The three 360 endpoints over HTTP on both databases: sandbox and live, billing, the trace
recomputed, operator reference files, unresolvable references, hostile input, and the generated
explanation against a fake OpenAI-compatible server."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from hakiki.account import service as accounts
from hakiki.core.database import Database
from hakiki.core.wallet import service as wallet
from hakiki.evaluation import examples
from hakiki.evaluation.schemas import BureauIn
from hakiki.evaluation.sources import EvaluationSources
from hakiki.evaluation.statement_analyses import cash_flow_of
from tests.conftest import AccountFactory, debit_count
from tests.engines.evaluation.test_properties import recompute
from tests.evaluation.fake_llm import FakeLlm, run_fake_llm
from tests.statements.conftest import sandbox_analysis, unfinished_copy

CROP = "/api/v1/farmer360/crop"
LIVESTOCK = "/api/v1/farmer360/livestock"
SME = "/api/v1/agsme360/agrismes"


def body_with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(base)
    body.update(changes)
    return body


async def post(
    client: httpx.AsyncClient, path: str, body: Any, headers: dict[str, str], status: int = 200
) -> dict[str, Any]:
    response = await client.post(path, json=body, headers=headers)
    assert response.status_code == status, response.text
    result: dict[str, Any] = response.json()
    return result


@pytest.mark.parametrize(
    ("path", "example", "weights"),
    [
        (
            CROP,
            examples.CROP,
            {"crb": 0.25, "agro_ecological": 0.25, "cash_flow": 0.25, "market": 0.25},
        ),
        (
            LIVESTOCK,
            examples.LIVESTOCK,
            {"crb": 0.25, "ndvi_weather": 0.25, "cash_flow": 0.25, "market": 0.25},
        ),
        (
            SME,
            examples.AGRI_SME,
            {"combined_crb": 0.3, "cash_flow": 0.35, "audited_accounts": 0.35},
        ),
    ],
)
async def test_sandbox_scores_with_breakdown_trace_and_explanation(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    example: dict[str, Any],
    weights: dict[str, float],
) -> None:
    account = await make_account("sandbox")
    result = await post(client, path, example, account.headers)
    assert {c["component"]: c["weight"] for c in result["data"]["score_breakdown"]} == weights
    assert recompute(result["data"]["analysis_trace"]) == result["data"]["score"]
    points = sum(c["points"] for c in result["data"]["score_breakdown"])
    assert result["data"]["score"] == int(points + 0.5) and result["data"]["max_score"] == 1000
    assert result["data"]["explanation"]["generated"] is False
    assert result["data"]["explanation"]["text"].startswith(
        f"Score {result['data']['score']} of 1000"
    )
    assert result["billing"]["charged"] is False and result["live"] is False
    assert "national_id" not in response_text(result)
    again = await post(client, path, example, account.headers)
    assert again["data"]["analysis_trace"] == result["data"]["analysis_trace"]  # deterministic


def response_text(result: dict[str, Any]) -> str:
    return str(result)


async def test_live_charges_once_and_replays_free(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("live", balance=10_000)
    headers = {**account.headers, "Idempotency-Key": "eval-1"}
    first = await post(client, CROP, examples.CROP, headers)
    assert first["live"] is True and first["billing"]["charged"] is True
    assert first["billing"]["amount"] == 2000
    replay = await client.post(CROP, json=examples.CROP, headers=headers)
    assert replay.json() == first and replay.headers["Idempotent-Replayed"] == "true"
    assert await debit_count(db, account.org_id) == 1
    broke = await make_account("live", balance=100)
    short = await client.post(SME, json=examples.AGRI_SME, headers=broke.headers)
    assert short.status_code == 402


async def test_a_statement_analysis_feeds_the_cash_flow_component(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    """An analysis uploaded through POST /v3/statements/analyze, named by its id: its metrics
    are the cash-flow figures, for the organisation and environment that uploaded it only."""
    owner = await make_account("sandbox")
    done = await sandbox_analysis(
        client, owner.headers, "mpesa-genuine.pdf",
        declared_name="JANE WANJIKU MWANGI", declared_phone="0722000111",
    )  # fmt: skip
    metrics = done["metrics"]
    body = body_with(examples.AGRI_SME, cash_flow=None, statement_analysis_id=done["analysis_id"])
    result = await post(client, SME, body, owner.headers)
    factors = {
        f["factor"]: f
        for f in result["data"]["analysis_trace"]
        if f.get("kind") == "factor" and f.get("component") == "cash_flow"
    }
    assert factors["months_covered"]["value"] == metrics["months_covered"]
    assert factors["inflow_cv_percent"]["value"] == round(metrics["volatility"]["inflow"] * 100, 1)
    assert factors["months_covered"]["source"] == "resolved reference (cash_flow)"
    stranger = await make_account("sandbox")
    answer = await post(client, SME, body, stranger.headers, 404)
    assert answer["details"][0]["field"] == "statement_analysis_id"
    live_key = await accounts.create_key(db, owner.org_name, "live", None)
    await wallet.credit(db, owner.org_id, 10_000, "test top-up")
    live = {"Authorization": f"Bearer {live_key.client_id}:{live_key.secret}"}
    assert (await post(client, SME, body, live, 404))["error"] == "not_found"
    pending = await unfinished_copy(db, done["analysis_id"], "pending")
    waiting = body_with(body, statement_analysis_id=pending)
    answer = await post(client, SME, waiting, owner.headers, 409)
    assert answer["error"] == "conflict" and "pending" in answer["message"]
    tampered = await sandbox_analysis(client, owner.headers, "mpesa-tampered.pdf")
    forged = body_with(body, statement_analysis_id=tampered["analysis_id"])
    answer = await post(client, SME, forged, owner.headers, 409)
    assert answer["details"][0]["problem"] == "statement tampered"
    both = body_with(examples.CROP, bureau_reference="crb_123")
    conflict = await post(client, CROP, both, live, 400)
    assert conflict["details"][0]["field"] == "bureau_reference"
    assert await debit_count(db, owner.org_id) == 0


def test_statement_metrics_map_onto_cash_flow() -> None:
    metrics = {"months_covered": 200, "average_monthly_inflow": 5_000_000,
               "average_monthly_outflow": 4_000_000, "volatility": {"inflow": 0.4567}}  # fmt: skip
    flow = cash_flow_of(metrics)
    assert (flow.months_covered, flow.inflow_cv_percent) == (120, 45.7)
    assert flow.average_monthly_inflow == 5_000_000.0 and flow.monthly_repayment is None
    assert cash_flow_of({**metrics, "volatility": {"inflow": 30.0}}).inflow_cv_percent == 1000.0


async def test_gps_finds_the_county(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = body_with(examples.CROP, location={"latitude": -0.0917, "longitude": 34.768})
    result = await post(client, CROP, body, account.headers)
    area = next(s for s in result["data"]["analysis_trace"] if s.get("item") == "county")
    assert area["value"] == "Kisumu" and "GPS" in area["source"]
    half = body_with(examples.CROP, location={"latitude": -0.09})
    answer = await post(client, CROP, half, account.headers, 400)
    assert answer["details"][0]["field"] == "location.longitude"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"farm": {"size_ha": 1, "crops": [{"crop": "mai\u0000ze"}]}}, "farm.crops.0.crop"),
        ({"farm": {"size_ha": 1, "crops": []}}, "farm.crops"),
        ({"farm": {"size_ha": True, "crops": [{"crop": "maize"}]}}, "farm.size_ha"),
        ({"farm": {"size_ha": 1e300, "crops": [{"crop": "maize"}]}}, "farm.size_ha"),
        ({"bureau": {"max_days_past_due": -1}}, "bureau.max_days_past_due"),
        ({"market": {"offtake": '=HYPERLINK("x")'}}, "market.offtake"),
        ({"country_code": "GH"}, "country_code"),
        ({"surprise": 1}, "surprise"),
        ({"environment": {"ndvi": 3}}, "environment.ndvi"),
    ],
)
async def test_hostile_input_is_a_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory, change: dict[str, Any], field: str
) -> None:
    account = await make_account("sandbox")
    answer = await post(client, CROP, body_with(examples.CROP, **change), account.headers, 400)
    assert answer["error"] == "invalid_request"
    assert answer["details"][0]["field"] == field


async def test_lone_surrogates_and_huge_bodies_are_refused(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    raw = b'{"country_code": "KE", "herd": {"species": "cattle", "head_count": 3, '
    raw += b'"breed": "\\ud800"}}'
    surrogate = await client.post(
        LIVESTOCK, content=raw, headers={**account.headers, "Content-Type": "application/json"}
    )
    assert surrogate.status_code == 400
    huge = body_with(examples.CROP, farmer={"reference": "x" * (2 << 20)})
    assert (await client.post(CROP, json=huge, headers=account.headers)).status_code == 413


@pytest.fixture
def sources(app: FastAPI, tmp_path: Path) -> Iterator[EvaluationSources]:
    """The operator's reference files, as a deployment with them configured would load them."""
    climate = tmp_path / "climate.csv"
    climate.write_text(
        "country_code,area,season,rainfall_normal_mm,rainfall_cv_percent,ndvi_norm,source,as_of\n"
        "KE,Nakuru,long_rains,650,22,0.55,CHIRPS v2.0 1991-2020 (test file),2025-12-31\n"
    )
    prices = tmp_path / "wfp_food_prices_ken.csv"
    rows = [
        "date,admin1,admin2,market,category,commodity,unit,priceflag,pricetype,currency,price",
        "#date,#adm1+name,#adm2+name,#loc+market+name,#item+type,#item+name,#item+unit,"
        "#item+price+flag,#item+price+type,#currency,#value",
    ]
    for month, price in enumerate([40, 44, 48, 52, 44, 40], start=1):
        rows.append(
            f"2025-{month:02d}-15,Nakuru,Nakuru,Nakuru,cereals and tubers,"
            f"Maize (white),KG,actual,Wholesale,KES,{price}"
        )
    prices.write_text("\n".join(rows) + "\n")
    runtime = app.state.runtime
    before = runtime.parts[EvaluationSources]
    loaded = EvaluationSources.from_settings(
        runtime.settings.model_copy(
            update={"evaluation_climate_csv": climate, "evaluation_prices_csv": prices}
        )
    )
    runtime.parts[EvaluationSources] = loaded
    yield loaded
    runtime.parts[EvaluationSources] = before


async def test_live_reads_the_operators_files_and_names_them(
    client: httpx.AsyncClient, make_account: AccountFactory, sources: EvaluationSources
) -> None:
    account = await make_account("live", balance=10_000)
    body = body_with(
        examples.CROP,
        environment={"season_rainfall_mm": 500},
        market={"offtake": "contract", "distance_km": 6},
    )
    result = await post(client, CROP, body, account.headers)
    factors = {f["factor"]: f for c in result["data"]["score_breakdown"] for f in c["factors"]}
    assert factors["rainfall_cv_percent"]["value"] == 22.0
    assert factors["rainfall_cv_percent"]["source"] == "CHIRPS v2.0 1991-2020 (test file)"
    assert factors["rainfall_cv_percent"]["as_of"] == "2025-12-31"
    assert factors["season_rainfall_percent_of_normal"]["value"] == 76.92
    price = factors["price_cv_percent"]
    assert price["source"].startswith("WFP market prices via HDX (wfp_food_prices_ken.csv)")
    assert price["value"] == 10.47  # sample s.d. 4.676 / mean 44.667
    assert price["as_of"] == "2025-06-15"
    sandbox = await make_account("sandbox")
    free = await post(client, CROP, body, sandbox.headers)
    sandbox_factors = {
        f["factor"]: f for c in free["data"]["score_breakdown"] for f in c["factors"]
    }
    assert sandbox_factors["rainfall_cv_percent"]["score"] is None  # no operator file in sandbox


@pytest.fixture
def fake_llm(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLlm]:
    settings = app.state.runtime.settings
    with run_fake_llm() as fake:
        monkeypatch.setattr(settings, "evaluation_llm_base_url", fake.base_url)
        monkeypatch.setattr(settings, "evaluation_llm_api_key", "llm-key")
        monkeypatch.setattr(settings, "evaluation_llm_model", "local-model")
        monkeypatch.setattr(settings, "evaluation_llm_timeout_seconds", 0.5)
        yield fake


async def test_generated_explanation_grounded_in_the_trace(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_llm: FakeLlm
) -> None:
    account = await make_account("live", balance=10_000)
    body = body_with(examples.CROP, explanation="generated")
    fake_llm.reply = "The farmer scores 979 of 1000, strong: clean credit (1000) and steady rain."
    result = await post(client, CROP, body, account.headers)
    assert result["data"]["explanation"] == {
        "text": fake_llm.reply,
        "generated": True,
        "generator": "language_model",
        "model": "local-model",
        "fallback_reason": None,
    }
    sent = fake_llm.requests[-1]
    assert sent["model"] == "local-model" and '"score": 979' in sent["messages"][1]["content"]
    assert fake_llm.headers[-1]["Authorization"] == "Bearer llm-key"

    fake_llm.reply = "The farmer scores 979 and will surely repay 250000 shillings."
    invented = await post(client, CROP, body, account.headers)
    assert invented["data"]["explanation"]["generated"] is False
    assert "250000" in invented["data"]["explanation"]["fallback_reason"]
    assert invented["data"]["explanation"]["text"].startswith("Score 979 of 1000")

    fake_llm.delay = 1.0
    slow = await post(client, CROP, body, account.headers)
    assert (
        slow["data"]["explanation"]["fallback_reason"]
        == "the language model did not answer in time"
    )
    fake_llm.delay, fake_llm.status = 0.0, 500
    broken = await post(client, CROP, body, account.headers)
    assert broken["data"]["explanation"]["generator"] == "deterministic"
    sandbox = await make_account("sandbox")
    calls = len(fake_llm.requests)
    await post(client, CROP, body, sandbox.headers)
    assert len(fake_llm.requests) == calls  # sandbox never asks the model


class SeasonFeed:
    """A live feed of this season's conditions, as an operator's adapter would give them."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, str]] = []

    async def current(
        self, country: str, area: str, season: str
    ) -> tuple[float | None, float | None, str, str | None]:
        self.asked.append((country, area, season))
        return 260.0, 0.35, "feed: CHIRPS-prelim dekads", "2026-05-20"


async def test_the_live_feed_fills_this_seasons_conditions(
    client: httpx.AsyncClient, make_account: AccountFactory, sources: EvaluationSources
) -> None:
    feed = SeasonFeed()
    sources.feed = feed
    account = await make_account("live", balance=10_000)
    body = body_with(
        examples.LIVESTOCK,
        location={"county": "Nakuru"},
        season={"name": "long_rains", "year": 2026},
        environment={},
    )
    result = await post(client, LIVESTOCK, body, account.headers)
    assert feed.asked == [("KE", "Nakuru", "long_rains")]
    factors = {f["factor"]: f for c in result["data"]["score_breakdown"] for f in c["factors"]}
    ndvi = factors["ndvi_percent_of_norm"]  # 0.35 from the feed against the file's 0.55 norm
    assert ndvi["value"] == 63.64 and ndvi["source"] == (
        "feed: CHIRPS-prelim dekads / CHIRPS v2.0 1991-2020 (test file)"
    )
    rain = factors["season_rainfall_percent_of_normal"]  # 260 against the file's 650
    assert rain["value"] == 40.0 and rain["score"] == 100


async def test_no_personal_value_is_stored_in_clear(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    from sqlalchemy import select

    from hakiki.tables import metadata

    account = await make_account("live", balance=10_000)
    secret_id, secret_ref = "29876543", "applicant-wanjiku-0042"
    body = body_with(examples.CROP, farmer={"national_id": secret_id, "reference": secret_ref})
    headers = {**account.headers, "Idempotency-Key": "eval-pii"}
    result = await post(client, CROP, body, headers)
    assert secret_id not in str(result) and secret_ref not in str(result)
    await client.get("/healthz")  # let the request-log writer flush
    found: list[str] = []
    logged = 0
    async with db.reader.connect() as conn:
        for table in metadata.sorted_tables:
            for row in (await conn.execute(select(table))).all():
                text = str(tuple(row))
                if secret_id in text or secret_ref in text:
                    found.append(table.name)
                if table.name == "request_logs" and result["request_id"] in text:
                    assert "KE:evaluation" in text  # the subject: hashed, encrypted
                    logged += 1
    assert not found
    assert logged == 1  # the call's record is there, its subject encrypted


class OrgBureauReports:
    """Bureau reports by reference, each kept for the organisation that pulled it: the shape of
    the hook the credit category will provide."""

    def __init__(self, owner: str) -> None:
        self.owner = owner

    async def figures(self, principal: Any, reference: str) -> BureauIn | None:
        if principal.org_id != self.owner or reference != "crb_rep_1":
            return None
        return BureauIn(
            max_days_past_due=10,
            non_performing_accounts=0,
            written_off_accounts=0,
            months_of_history=30,
            enquiries_90_days=2,
            bureau="Metropol",
        )


async def test_a_bureau_reference_from_the_credit_category_is_scored(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    """A report pulled through POST /v3/credit/bureau, named by its reference: its figures
    feed the CRB component, for the organisation and environment that pulled it only."""
    owner = await make_account("sandbox")
    pull = {
        "country_code": "KE",
        "id_type": "national_id",
        "id_number": "12345674",  # sandbox: delinquent, 45 days past due
        "report_reason": "new_application",
        "consent": True,
    }
    pulled = await post(client, "/v3/credit/bureau", pull, owner.headers)
    reference = pulled["reference"]
    report = pulled["data"]["report"]
    body = body_with(examples.CROP, bureau=None, bureau_reference=reference)
    result = await post(client, CROP, body, owner.headers)
    days = result["data"]["score_breakdown"][0]["factors"][0]
    assert days["value"] == report["summary"]["max_days_past_due"] == 45
    assert days["source"] == f"resolved reference (bureau): {report['bureau_name']}, applicant"
    given = body_with(examples.CROP, bureau={"max_days_past_due": 0})
    clean = await post(client, CROP, given, owner.headers)
    assert (
        clean["data"]["score_breakdown"][0]["score"] > result["data"]["score_breakdown"][0]["score"]
    )
    stranger = await make_account("sandbox")
    assert (await post(client, CROP, body, stranger.headers, 404))["error"] == "not_found"
    live_key = await accounts.create_key(db, owner.org_name, "live", None)
    await wallet.credit(db, owner.org_id, 10_000, "test top-up")
    live = {"Authorization": f"Bearer {live_key.client_id}:{live_key.secret}"}
    assert (await post(client, CROP, body, live, 404))["error"] == "not_found"
    unknown = body_with(examples.CROP, bureau=None, bureau_reference="crb_unknown")
    assert (await post(client, CROP, unknown, owner.headers, 404))["error"] == "not_found"


async def test_a_wired_bureau_hook_resolves_only_the_callers_reports(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    sources: EvaluationSources,
    db: Database,
) -> None:
    owner = await make_account("live", balance=10_000)
    stranger = await make_account("live", balance=10_000)
    sources.bureau = OrgBureauReports(owner.org_id)
    body = body_with(examples.CROP, bureau=None, bureau_reference="crb_rep_1")
    result = await post(client, CROP, body, owner.headers)
    days = result["data"]["score_breakdown"][0]["factors"][0]
    assert days["value"] == 10 and days["score"] == 900
    assert days["source"] == "resolved reference (bureau): Metropol, applicant"
    answer = await post(client, CROP, body, stranger.headers, 404)
    assert answer["error"] == "not_found"
    assert await debit_count(db, stranger.org_id) == 0
