"""The statement category's entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.privacy.consent import Consented
from hakiki.core.settings import Settings
from hakiki.statements import sandbox

FORM_FRAMING_BYTES = 1 << 20  # part headers and the form fields beside the file


def analyze_max_body_bytes(settings: Settings) -> int:
    return settings.statement_max_bytes + FORM_FRAMING_BYTES


ANALYZE = declare(
    Endpoint(
        key="statements.analyze",
        method="POST",
        path="/v3/statements/analyze",
        scope="statements:write",
        summary="Upload a statement (PDF, CSV or XLSX) for analysis; runs as a job",
        status_code=202,
        errors=(400, 402, 409, 413),
        unit_prices={"statements.analysis": 5000},  # per completed analysis
        sandbox=Consented(sandbox.ANALYZE, ("statement_analysis",)),
        max_body_bytes=analyze_max_body_bytes,
        # Never the password, the declared name or phone, nor the file's hash (it names one
        # person's statement).
        logged_fields=("statement_type", "monthly_obligations"),
        consent="required",
    )
)
LIST = declare(
    Endpoint(
        key="statements.list",
        method="GET",
        path="/v3/statements",
        scope="statements:write",
        summary="Your statement analyses, newest first",
        errors=(400,),
        sandbox=sandbox.LIST,
    )
)
READ = declare(
    Endpoint(
        key="statements.read",
        method="GET",
        path="/v3/statements/{analysis_id}",
        scope="statements:write",
        summary="Status, progress, transactions, metrics, score and signals of an analysis",
        errors=(400, 404),
    )
)
