"""The Credit category's entries in the endpoint catalogue (docs/api.md#credit)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.envelope import InData
from hakiki.core.privacy.consent import Consented
from hakiki.credit import sandbox

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
        ),
    )
)
