"""The candidate request's state machine (docs/api.md#background-checks): closed enums and the
one table of allowed transitions. Everything that moves a request asks ``next_state``."""

from __future__ import annotations

from typing import Literal, get_args

RequestState = Literal["pending", "in_progress", "completed", "stalled", "expired"]
Event = Literal["submit", "complete", "stall", "expire", "reinitiate"]
CheckStatus = Literal["pending", "running", "awaiting_analyst", "completed"]
CheckResult = Literal["clear", "consider", "unverifiable"]

REQUEST_STATES: tuple[str, ...] = get_args(RequestState)
CHECK_STATUSES: tuple[str, ...] = get_args(CheckStatus)
CHECK_RESULTS: tuple[str, ...] = get_args(CheckResult)
FINAL_STATES = frozenset({"completed"})

# (from, event) -> to. A stalled request still completes when its late check is recorded;
# it goes back to pending only through reinitiate.
TRANSITIONS: dict[tuple[str, str], str] = {
    ("pending", "submit"): "in_progress",
    ("pending", "expire"): "expired",
    ("in_progress", "complete"): "completed",
    ("in_progress", "stall"): "stalled",
    ("stalled", "complete"): "completed",
    ("stalled", "reinitiate"): "pending",
    ("expired", "reinitiate"): "pending",
}


class RefusedTransition(Exception):
    def __init__(self, state: str, event: str) -> None:
        super().__init__(f"a {state} request cannot {event}")
        self.state = state
        self.event = event


def next_state(state: str, event: str) -> str:
    """The state ``event`` moves a ``state`` request to, or RefusedTransition."""
    try:
        return TRANSITIONS[(state, event)]
    except KeyError:
        raise RefusedTransition(state, event) from None


def allowed_from(state: str) -> list[str]:
    """The events a ``state`` request accepts."""
    return [event for (origin, event) in TRANSITIONS if origin == state]


def overall_result(results: list[str]) -> str:
    """A completed request's result: consider if any check says so, clear if every check is
    clear, else unverifiable (something could not be checked, nothing needs a look)."""
    if "consider" in results:
        return "consider"
    if results and all(result == "clear" for result in results):
        return "clear"
    return "unverifiable"


def mermaid() -> str:
    """The state diagram, generated from TRANSITIONS (docs/api.md shows it)."""
    lines = ["stateDiagram-v2", "    [*] --> pending"]
    lines += [
        f"    {origin} --> {target}: {event}" for (origin, event), target in TRANSITIONS.items()
    ]
    lines.append("    completed --> [*]")
    return "\n".join(lines)
