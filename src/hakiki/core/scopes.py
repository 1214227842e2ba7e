"""The scopes a key can hold (docs/api.md#authentication, the model in docs/decisions.md)."""

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
    "credit:write",  # training, activating and rolling back the organisation's models (issue 38)
    "statements:write",
    "evaluation:read",
    "verification:read",  # hosted verification sessions (issue 37)
    "verification:write",
    "webhooks:read",  # the account surface's webhook endpoints and deliveries (issue 30)
    "webhooks:write",  # adding, removing, rotating the secret of, resending (issue 30)
    "privacy:read",  # subject requests' receipts and exports, retention (issue 40)
    "privacy:write",  # subject requests (access, erasure), retention policies
    "account:admin",
)

# The account surface's own scopes: they move no money and run no check, so a live key of an
# organisation not yet approved may use them (its integration registers its receiver early).
ACCOUNT_SCOPES: frozenset[str] = frozenset(
    {"webhooks:read", "webhooks:write", "privacy:read", "privacy:write", "account:admin"}
)

# A new key gets every scope but account:admin unless scopes are named.
DEFAULT_SCOPES: tuple[str, ...] = tuple(s for s in ALL_SCOPES if s != "account:admin")

ENVIRONMENTS = ("sandbox", "live")
