"""Console roles: what each may see and do, and the API scopes its session carries
(the matrix in docs/console.md)."""

from __future__ import annotations

from hakiki.core.scopes import ALL_SCOPES, DEFAULT_SCOPES

ROLES: tuple[str, ...] = ("owner", "admin", "analyst", "developer", "viewer")

SCOPES: dict[str, frozenset[str]] = {
    "owner": frozenset(ALL_SCOPES),
    "admin": frozenset(ALL_SCOPES),
    # Training, activating and rolling back the credit model that decides the organisation's
    # loans (credit:write) is the owners' and admins' call (issue 38): analysts and developers
    # read the models and make decisions with the active one.
    "analyst": frozenset(DEFAULT_SCOPES) - {"credit:write"},
    # Reviewing hits and recording manual checks' results are an analyst's decisions; a
    # developer keeps background:write (creating requests while integrating).
    "developer": frozenset(DEFAULT_SCOPES)
    - {"screening:write", "background:review", "credit:write"},
    "viewer": frozenset({"webhooks:read"}),  # reads the account surface; runs no billable call
}


def key_scopes(role: str) -> list[str]:
    """The scopes of a key a user of ``role`` makes on the Keys page: the default scopes the
    role itself holds, never more (issue 30: a developer's key cannot review)."""
    return [scope for scope in DEFAULT_SCOPES if scope in SCOPES.get(role, frozenset())]


# Actions beyond reading the organisation's pages.
MANAGE_KEYS = "manage_keys"
MANAGE_USERS = "manage_users"
REVIEW = "review"  # screening hits, background checks' manual form
RUN_CALLS = "run_calls"  # the playground; any unsafe API call through the session
MANAGE_WEBHOOKS = "manage_webhooks"  # add, test, disable endpoints; resend deliveries
MANAGE_CREDIT = "manage_credit"  # activate and roll back credit models, edit loan products

PERMISSIONS: dict[str, frozenset[str]] = {
    "owner": frozenset(
        {MANAGE_CREDIT, MANAGE_KEYS, MANAGE_USERS, MANAGE_WEBHOOKS, REVIEW, RUN_CALLS}
    ),
    "admin": frozenset(
        {MANAGE_CREDIT, MANAGE_KEYS, MANAGE_USERS, MANAGE_WEBHOOKS, REVIEW, RUN_CALLS}
    ),
    "analyst": frozenset({REVIEW, RUN_CALLS}),
    "developer": frozenset({MANAGE_KEYS, MANAGE_WEBHOOKS, RUN_CALLS}),
    "viewer": frozenset(),
}


def may(role: str, action: str) -> bool:
    return action in PERMISSIONS.get(role, frozenset())
