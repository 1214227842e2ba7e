"""The privacy entries of the endpoint catalogue (docs/api.md#privacy): free, on the
organisation's own data in the key's environment (so no sandbox hook, like the account
surface). Reading needs ``privacy:read``; a subject request or a policy change
``privacy:write``."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, Method, declare

_BASE = "/v3/privacy"


def _privacy(
    key: str,
    method: Method,
    path: str,
    summary: str,
    *,
    scope: str = "privacy:read",
    status_code: int = 200,
    errors: tuple[int, ...] = (),
    logged_fields: tuple[str, ...] = (),
) -> Endpoint:
    return declare(
        Endpoint(
            key=f"privacy.{key}",
            method=method,
            path=_BASE + path,
            scope=scope,
            summary=summary,
            status_code=status_code,
            errors=errors,
            logged_fields=logged_fields,
        )
    )


SUBJECT_REQUEST = _privacy(
    "subject_request",
    "POST",
    "/subject-requests",
    "Ask for a data subject's access export or erasure (a job); answers its receipt",
    scope="privacy:write",
    status_code=202,
    errors=(400, 409),
    logged_fields=("type",),
)
SUBJECT_REQUEST_GET = _privacy(
    "subject_request_get",
    "GET",
    "/subject-requests/{request_id}",
    "A subject request's receipt: what was found and done per category",
    errors=(404,),
)
SUBJECT_EXPORT = _privacy(
    "subject_export",
    "GET",
    "/subject-requests/{request_id}/export",
    "An access request's export: everything held about the subject, as JSON",
    errors=(404, 409),
)
RETENTION_GET = _privacy(
    "retention",
    "GET",
    "/retention",
    "Retention per category: days, default, bounds, reasons",
    errors=(400,),
)
RETENTION_SET = _privacy(
    "retention_set",
    "PUT",
    "/retention",
    "Set the organisation's retention of categories (within their bounds)",
    scope="privacy:write",
    errors=(400,),
    logged_fields=("policies",),
)
RETENTION_RUNS = _privacy(
    "retention_runs",
    "GET",
    "/retention/runs",
    "Housekeeping's purges of your data: when, and rows per category",
    errors=(400,),
)
