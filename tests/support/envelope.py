"""What every result of the API carries (issue 35, docs/api.md#the-result-envelope): the
checks that tests/test_envelope.py runs over the OpenAPI document and tests/support/replay.py
over every sandbox test value's answer."""

from __future__ import annotations

from typing import Any

from hakiki.core.endpoints import Endpoint
from hakiki.core.envelope import OUTCOMES, SANDBOX_PROVIDER, Envelope, Outcome, Verdict

# consent_id: only when the call stored a consent (docs/privacy.md#consent), after the rest.
FIELDS = tuple(name for name in Envelope.model_fields if name != "consent_id")


def envelope_problems(body: Any, *, live: bool = False) -> list[str]:
    """Where a success answer's body is not the envelope, each rule with one meaning."""
    if not isinstance(body, dict):
        return ["the body is not an object"]
    problems = [f"{name} is missing" for name in FIELDS if name not in body]
    if problems:
        return problems
    if list(body)[: len(FIELDS)] != list(FIELDS):
        problems.append(f"the fields are not in the envelope's order: {list(body)}")
    try:
        status = Outcome(body["status"])
    except ValueError:
        return [f"status {body['status']!r} is not one of the envelope's"]
    row = OUTCOMES[status]
    if body["response_code"] != row.response_code:
        problems.append(f"response_code {body['response_code']} for {status}")
    if body["ok"] is not row.ok:
        problems.append(f"ok {body['ok']} for {status}")
    if body["async_pending"] is not (status is Outcome.PENDING):
        problems.append(f"async_pending {body['async_pending']} for {status}")
    if body["soft_error"] is not row.soft_error:
        problems.append(f"soft_error {body['soft_error']} for {status}")
    if body["verdict"] is not None and body["verdict"] not in set(Verdict):
        problems.append(f"verdict {body['verdict']!r}")
    if status is Outcome.PENDING:
        if body["verdict"] is not None:
            problems.append("a PENDING result has a verdict")
        if isinstance(body["data"], dict) and body["data"].get("status") not in (None, "PENDING"):
            problems.append(f"a PENDING result has data.status {body['data']['status']!r}")
    if not isinstance(body["data"], dict):
        problems.append("data is not an object")
    if not live and (body["live"] is not False or body["provider"] != SANDBOX_PROVIDER):
        problems.append(f"a sandbox answer: live {body['live']}, provider {body['provider']!r}")
    if not isinstance(body["billing"], dict) or "charged" not in body["billing"]:
        problems.append("billing is not the billing object")
    return problems


# Operations that answer a resource of the account or a list, not a result: their own shapes
# (docs/decisions.md, issue 35). Every other operation with a JSON success answers the envelope.
RESOURCES = frozenset(
    {
        "screening.channels",
        "screening.monitored_subjects.list",
        "screening.monitoring.sandbox_list_update",
        "screening.watchlist.upload",
        "screening.watchlists",
        "screening.watchlist",
        "background.check_types",
        "background.countries",
        "background.system_packages.list",
        "background.system_packages.read",
        "background.packages.list",
        "background.packages.create",
        "background.packages.read",
        "background.packages.update",
        "background.candidates.list",
        "fraud.reports",
        "fraud.bulk_scans",
        "statements.list",
        "account.wallet",
        "account.transactions",
        "account.lists",
        "screening.review",
        "screening.reviews",
        "screening.alerts",
        "screening.alert",
        "screening.alert_assign",
        "screening.alert_comments",
        "screening.alert_resolve",
        "webhooks.create",
        "webhooks.list",
        "webhooks.deliveries",
        "webhooks.resend",
        "webhooks.get",
        "webhooks.rotate_secret",
        "verification.sessions.list",
        "verification.settings.read",
        "verification.settings.update",
        "credit.models.train",
        "credit.models",
        "credit.model",
        "credit.models.activate",
        "credit.models.rollback",
        "credit.decision.replay",
        "credit.products.create",
        "credit.products",
        "credit.products.read",
        "credit.products.update",
        "credit.products.deactivate",
        "privacy.consent",
        "privacy.audit_log",
        "privacy.subject_request",
        "privacy.subject_request_get",
        "privacy.subject_export",
        "privacy.retention",
        "privacy.retention_set",
        "privacy.retention_runs",
    }
)


def enveloped(endpoint: Endpoint) -> bool:
    """Whether the endpoint's success answer is a result in the envelope."""
    return endpoint.key not in RESOURCES
