"""Request and response models of the credit model registry (/v3/credit/models)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from hakiki.core.pagination import Pagination

ModelStatus = Literal["pending", "training", "trained", "failed"]


class CreditModel(BaseModel):
    model_id: str
    version: str = Field(description="Named by every decision the model makes.")
    live: bool
    status: ModelStatus
    stage: str = Field(description="What training is doing now, or trained / failed.")
    progress: int = Field(description="0-100.")
    active: bool = Field(description="The model decisions of this environment use now.")
    activatable: bool | None = Field(
        description="Whether the data was enough to activate it (null until trained)."
    )
    refusal_reason: str | None = Field(description="Why it may not be activated.")
    failure_reason: str | None
    file_name: str
    rows: int
    window_days: int = Field(description="A loan counts as defaulted within this many days.")
    created_at: datetime
    trained_at: datetime | None
    card: dict[str, Any] | None = Field(
        None,
        description="The model card (docs/credit-model.md): data period and counts, holdout "
        "AUC and KS, calibration and approval by band, fairness ratios per protected column, "
        "inputs. Null until trained.",
    )


class CreditModelList(BaseModel):
    data: list[CreditModel]
    active_version: str = Field(description="The version decisions use now (the demo's if none).")
    pagination: Pagination


class ActiveModel(BaseModel):
    model_id: str | None = Field(description="Null: the demo model (German Credit data).")
    version: str
    demo: bool
    previous_version: str | None = Field(
        None,
        description="The version that was active before this call, for an activation "
        "or a rollback.",
    )


class DecisionReplay(BaseModel):
    reference: str
    model_id: str | None = Field(description="Null: the demo model.")
    model_version: str = Field(description="The model that made the decision.")
    stored_score: int
    stored_decision: Literal["approve", "refer", "decline"]
    score: int = Field(description="The same model on the stored inputs, now.")
    reproduced: bool = Field(description="Whether the score now equals the stored score.")
