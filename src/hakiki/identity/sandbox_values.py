"""Building blocks of the identity endpoints' sandbox test values: the documented outcome of
each last digit (docs/sandbox.md), as the envelope fields a response carries."""

from __future__ import annotations

from typing import Any

from hakiki.core.envelope import OUTCOMES, Outcome

# (last digit, outcome, what the docs call it)
DIGIT_OUTCOMES: tuple[tuple[str, Outcome, str], ...] = (
    ("0", Outcome.VERIFIED, "found and verified"),
    ("5", Outcome.NOT_FOUND, "not found"),
    ("7", Outcome.PENDING, "async pending"),
    ("8", Outcome.SOURCE_UNAVAILABLE, "source unavailable"),
    ("9", Outcome.FAILED, "soft error"),
)


def envelope_expect(outcome: Outcome) -> dict[str, Any]:
    row = OUTCOMES[outcome]
    return {"http_status": 200, "response_code": row.response_code, "status": outcome.value}


INVALID = {"http_status": 400, "error": "invalid_request"}
