"""The account surface's webhook entries in the endpoint catalogue (docs/api.md). The POSTs
take an Idempotency-Key like every other POST. Reading needs ``webhooks:read``; every change
(and the rotation, whose answer holds the signing secret) ``webhooks:write``."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, Method, declare

_BASE = "/v3/account/webhooks"


def _webhooks(
    key: str,
    method: Method,
    path: str,
    summary: str,
    *,
    scope: str = "webhooks:read",
    status_code: int = 200,
    errors: tuple[int, ...] = (),
    logged_fields: tuple[str, ...] = (),
) -> Endpoint:
    return declare(
        Endpoint(
            key=f"webhooks.{key}",
            method=method,
            path=_BASE + path,
            scope=scope,
            summary=summary,
            status_code=status_code,
            errors=errors,
            logged_fields=logged_fields,
        )
    )


CREATE = _webhooks(
    "create",
    "POST",
    "",
    "Add a webhook endpoint; its signing secret is shown only now",
    scope="webhooks:write",
    status_code=201,
    errors=(400, 409),
    logged_fields=("events",),  # the url may carry a token, the description anything
)
LIST = _webhooks(
    "list", "GET", "", "The environment's webhook endpoints, newest first", errors=(400,)
)
DELIVERIES = _webhooks(
    "deliveries",
    "GET",
    "/deliveries",
    "Webhook deliveries with their attempts, newest first",
    errors=(400,),
)
RESEND = _webhooks(
    "resend",
    "POST",
    "/deliveries/{delivery_id}/resend",
    "Send a delivered or failed delivery again now",
    scope="webhooks:write",
    status_code=202,
    errors=(404, 409),
    logged_fields=("delivery_id",),
)
GET = _webhooks("get", "GET", "/{endpoint_id}", "One webhook endpoint", errors=(404,))
DELETE = _webhooks(
    "delete",
    "DELETE",
    "/{endpoint_id}",
    "Remove a webhook endpoint",
    scope="webhooks:write",
    status_code=204,
    errors=(404,),
)
ROTATE = _webhooks(
    "rotate_secret",
    "POST",
    "/{endpoint_id}/rotate-secret",
    "Replace the signing secret; the old one also signs during the grace period",
    scope="webhooks:write",
    errors=(404, 409),
    logged_fields=("endpoint_id",),
)
