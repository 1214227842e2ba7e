"""The Credit category's entries in the endpoint catalogue (docs/api.md#credit)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.envelope import InData
from hakiki.core.privacy.consent import Consented
from hakiki.credit import sandbox
from hakiki.credit.products import sandbox as products_sandbox
from hakiki.credit.registry import sandbox as models_sandbox

BUREAU = declare(
    Endpoint(
        key="credit.bureau",
        method="POST",
        path="/v3/credit/bureau",
        scope="credit:read",
        summary="Pull a credit bureau report (Metropol in Kenya, FirstCentral in Nigeria), "
        "normalised to one schema",
        price=5000,
        errors=(400, 402, 409, 503),
        sandbox=Consented(sandbox.BUREAU, ("credit_report",)),
        logged_fields=("country_code", "id_type", "report_reason"),
        consent="required",  # the Credit Reference Bureau Regulations (docs/privacy.md)
    )
)
DECISION = declare(
    Endpoint(
        key="credit.decision",
        method="POST",
        path="/v3/credit/decision",
        scope="credit:read",
        summary="A credit decision from a trained scorecard: 300-850 score, band, approve, "
        "refer or decline, reason codes",
        price=1000,
        errors=(400, 402, 404, 409),
        sandbox=InData(sandbox.DECISION),
        logged_fields=(
            "loan.term_months",
            "loan.purpose",
            "bureau_reference",
            "statement_analysis_id",
            "signals.sanctions_hit",
            "signals.confirmed_fraud",
            "signals.pep",
            "cutoffs.approve",
            "cutoffs.refer",
            "product",
        ),
    )
)

# A loan book of a million rows is about 200 MB; this limit takes 300,000 rows and more.
BOOK_MAX_BYTES = 64 * 1024 * 1024
FORM_FRAMING_BYTES = 1 << 20

MODEL_TRAIN = declare(
    Endpoint(
        key="credit.models.train",
        consent="none",  # the lender's own model: no subject's consent to record here
        method="POST",
        path="/v3/credit/models",
        scope="credit:write",
        summary="Train your own scorecard on your loan book (CSV): a job, with a model card",
        status_code=202,
        errors=(400, 409),
        sandbox=models_sandbox.MODEL_TRAIN,
        max_body_bytes=BOOK_MAX_BYTES + FORM_FRAMING_BYTES,
        logged_fields=("window_days",),
    )
)
MODEL_LIST = declare(
    Endpoint(
        key="credit.models",
        method="GET",
        path="/v3/credit/models",
        scope="credit:read",
        summary="Your credit models of this environment, newest first, and the active version",
        errors=(400,),
        sandbox=models_sandbox.MODEL_LIST,
    )
)
MODEL_READ = declare(
    Endpoint(
        key="credit.model",
        method="GET",
        path="/v3/credit/models/{model_id}",
        scope="credit:read",
        summary="One credit model: training progress, then its model card",
        errors=(400, 404),
    )
)
MODEL_ACTIVATE = declare(
    Endpoint(
        key="credit.models.activate",
        consent="none",  # the lender's own model: no subject's consent to record here
        method="POST",
        path="/v3/credit/models/{model_id}/activate",
        scope="credit:write",
        summary="Make a trained model the one this environment's decisions use",
        errors=(400, 404, 409),
    )
)
MODEL_ROLLBACK = declare(
    Endpoint(
        key="credit.models.rollback",
        consent="none",  # the lender's own model: no subject's consent to record here
        method="POST",
        path="/v3/credit/models/{model_id}/rollback",
        scope="credit:write",
        summary="Roll the active model back to the one active before it (the demo model at the "
        "end)",
        errors=(400, 404, 409),
    )
)
DECISION_REPLAY = declare(
    Endpoint(
        key="credit.decision.replay",
        method="GET",
        path="/v3/credit/decisions/{reference}/replay",
        scope="credit:read",
        summary="Score a stored decision's inputs again with the model that made it",
        errors=(400, 404),
    )
)

PRODUCT_CREATE = declare(
    Endpoint(
        key="credit.products.create",
        consent="none",  # the lender's own catalogue: no subject's consent to record here
        method="POST",
        path="/v3/credit/products",
        scope="credit:write",
        summary="Add a credit product: amount and term bounds, purposes, the model to use",
        status_code=201,
        errors=(400, 409),
        sandbox=products_sandbox.PRODUCT_CREATE,
        logged_fields=(
            "currency",
            "min_amount",
            "max_amount",
            "min_term_months",
            "max_term_months",
            "purposes",
            "model_id",
            "active",
        ),
    )
)
PRODUCT_LIST = declare(
    Endpoint(
        key="credit.products",
        method="GET",
        path="/v3/credit/products",
        scope="credit:read",
        summary="Your credit products of this environment, newest first",
        errors=(400,),
        sandbox=products_sandbox.PRODUCT_LIST,
    )
)
PRODUCT_READ = declare(
    Endpoint(
        key="credit.products.read",
        method="GET",
        path="/v3/credit/products/{product_id}",
        scope="credit:read",
        summary="One credit product",
        errors=(400, 404),
    )
)
PRODUCT_UPDATE = declare(
    Endpoint(
        key="credit.products.update",
        method="PATCH",
        path="/v3/credit/products/{product_id}",
        scope="credit:write",
        summary="Change a credit product's fields (the others stay)",
        errors=(400, 404, 409),
    )
)
PRODUCT_DEACTIVATE = declare(
    Endpoint(
        key="credit.products.deactivate",
        consent="none",  # the lender's own catalogue: no subject's consent to record here
        method="POST",
        path="/v3/credit/products/{product_id}/deactivate",
        scope="credit:write",
        summary="Deactivate a credit product: decisions may no longer name it",
        errors=(400, 404, 409),
    )
)
