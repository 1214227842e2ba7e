"""Ongoing monitoring's entries in the endpoint catalogue (docs/api.md#ongoing-monitoring)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.screening import monitoring_sandbox as sandbox

MONTHLY_PRICE_KEY = "screening.monitoring.month"

SUBJECT_CREATE = declare(
    Endpoint(
        key="screening.monitored_subjects.create",
        method="POST",
        path="/v3/screening/monitored-subjects",
        scope="screening:write",
        summary="Enrol a customer in ongoing monitoring (re-screened when lists change)",
        status_code=201,
        errors=(400, 409),
        # monthly, per active live subject, by the monitoring billing job (not per call)
        unit_prices={MONTHLY_PRICE_KEY: 200},
        sandbox=sandbox.SUBJECT_CREATE,
        logged_fields=("subject_type", "checks", "threshold"),
    )
)
SUBJECTS = declare(
    Endpoint(
        key="screening.monitored_subjects.list",
        method="GET",
        path="/v3/screening/monitored-subjects",
        scope="screening:read",
        summary="Your monitored subjects, newest first (filter: reference)",
        errors=(400,),
        sandbox=sandbox.SUBJECTS,
    )
)
SUBJECT_READ = declare(
    Endpoint(
        key="screening.monitored_subjects.read",
        method="GET",
        path="/v3/screening/monitored-subjects/{subject_id}",
        scope="screening:read",
        summary="One monitored subject",
        errors=(400, 404),
    )
)
SUBJECT_DELETE = declare(
    Endpoint(
        key="screening.monitored_subjects.delete",
        method="DELETE",
        path="/v3/screening/monitored-subjects/{subject_id}",
        scope="screening:write",
        summary="Stop monitoring a subject",
        status_code=204,
        errors=(400, 404),
    )
)
SANDBOX_LIST_UPDATE = declare(
    Endpoint(
        key="screening.monitoring.sandbox_list_update",
        consent="none",  # no subject's consent to record here
        method="POST",
        path="/v3/screening/monitoring/sandbox-list-update",
        scope="screening:write",
        summary="Sandbox only: publish the sandbox lists' next version and re-screen your "
        "sandbox subjects against what changed",
        errors=(404, 409),
        sandbox=sandbox.SANDBOX_LIST_UPDATE,
    )
)
