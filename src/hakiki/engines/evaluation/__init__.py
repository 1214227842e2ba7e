"""The 360 evaluation engine: explainable 1000-point scores for crop farmers, livestock farmers
and agri-SMEs (docs/evaluation-360.md). Pure: no HTTP, no database."""

from hakiki.engines.evaluation.explain import explain
from hakiki.engines.evaluation.factors import Factor
from hakiki.engines.evaluation.inputs import (
    Accounts,
    AgriSmeInputs,
    Bureau,
    CashFlow,
    Climate,
    CropFarm,
    CropInputs,
    Herd,
    LivestockInputs,
    Market,
    Sourced,
)
from hakiki.engines.evaluation.models import (
    CONSERVATIVE_SCORE,
    MODEL_VERSION,
    WEIGHTS,
    Component,
    Evaluation,
    evaluate_agri_sme,
    evaluate_crop,
    evaluate_livestock,
)

__all__ = [
    "CONSERVATIVE_SCORE",
    "MODEL_VERSION",
    "WEIGHTS",
    "Accounts",
    "AgriSmeInputs",
    "Bureau",
    "CashFlow",
    "Climate",
    "Component",
    "CropFarm",
    "CropInputs",
    "Evaluation",
    "Factor",
    "Herd",
    "LivestockInputs",
    "Market",
    "Sourced",
    "evaluate_agri_sme",
    "evaluate_crop",
    "evaluate_livestock",
    "explain",
]
