"""Request and response models of the credit model registry (/v3/credit/models)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hakiki.core.pagination import Pagination

ModelStatus = Literal["pending", "training", "trained", "failed"]

EXAMPLE_MODEL: dict[str, Any] = {
    "model_id": "cmo_06h1z1qg8h3vq1m6yxe2d3c4b5",
    "version": "lender-1",
    "live": False,
    "status": "trained",
    "stage": "trained",
    "progress": 100,
    "active": False,
    "activatable": True,
    "refusal_reason": None,
    "failure_reason": None,
    "file_name": "loans.csv",
    "rows": 1000,
    "window_days": 90,
    "created_at": "2026-11-28T03:00:00Z",
    "trained_at": "2026-11-28T03:00:01Z",
    "card": {
        "demo": False,
        "data": {
            "rows": 1000,
            "outcomes": 1000,
            "defaults": 123,
            "default_rate": 0.123,
            "outcome": "defaulted within 90 days of disbursement",
            "window_days": 90,
            "period": {"from": "2024-01-01", "to": "2025-12-30"},
            "split": {"seed": 20261128, "holdout_share": 0.3, "train_rows": 700,
                      "holdout_rows": 300},
        },
        "metrics": {"holdout_auc": 0.7377, "holdout_ks": 0.4864, "train_auc": 0.7916},
        "approval": {
            "cutoffs": {"approve": 620, "refer": 560},
            "approve_rate": 0.8467,
            "refer_rate": 0.1033,
            "decline_rate": 0.05,
            "default_rate_approved": 0.0827,
        },
        "fairness": {
            "protected_gender": {
                "groups": {
                    "female": {"rows": 132, "approved": 106, "defaults": 19,
                               "approval_rate": 0.803, "default_rate": 0.1439},
                    "male": {"rows": 168, "approved": 148, "defaults": 18,
                             "approval_rate": 0.881, "default_rate": 0.1071},
                },
                "approval_rate_ratio": 0.9115,
            }
        },
        "protected_columns": ["protected_gender"],
        "activatable": True,
        "refusal_reason": None,
    },
}  # fmt: skip


class CreditModel(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE_MODEL]})

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
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "model_id": "cmo_06h1z1qg8h3vq1m6yxe2d3c4b5",
                    "version": "lender-1",
                    "demo": False,
                    "previous_version": "hakiki-german-1.0.0",
                }
            ]
        }
    )

    model_id: str | None = Field(description="Null: the demo model (German Credit data).")
    version: str
    demo: bool
    previous_version: str | None = Field(
        None,
        description="The version that was active before this call, for an activation "
        "or a rollback.",
    )


class DecisionReplay(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "reference": "dec_06h1z1v2k7c9d0e1f2g3h4j5k6",
                    "model_id": "cmo_06h1z1qg8h3vq1m6yxe2d3c4b5",
                    "model_version": "lender-1",
                    "stored_score": 701,
                    "stored_decision": "approve",
                    "score": 701,
                    "reproduced": True,
                }
            ]
        }
    )

    reference: str
    model_id: str | None = Field(description="Null: the demo model.")
    model_version: str = Field(description="The model that made the decision.")
    stored_score: int
    stored_decision: Literal["approve", "refer", "decline"]
    score: int = Field(description="The same model on the stored inputs, now.")
    reproduced: bool = Field(description="Whether the score now equals the stored score.")
