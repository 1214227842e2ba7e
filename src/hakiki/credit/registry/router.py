"""HTTP handlers of the credit model registry (/v3/credit/models) and decision replay."""

from __future__ import annotations

from fastapi import Depends, File, Form, Query, UploadFile

from hakiki.core.calls import Call
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.credit import decision
from hakiki.credit.endpoints import (
    BOOK_MAX_BYTES,
    DECISION_REPLAY,
    MODEL_ACTIVATE,
    MODEL_LIST,
    MODEL_READ,
    MODEL_ROLLBACK,
    MODEL_TRAIN,
)
from hakiki.credit.registry import service
from hakiki.credit.registry.schemas import (
    ActiveModel,
    CreditModel,
    CreditModelList,
    DecisionReplay,
    ModelStatus,
)

router = EndpointRouter(tags=["Credit"])


def _owner(call: Call) -> tuple[str, str]:
    return call.principal.org_id, call.principal.environment


@router.endpoint(MODEL_TRAIN, response_model=CreditModel)
async def train_model(
    call: Call,
    file: UploadFile = File(
        description="Your loan book: CSV (UTF-8, comma or semicolon), one row per disbursed "
        "loan, the columns of docs/credit-model.md (loan_id, disbursed_on, loan_amount, "
        "loan_term_months, defaulted_within_days, then application, bureau and statement "
        "columns; protected_* columns are reported on, never inputs)."
    ),
    window_days: int = Form(
        90,
        examples=[90],
        ge=1,
        le=3650,
        description="A loan counts as defaulted when defaulted_within_days is at most this.",
    ),
) -> bytes:
    """multipart/form-data. The whole file is checked first: a missing or unknown column or a
    bad value is a 400 whose `details` give each problem's row (the header is row 1) and
    column, and nothing is stored. Otherwise 202 with the model `pending` (version
    `lender-N`); a job trains it (`training`, with `stage` and `progress`), then `trained`
    with its model card, or `failed` with the reason. A model trained on fewer than 500 loans
    or 50 defaults is `activatable: false` with the reason. The file is kept encrypted until
    the model is trained, then deleted. Free. Sandbox: the same checks and job; sandbox and
    live keys keep separate registries."""
    data = await file.read(BOOK_MAX_BYTES + 1)
    if len(data) > BOOK_MAX_BYTES:
        raise ApiError(
            400,
            "invalid_request",
            f"file: larger than the {BOOK_MAX_BYTES:,}-byte limit; train on a sample.",
            details=[{"field": "file", "problem": "too large"}],
        )
    return await service.upload(call, data, file.filename or "loans.csv", window_days)


@router.endpoint(MODEL_LIST, response_model=CreditModelList)
async def list_models(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: ModelStatus | None = Query(None, description="Only the models in this state."),
) -> CreditModelList:
    """Your organisation's models of this environment, newest first, paginated, each with its
    status, progress and card, and `active_version`: the version decisions use now
    (`hakiki-german-1.0.0`, the demo model, when none of yours is active); filter `status`.
    Free. Sandbox: the models trained with sandbox keys (live keys see the live ones)."""
    demo = decision.scorecard().version
    return await service.list_models(call.runtime.db, _owner(call), page, demo, status)


@router.endpoint(MODEL_READ, response_model=CreditModel)
async def get_model(model_id: str, call: Call) -> CreditModel:
    """One model: training progress, then the model card (data period and counts, holdout AUC
    and KS, calibration and approval by band, fairness ratios per protected column, inputs,
    and whether it may be activated). Another organisation's or environment's model is 404.
    Free. Sandbox: the models trained with sandbox keys."""
    return await service.get_model(call.runtime.db, _owner(call), model_id)


@router.endpoint(MODEL_ACTIVATE, response_model=ActiveModel)
async def activate_model(model_id: str, call: Call) -> bytes:
    """From the next decision on, this environment's decisions use this model and name its
    version. 409 while it is not trained, or when its data was too little (the reason is the
    card's). 404 for another organisation's or environment's model. Free. Sandbox: activates
    a sandbox model for the sandbox keys' decisions only."""
    return await service.change(call, decision.scorecard().version, model_id, rollback=False)


@router.endpoint(MODEL_ROLLBACK, response_model=ActiveModel)
async def rollback_model(model_id: str, call: Call) -> bytes:
    """`model_id` must be the active model: decisions go back to the model that was active
    before it; past the first activation, to the demo model. 409 when it is not the active
    model (another change came first, or the demo model is active); 404 for another
    organisation's or environment's model. Free. Sandbox: the sandbox keys' decisions only."""
    return await service.change(call, decision.scorecard().version, model_id, rollback=True)


@router.endpoint(DECISION_REPLAY, response_model=DecisionReplay)
async def replay_decision(reference: str, call: Call) -> DecisionReplay:
    """The stored inputs of decision `reference` (the `reference` of its answer) scored again
    by the model that made it, even when another model is active now: `reproduced` says the
    score is the same. 404 for another organisation's or environment's decision. Free.
    Sandbox: the decisions made with sandbox keys."""
    runtime = call.runtime
    found = await decision.replay(runtime.db, runtime.vault, _owner(call), reference)
    return DecisionReplay(
        reference=found.reference,
        model_id=found.model_id,
        model_version=found.model_version,
        stored_score=found.stored_score,
        stored_decision=found.stored_decision,  # type: ignore[arg-type]
        score=found.score,
        reproduced=found.score == found.stored_score,
    )
