"""Recall on listed UN persons and false positives on synthetic clean customers.

Data: samples of the OpenSanctions candidate-generation benchmark (see data/SOURCES.md).
Bounds are loose on purpose; bench/screening_engine.py reports the precise figures.
"""

from __future__ import annotations

import random

from hakiki.engines.screening import ScreeningEngine, ScreeningResult, Subject


def found_first(result: ScreeningResult, reference: str) -> bool:
    """The expected UN entry has the best score (the same person on OFAC may tie with it)."""
    if not result.hits:
        return False
    best = result.hits[0].score
    return any(
        h.list_code == "un_sc_consolidated" and h.entity_id == reference and h.score == best
        for h in result.hits
    )


def subject(row: dict[str, str], name: str | None = None) -> Subject:
    return Subject(
        name or row["full_name"],
        birth_date=row["date_of_birth"] or None,
        countries=(row["nationality"],) if row["nationality"] else (),
        gender=row["gender"] or None,
    )


def test_un_positives_top1_recall(
    engine: ScreeningEngine, un_positives: list[dict[str, str]]
) -> None:
    assert len(un_positives) == 300
    found = sum(
        found_first(engine.screen(subject(row)), row["expected_un_reference"])
        for row in un_positives
    )
    assert found / len(un_positives) >= 0.95


def _typo(name: str, rnd: random.Random) -> str:
    tokens = name.split()
    i = max(range(len(tokens)), key=lambda k: len(tokens[k]))
    token = tokens[i]
    if len(token) < 5:
        return name
    j = rnd.randrange(1, len(token) - 1)
    op = rnd.choice("sdt")
    if op == "s":
        token = token[:j] + rnd.choice("aeiouk") + token[j + 1 :]
    elif op == "d":
        token = token[:j] + token[j + 1 :]
    else:
        token = token[:j] + token[j + 1] + token[j] + token[j + 2 :]
    tokens[i] = token
    return " ".join(tokens)


def test_un_positives_recall_with_a_typo(
    engine: ScreeningEngine, un_positives: list[dict[str, str]]
) -> None:
    rnd = random.Random(5)
    found = sum(
        found_first(
            engine.screen(Subject(_typo(row["full_name"], rnd))), row["expected_un_reference"]
        )
        for row in un_positives
    )
    assert found / len(un_positives) >= 0.9


def test_un_positives_recall_with_an_extra_given_name(
    engine: ScreeningEngine, un_positives: list[dict[str, str]]
) -> None:
    multi = [row for row in un_positives if len(row["full_name"].split()) >= 2]
    found = 0
    for row in multi:
        first, rest = row["full_name"].split(" ", 1)
        query = f"{first} Wanjiru {rest}"
        found += found_first(engine.screen(Subject(query)), row["expected_un_reference"])
    assert found / len(multi) >= 0.9


def test_false_positive_rate_on_clean_customers(
    engine: ScreeningEngine, negatives: list[dict[str, str]]
) -> None:
    assert len(negatives) == 2000
    flagged = [row["full_name"] for row in negatives if engine.screen(subject(row)).hits]
    assert len(flagged) / len(negatives) <= 0.01, flagged
