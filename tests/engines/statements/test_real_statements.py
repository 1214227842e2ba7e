"""Our M-Pesa look-alikes against the real statements they imitate, when real files are at
hand (HAKIKI_REAL_STATEMENTS, default /work/real: never committed, they are people's data):
the generator's facts measured the same way on both, and the real files read whole."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from hakiki.engines.statements import analyse
from tests.statements import documents as d
from tests.statements import generator_facts

REAL = Path(os.environ.get("HAKIKI_REAL_STATEMENTS", "/work/real"))
# file, its password (published beside it), the era our generator imitates
FILES = [("murega_2023.pdf", "900365", "openpdf"), ("billmuriu_2022.pdf", "34915463", "itext")]
# facts the look-alike does not reproduce (tests/statements/mpesa_look.NOT_REPRODUCED)
NOT_COMPARED = {"creator", "fonts", "modified_after_s"}
NEAR = {"amount_inset": 0.5, "receipts_left_of_title": 1.0}  # points (glyph ink bounds)


def real(name: str) -> bytes:
    path = REAL / name
    if not path.exists():
        pytest.skip(f"{path} is not here (real statements are never committed)")
    return path.read_bytes()


@pytest.mark.parametrize(("name", "password", "era"), FILES)
def test_the_look_alike_has_the_real_generators_facts(name: str, password: str, era: str) -> None:
    measured = generator_facts.facts(real(name), password)
    look = d.mpesa_pdf(d.mpesa_rows(150, 3, seed=11, quirks=True), era=era, password=password)
    ours = generator_facts.facts(look, password)
    differ: dict[str, Any] = {}
    for key, value in measured.items():
        if key in NOT_COMPARED:
            continue
        if key in NEAR:
            if abs(value - ours[key]) > NEAR[key]:
                differ[key] = (value, ours[key])
        elif value != ours[key]:
            differ[key] = (value, ours[key])
    assert differ == {}
    if era == "openpdf":  # ModDate 4-6 s after CreationDate
        assert 4 <= measured["modified_after_s"] <= 6 and 4 <= ours["modified_after_s"] <= 6
    assert set(ours["fonts"]) <= set(measured["fonts"]) | {"Helvetica"}


@pytest.mark.parametrize(("name", "password", "era"), FILES)
def test_a_real_statement_is_read_whole_and_not_flagged_by_its_file(
    name: str, password: str, era: str
) -> None:
    analysis = analyse(real(name), password=password)
    statement = analysis.statement
    assert statement.layout == f"mpesa_{era}_v1"
    rows = statement.transactions
    assert statement.summary["TOTAL"] == (
        sum(t.paid_in for t in rows),
        sum(t.withdrawn for t in rows),
    )
    # The issuer's own gaps beside Fuliza rows are information; nothing else fires.
    assert {s.severity for s in analysis.signals} <= {"info"}, [
        s.as_dict() for s in analysis.signals
    ]
    assert analysis.verdict == "genuine"
