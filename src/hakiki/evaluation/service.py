"""The 360 evaluations: the request's figures (and, live, the operator's reference files) into
the engine, the answer with its breakdown, trace and explanation, one charge per live call.
Sandbox runs the same engine on the request alone: no operator file, no language model."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.envelope import payload_answer
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.wallet.service import Charge
from hakiki.engines import evaluation as engine
from hakiki.engines.address.gazetteer import LEVELS, haversine_km, load, normalise
from hakiki.engines.evaluation.reference import (
    CROP_WATER_SOURCE,
    climate_norm,
    price_volatility,
    water_need,
)
from hakiki.evaluation import llm
from hakiki.evaluation.schemas import (
    RATING_VERDICTS,
    AgriSmeRequest,
    BureauIn,
    CashFlowIn,
    ComponentOut,
    CropRequest,
    EvaluationResult,
    ExplanationOut,
    FactorOut,
    LivestockRequest,
    Location,
    OverrideOut,
)
from hakiki.evaluation.sources import EvaluationSources


def _both(first: object, second: object, name: str, other: str) -> None:
    if first is not None and second is not None:
        raise invalid_request(
            f"Send {name} or {other}, not both.", field=other, problem="conflicts with " + name
        )


def _unavailable(what: str) -> ApiError:
    return ApiError(
        503,
        "channel_unavailable",
        f"{what} cannot be resolved on this server yet: send the figures inline instead. "
        "Nothing was charged.",
    )


async def _bureau(call: Call, given: BureauIn | None, reference: str | None) -> BureauIn | None:
    if reference is None:
        return given
    source = call.runtime.part(EvaluationSources).bureau
    if source is None:
        raise _unavailable("A bureau_reference")
    found = await source.figures(call.principal, reference)
    if found is None:
        raise ApiError(404, "not_found", "No bureau report of yours has this reference.")
    return found


async def _cash(call: Call, given: CashFlowIn | None, analysis_id: str | None) -> CashFlowIn | None:
    if analysis_id is None:
        return given
    source = call.runtime.part(EvaluationSources).statements
    if source is None:
        raise _unavailable("A statement_analysis_id")
    found = await source.cash_flow(call.principal, analysis_id)
    if found is None:
        raise ApiError(404, "not_found", "No statement analysis of yours has this id.")
    return found


def _engine_bureau(given: BureauIn | None, label: str, source: str) -> engine.Bureau | None:
    if given is None:
        return None
    named = f"{source}: {given.bureau}" if given.bureau else source
    return engine.Bureau(
        given.max_days_past_due,
        given.non_performing_accounts,
        given.written_off_accounts,
        given.months_of_history,
        given.enquiries_90_days,
        label=label,
        source=named,
    )


def _engine_cash(given: CashFlowIn | None, source: str) -> engine.CashFlow | None:
    if given is None:
        return None
    return engine.CashFlow(
        given.months_covered,
        given.average_monthly_inflow,
        given.average_monthly_outflow,
        given.inflow_cv_percent,
        given.monthly_repayment,
        source=source,
    )


def _area(country: str, location: Location, data: list[dict[str, Any]]) -> str | None:
    """The top-level area (county, district, region, state): as named, else from the GPS."""
    gazetteer = load()
    level = LEVELS[country][0]
    if location.county is not None:
        areas = gazetteer.names[country].get(normalise(location.county), ())
        top = [a for a in areas if a.level == level]
        if not top:
            raise invalid_request(
                f"{location.county[:40]!r} is not a {level} of {country}.",
                field="location.county",
                problem=f"unknown {level}",
            )
        data.append({"item": level, "value": top[0].name, "source": "request"})
        return top[0].name
    if (location.latitude is None) != (location.longitude is None):
        missing = "location.latitude" if location.latitude is None else "location.longitude"
        raise invalid_request(
            "Send both latitude and longitude, or neither.", field=missing, problem="missing"
        )
    if location.latitude is None or location.longitude is None:
        return None
    lat, lon = location.latitude, location.longitude
    candidates = [
        a
        for a in gazetteer.areas.values()
        if a.country == country and a.level == level and a.lat is not None and a.lon is not None
    ]
    nearest = min(candidates, key=lambda a: haversine_km(lat, lon, a.lat or 0.0, a.lon or 0.0))
    data.append(
        {
            "item": level,
            "value": nearest.name,
            "source": "GPS point, nearest centroid in the bundled gazetteer",
        }
    )
    return nearest.name


def _sourced(value: float | None, source: str, as_of: str | None) -> engine.Sourced | None:
    return None if value is None else engine.Sourced(value, source, as_of)


async def _current(
    call: Call,
    body: CropRequest | LivestockRequest,
    area: str | None,
    data: list[dict[str, Any]],
) -> tuple[engine.Sourced | None, engine.Sourced | None]:
    """This season's rainfall and NDVI from the live feed, for what the request did not send."""
    env, feed = body.environment, call.runtime.part(EvaluationSources).feed
    wanted = env.season_rainfall_mm is None or env.ndvi is None
    if not (call.principal.live and feed and area and body.season and wanted):
        return None, None
    rain, ndvi, source, as_of = await feed.current(body.country_code, area, body.season.name)
    data.append(
        {
            "item": "current_conditions",
            "value": {"rainfall_mm": rain, "ndvi": ndvi},
            "source": source,
            "as_of": as_of,
        }
    )
    return _sourced(rain, source, as_of), _sourced(ndvi, source, as_of)


async def _climate(
    call: Call,
    body: CropRequest | LivestockRequest,
    area: str | None,
    data: list[dict[str, Any]],
) -> engine.Climate:
    env = body.environment
    told = f"request: {env.source}" if env.source else "request"
    as_of = env.as_of.isoformat() if env.as_of else None
    norm = None
    fed_rain, fed_ndvi = await _current(call, body, area, data)
    sources = call.runtime.part(EvaluationSources)
    if call.principal.live and sources.climate and area and body.season:
        norm = climate_norm(sources.climate, body.country_code, area, body.season.name)
        data.append(
            {
                "item": "climate_norms",
                "value": "found" if norm else "no row for the area",
                "source": f"operator file {sources.climate_file}",
            }
        )

    def pick(value: float | None, fallback: engine.Sourced | None) -> engine.Sourced | None:
        return _sourced(value, told, as_of) if value is not None else fallback

    return engine.Climate(
        season_rainfall_mm=pick(env.season_rainfall_mm, fed_rain),
        normal_rainfall_mm=pick(env.normal_rainfall_mm, norm.rainfall_normal_mm if norm else None),
        rainfall_cv_percent=pick(
            env.rainfall_cv_percent, norm.rainfall_cv_percent if norm else None
        ),
        ndvi=pick(env.ndvi, fed_ndvi),
        ndvi_norm=pick(env.ndvi_norm, norm.ndvi_norm if norm else None),
    )


def _market(
    call: Call,
    body: CropRequest | LivestockRequest,
    produce: str,
    area: str | None,
    data: list[dict[str, Any]],
) -> engine.Market:
    market = body.market
    cv = _sourced(market.price_cv_percent, "request", None)
    sources = call.runtime.part(EvaluationSources)
    if cv is None and call.principal.live and sources.prices and area:
        found = price_volatility(sources.prices, area, market.produce or produce)
        if found is not None:
            source = f"WFP market prices via HDX ({sources.prices_file}): {found.market}, "
            source += f"{found.commodity}, {found.observations} prices"
            cv = engine.Sourced(found.cv_percent, source, found.as_of)
        data.append(
            {
                "item": "price_volatility",
                "value": found.cv_percent if found else None,
                "source": f"operator file {sources.prices_file}",
            }
        )
    return engine.Market(market.offtake, market.distance_km, cv)


async def evaluate_crop(call: Call, body: CropRequest) -> bytes:
    _both(body.bureau, body.bureau_reference, "bureau", "bureau_reference")
    _both(body.cash_flow, body.statement_analysis_id, "cash_flow", "statement_analysis_id")
    data: list[dict[str, Any]] = []
    area = _area(body.country_code, body.location, data)
    bureau = await _bureau(call, body.bureau, body.bureau_reference)
    cash = await _cash(call, body.cash_flow, body.statement_analysis_id)
    await hold_price(call)
    main = max(body.farm.crops, key=lambda c: c.area_ha or 0.0)
    need = water_need(main.crop)
    if need is not None:
        data.append(
            {"item": "crop_water_need_mm", "value": list(need), "source": CROP_WATER_SOURCE}
        )
    inputs = engine.CropInputs(
        farm=engine.CropFarm(
            main.crop,
            main.irrigated,
            tuple(main.yields_kg_per_ha),
            body.farm.inputs.certified_seed,
            body.farm.inputs.fertiliser,
            body.farm.inputs.crop_insurance,
        ),
        climate=await _climate(call, body, area, data),
        bureau=_engine_bureau(bureau, "applicant", _origin(body.bureau_reference, "bureau")),
        cash_flow=_engine_cash(cash, _origin(body.statement_analysis_id, "cash_flow")),
        market=_market(call, body, main.crop, area, data),
        crop_water_need_mm=need,
    )
    result = engine.evaluate_crop(inputs, data)
    return await _finish(call, body, result, body.farmer.national_id or body.farmer.reference)


async def evaluate_livestock(call: Call, body: LivestockRequest) -> bytes:
    _both(body.bureau, body.bureau_reference, "bureau", "bureau_reference")
    _both(body.cash_flow, body.statement_analysis_id, "cash_flow", "statement_analysis_id")
    data: list[dict[str, Any]] = []
    area = _area(body.country_code, body.location, data)
    bureau = await _bureau(call, body.bureau, body.bureau_reference)
    cash = await _cash(call, body.cash_flow, body.statement_analysis_id)
    await hold_price(call)
    herd = body.herd
    inputs = engine.LivestockInputs(
        herd=engine.Herd(herd.species, herd.head_count, herd.vaccinated_percent),
        climate=await _climate(call, body, area, data),
        bureau=_engine_bureau(bureau, "applicant", _origin(body.bureau_reference, "bureau")),
        cash_flow=_engine_cash(cash, _origin(body.statement_analysis_id, "cash_flow")),
        market=_market(call, body, herd.species, area, data),
    )
    result = engine.evaluate_livestock(inputs, data)
    return await _finish(call, body, result, body.farmer.national_id or body.farmer.reference)


_AGRI_SME_INPUTS = (
    "cash_flow",
    "statement_analysis_id",
    "business_bureau",
    "business_bureau_reference",
    "principals_bureau",
    "audited_accounts",
)


def _given(value: object) -> bool:
    """A scoring input with at least one figure: an object of nulls (``{}``) is none."""
    if isinstance(value, BaseModel):
        return any(_given(getattr(value, name)) for name in value.model_fields_set)
    if isinstance(value, list):
        return any(_given(item) for item in value)
    return value is not None


def _something_to_score(body: AgriSmeRequest) -> None:
    """An agri-SME request without a single figure was scored (250, every component at its
    conservative default): it is a 400 naming what to send (issue 35)."""
    if not any(_given(getattr(body, name)) for name in _AGRI_SME_INPUTS):
        listed = ", ".join(_AGRI_SME_INPUTS)
        problem = f"has nothing to score: send at least one of {listed}, with its figures"
        raise invalid_request(f"The request {problem}.", field="body", problem=problem)


async def evaluate_agri_sme(call: Call, body: AgriSmeRequest) -> bytes:
    _something_to_score(body)
    _both(
        body.business_bureau,
        body.business_bureau_reference,
        "business_bureau",
        "business_bureau_reference",
    )
    _both(body.cash_flow, body.statement_analysis_id, "cash_flow", "statement_analysis_id")
    bureau = await _bureau(call, body.business_bureau, body.business_bureau_reference)
    cash = await _cash(call, body.cash_flow, body.statement_analysis_id)
    await hold_price(call)
    accounts = body.audited_accounts
    engine_accounts = None
    if accounts is not None:
        growth = accounts.revenue_growth_percent
        if growth is None and accounts.revenue is not None and accounts.prior_year_revenue:
            growth = (accounts.revenue / accounts.prior_year_revenue - 1) * 100
        engine_accounts = engine.Accounts(
            accounts.audit_opinion,
            accounts.net_margin_percent,
            accounts.current_ratio,
            accounts.debt_to_equity,
            accounts.years_of_accounts,
            growth,
        )
    principals = tuple(
        p
        for i, given in enumerate(body.principals_bureau)
        if (p := _engine_bureau(given, f"principal {i + 1}", "principals_bureau")) is not None
    )
    inputs = engine.AgriSmeInputs(
        business_bureau=_engine_bureau(
            bureau, "business", _origin(body.business_bureau_reference, "business_bureau")
        ),
        principals=principals,
        cash_flow=_engine_cash(cash, _origin(body.statement_analysis_id, "cash_flow")),
        accounts=engine_accounts,
    )
    result = engine.evaluate_agri_sme(inputs, [])
    return await _finish(call, body, result, body.business.national_id or body.business.reference)


def _origin(reference: str | None, field: str) -> str:
    return f"resolved reference ({field})" if reference is not None else f"request ({field})"


def _breakdown(result: engine.Evaluation) -> list[ComponentOut]:
    return [
        ComponentOut(
            component=c.name,
            weight=c.weight / 100,
            score=c.score,
            points=float(c.points),
            basis=c.basis,
            factors=[
                FactorOut(
                    factor=f.name,
                    value=f.value,
                    score=f.score,
                    weight_percent=f.weight,
                    source=f.source,
                    as_of=f.as_of,
                    note=f.note or None,
                )
                for f in c.factors
            ],
        )
        for c in result.components
    ]


async def _explanation(
    call: Call,
    body: CropRequest | LivestockRequest | AgriSmeRequest,
    result: engine.Evaluation,
    breakdown: list[ComponentOut],
) -> ExplanationOut:
    text = engine.explain(result)
    if body.explanation == "deterministic":
        return ExplanationOut(text=text, generated=False, generator="deterministic")
    if not call.principal.live:
        return ExplanationOut(
            text=text,
            generated=False,
            generator="deterministic",
            fallback_reason="sandbox keys get the deterministic paragraph",
        )
    facts = {
        "score": result.score,
        "rating": result.rating,
        "components": [c.model_dump() for c in breakdown],
        "overrides": [{"cap": o.cap, "reason": o.reason} for o in result.overrides],
    }
    generated = await llm.generate(call.runtime.settings, facts)
    if generated.text is None:
        return ExplanationOut(
            text=text, generated=False, generator="deterministic", fallback_reason=generated.failure
        )
    return ExplanationOut(
        text=generated.text,
        generated=True,
        generator="language_model",
        model=generated.model or None,
    )


async def _finish(
    call: Call,
    body: CropRequest | LivestockRequest | AgriSmeRequest,
    result: engine.Evaluation,
    identity: str | None,
) -> bytes:
    breakdown = _breakdown(result)
    explanation = await _explanation(call, body, result, breakdown)

    def render(charge: Charge | None) -> bytes:
        return payload_answer(
            EvaluationResult,
            call,
            charge,
            verdict=RATING_VERDICTS[result.rating],
            reference="ev_" + call.request_id.removeprefix("req_"),
            model=result.model,
            model_version=engine.MODEL_VERSION,
            score=result.score,
            rating=result.rating,
            score_breakdown=breakdown,
            overrides=[
                OverrideOut(rule=o.rule, cap=o.cap, reason=o.reason) for o in result.overrides
            ],
            explanation=explanation,
            analysis_trace=list(result.trace),
        )

    subject = Subject(body.country_code, "evaluation", identity) if identity else None
    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=subject,
        render=render,
        description=f"360 evaluation ({result.model}, {body.country_code})",
    )
