"""The candidate request's state machine: every (state, event) pair is allowed or refused as
docs/api.md says, and the page's diagram is the table's."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from hakiki.engines.background.states import (
    REQUEST_STATES,
    RefusedTransition,
    allowed_from,
    mermaid,
    next_state,
    overall_result,
)

ALLOWED = {
    ("pending", "submit"): "in_progress",
    ("pending", "expire"): "expired",
    ("in_progress", "complete"): "completed",
    ("in_progress", "stall"): "stalled",
    ("stalled", "complete"): "completed",
    ("stalled", "reinitiate"): "pending",
    ("expired", "reinitiate"): "pending",
}
EVENTS = ("submit", "complete", "stall", "expire", "reinitiate")


@pytest.mark.parametrize(("state", "event"), list(itertools.product(REQUEST_STATES, EVENTS)))
def test_every_pair_is_allowed_or_refused(state: str, event: str) -> None:
    if (state, event) in ALLOWED:
        assert next_state(state, event) == ALLOWED[(state, event)]
        assert event in allowed_from(state)
    else:
        with pytest.raises(RefusedTransition) as refused:
            next_state(state, event)
        assert refused.value.state == state and event not in allowed_from(state)


def test_completed_is_final() -> None:
    assert allowed_from("completed") == []


def test_overall_result() -> None:
    assert overall_result(["clear", "clear"]) == "clear"
    assert overall_result(["clear", "consider", "unverifiable"]) == "consider"
    assert overall_result(["clear", "unverifiable"]) == "unverifiable"
    assert overall_result([]) == "unverifiable"


def test_the_docs_show_the_table_as_a_diagram() -> None:
    page = (Path(__file__).parents[3] / "docs" / "api.md").read_text()
    assert f"```mermaid\n{mermaid()}\n```" in page
