"""The rules that decide whether a printed output is what a page shows (tests/docs/examples.py),
and how examples and their outputs are found in a page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.examples import Mismatch, examples, match_json, match_text, setup_stripped

COMPARE = '{"a": {"name": "Mohamed Ali"}, "b": {"name": "Muhammad Aly"}, "score": 0.375, '
COMPARE += '"decision": "no_match", "threshold": 0.8}\n'


def test_a_wrong_decision_or_score_is_caught() -> None:
    match_json('{"score": 0.375, "decision": "no_match", ...}', COMPARE)
    with pytest.raises(Mismatch, match="decision"):
        match_json('{"decision": "match"}', COMPARE)
    with pytest.raises(Mismatch, match="score"):
        match_json('{"score": 0.9}', COMPARE)
    with pytest.raises(Mismatch, match="printed"):  # one document shown, two printed
        match_json('{"score": 0.375}', COMPARE + COMPARE)


def test_lists_are_exact_unless_abridged() -> None:
    two_hits = '{"hits": [{"check": "pep"}, {"check": "sanction"}]}'
    with pytest.raises(Mismatch, match="hits"):  # "digit 3" shown with one hit: wrong
        match_json('{"hits": [{"check": "pep"}]}', two_hits)
    match_json('{"hits": [{"check": "pep"}, ...]}', two_hits)
    match_json('{"hits": [..., {"check": "sanction"}]}', two_hits)
    match_json('{"hits": [...]}', two_hits)
    with pytest.raises(Mismatch):
        match_json('{"hits": [..., {"check": "adverse_media"}, ...]}', two_hits)


def test_ellipses_and_volatile_keys() -> None:
    real = '{"request_id": "req_06h0", "reference": "ref_sbx_1", "message": "2 potential match"}'
    match_json('{"request_id": "req_01jd...", "reference": "…", "message": "... match"}', real)
    with pytest.raises(Mismatch, match="message"):
        match_json('{"message": "1 potential ..."}', real)
    with pytest.raises(Mismatch, match="request_id"):  # volatile: the type still counts
        match_json('{"request_id": null}', real)
    with pytest.raises(Mismatch, match="missing"):
        match_json('{"missing": 1}', real)
    with pytest.raises(Mismatch, match="not JSON"):
        match_json("{}", "Error: no such option")


def test_text_lines() -> None:
    printed = "us_ofac_sdn: 2024-05-03 (bundled, 14965 entities, 935 days old)\nun_sc: ...\n"
    match_text("us_ofac_sdn: 2024-05-03 (bundled, 14965 entities, ... days old)\n...", printed)
    with pytest.raises(Mismatch):
        match_text("us_ofac_sdn: 2024-05-04 ...\n...", printed)


def test_blocks_markers_and_outputs_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Start:\n\n<!-- example: server -->\n"
        "```bash\npip install uv && uv run hakiki serve\n```\n\n"
        "```bash\ncurl -s http://127.0.0.1:8000/v3/x\n```\n\nIt prints:\n\n```json\n{}\n```\n\n"
        "<!-- example: not run: needs internet -->\n```bash\nhakiki lists update\n```\n\n"
        '```bash\nexport A=1\nuv run python bench/x.py\n```\n\n```json\n{"alone": 1}\n```\n'
    )
    found, orphans = examples([page])
    assert [(e.block.line, e.block.marker) for e in found] == [
        (4, "server"),
        (8, None),
        (19, "not run: needs internet"),
    ]
    assert found[1].output is not None and found[1].output.line == 14
    assert found[2].block.not_run == "needs internet"
    assert [block.line for block in orphans] == [28]  # after a shell block that is no example
    assert setup_stripped(found[0].block.text) == "uv run hakiki serve\n"
