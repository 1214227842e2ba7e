"""HTTP handlers of the 360 evaluation engine (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.evaluation import service
from hakiki.evaluation.endpoints import AGRI_SME, CROP, LIVESTOCK
from hakiki.evaluation.schemas import (
    AgriSmeRequest,
    CropRequest,
    EvaluationResult,
    LivestockRequest,
)

router = EndpointRouter(tags=["360 Evaluation"])


@router.endpoint(CROP, response_model=EvaluationResult)
async def crop(body: CropRequest, call: Call) -> bytes:
    """Scores a crop farmer on 1000 points: CRB 25%, agro-ecological 25% (rainfall variability,
    this season against the norm, rainfall against the main crop's water need, yield stability,
    good practices), cash flow 25%, market 25% (off-take, distance, price volatility).
    `score_breakdown` lists each component with its weight, score, points and factors;
    `analysis_trace` every step, enough to recompute the score by hand (docs/evaluation-360.md).
    A component with no figures scores the conservative 250, a missing factor re-weights its
    component, and the trace says which. `explanation: generated` asks a language model (live,
    when configured) for the paragraph, marked as generated. Live: one charge per call.
    Sandbox: the same engine on the request alone, free (profiles in docs/sandbox.md)."""
    return await service.evaluate_crop(call, body)


@router.endpoint(LIVESTOCK, response_model=EvaluationResult)
async def livestock(body: LivestockRequest, call: Call) -> bytes:
    """Scores a livestock farmer on 1000 points: CRB 25%, NDVI/weather 25% (pasture NDVI
    against its seasonal norm, rainfall variability and this season, herd vaccination), cash
    flow 25%, market 25%. Same breakdown, trace and explanation as the crop score
    (docs/evaluation-360.md). Live: one charge per call. Sandbox: the same engine on the request
    alone, free (profiles in docs/sandbox.md)."""
    return await service.evaluate_livestock(call, body)


@router.endpoint(AGRI_SME, response_model=EvaluationResult)
async def agri_sme(body: AgriSmeRequest, call: Call) -> bytes:
    """Scores an agri-SME on 1000 points: combined CRB 30% (the business's and its principals'
    reports, each figure the worst among them), cash flow 35%, audited accounts 35% (opinion,
    net margin, current ratio, leverage, years of accounts, revenue growth). An adverse or
    disclaimed opinion caps the score at 400. Same breakdown, trace and explanation as the
    farmer scores (docs/evaluation-360.md). Live: one charge per call. Sandbox: the same engine
    on the request alone, free (profiles in docs/sandbox.md)."""
    return await service.evaluate_agri_sme(call, body)
