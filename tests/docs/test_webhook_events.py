"""The documentation says one thing about which webhook events are sent (issue 35: the README
named one event, the events table named KYC and tax only for the verification events): the
events table of docs/api.md lists every type an endpoint can subscribe to, the README names the
same sent types, and each type said to be sent has an emitter in the code."""

from __future__ import annotations

import re

from hakiki.webhooks.schemas import EVENT_TYPES
from tests.docs.examples import ROOT

SRC = ROOT / "src" / "hakiki"
NOT_SENT = {"wallet.low_balance"}  # subscribable, sent once its feature lands


def _table() -> dict[str, str]:
    text = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    section = text[text.index("### Events") :]
    section = section[: section.index("\n\n", section.index("| type |"))]
    rows: dict[str, str] = {}
    for line in section.splitlines()[3:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        for name in re.findall(r"`([a-z_]+\.[a-z_]+)`", cells[0]):
            rows[name] = cells[1]
    return rows


def _emitted() -> set[str]:
    """Event types the code emits: a literal type name outside the list of subscribable ones
    (an f-string ``verification.{state}`` gives completed and failed)."""
    code = "\n".join(
        p.read_text(encoding="utf-8")
        for p in SRC.rglob("*.py")
        if p.name not in ("schemas.py", "examples.py")
    )
    found = {t for t in EVENT_TYPES if f'"{t}"' in code}
    if 'f"verification.{' in code:
        found |= {"verification.completed", "verification.failed"}
    return found


def test_the_events_table_lists_every_subscribable_type() -> None:
    assert set(_table()) == set(EVENT_TYPES)
    assert "KYB" in _table()["verification.completed"]
    assert "vehicle" in _table()["verification.completed"]


def test_every_type_said_to_be_sent_is_emitted() -> None:
    assert _emitted() == set(EVENT_TYPES) - NOT_SENT


def test_the_readme_names_the_same_sent_types() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("Signed webhooks")
    bullet = readme[start : readme.index("\n- ", start)]
    named = set(re.findall(r"`([a-z_]+\.[a-z_]+)`", bullet))
    assert named == set(EVENT_TYPES)
    for name in NOT_SENT:
        assert f"`{name}` may be subscribed to but is not sent yet" in bullet
