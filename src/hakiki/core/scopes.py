"""The scopes a key can hold (docs/api.md#authentication)."""

from __future__ import annotations

ALL_SCOPES: tuple[str, ...] = (
    "identity:read",
    "business:read",
    "fraud:read",
    "fraud:write",
    "screening:read",
    "screening:write",  # reviews of screening hits (an extension: DESIGN lists no write scope)
    "background:read",
    "background:write",
    "background:review",  # an analyst records manual checks' results (an extension)
    "tax:read",
    "vehicle:read",
    "documents:read",
    "credit:read",
    "statements:write",
    "evaluation:read",
    "account:admin",
)

# A new key gets every scope but account:admin unless scopes are named.
DEFAULT_SCOPES: tuple[str, ...] = tuple(s for s in ALL_SCOPES if s != "account:admin")

ENVIRONMENTS = ("sandbox", "live")
