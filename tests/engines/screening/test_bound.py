"""The upper bound of the name score that monitoring's full pass prunes with
(engines/screening/bound.py): never under the scorer's score, for every candidate the index
proposes, on names made from the bundled lists' own names and on the rules' hard cases."""

from __future__ import annotations

import random

import pytest

from hakiki.engines.screening import ScreeningEngine, Subject
from hakiki.engines.screening.bound import EPSILON, NameBound
from hakiki.engines.screening.normalize import NormalizedName, is_org_schema, normalize_name
from hakiki.engines.screening.scorer import COUNTRY_MATCH, DOB_SAME_DATE, score_name


def _queries(engine: ScreeningEngine, count: int, seed: int) -> list[tuple[str, bool]]:
    """Listed names with a letter dropped, swapped or doubled, parts dropped, moved, joined
    or split, and mixes of parts of different names."""
    rnd = random.Random(seed)
    entities = [e for v in engine.lists for e in engine.entities_of(v.code)]
    out: list[tuple[str, bool]] = []
    for _ in range(count):
        entity = rnd.choice(entities)
        name = rnd.choice(entity.names).name
        parts = name.split()
        move = rnd.randrange(8)
        if move == 0 and len(name) > 5:
            k = rnd.randrange(1, len(name) - 1)
            name = name[:k] + name[k + 1 :]
        elif move == 1 and len(name) > 5:
            k = rnd.randrange(1, len(name) - 2)
            name = name[:k] + name[k + 1] + name[k] + name[k + 2 :]
        elif move == 2 and len(parts) > 2:
            parts.pop(rnd.randrange(len(parts)))
            name = " ".join(parts)
        elif move == 3 and len(parts) > 1:
            rnd.shuffle(parts)
            name = " ".join(parts)
        elif move == 4 and len(parts) > 1:
            k = rnd.randrange(len(parts) - 1)
            name = " ".join([*parts[:k], parts[k] + parts[k + 1], *parts[k + 2 :]])
        elif move == 5 and len(parts[0]) > 4:
            k = rnd.randrange(2, len(parts[0]) - 1)
            name = " ".join([parts[0][:k], parts[0][k:], *parts[1:]])
        elif move == 6:
            other = rnd.choice(entities).primary_name.split()
            name = " ".join([*parts[: rnd.randrange(1, len(parts) + 1)], rnd.choice(other)])
        out.append((name, is_org_schema(entity.schema)))
    return out


HARD = [
    "Abdul Rahman Khalid",
    "Abdulrahman Khalid",
    "Abdu Lrahman Khalid",
    "Gbenga Adewale",
    "Olugbenga Adewale",
    "Chris Mwangi Kamau",
    "Jonah Jang",
    "Kim Jong On",
    "Segun Shoyinka",
    "Volodimir Zelenskiy",
    "Mohmmad Hasan",
    "J Smith",
    "A K Mohammed",
    "Salman bin Muhammad",
    "Abu Bakr Al Baghdadi",
    "Ta Ehun Kim",
    "Ho Jin",
]


@pytest.fixture(scope="module")
def bound() -> NameBound:
    return NameBound()


def _check(engine: ScreeningEngine, bound: NameBound, name: str, is_org: bool) -> int:
    table = engine.index.table
    query = normalize_name(name, is_org)
    if not query.tokens:
        return 0
    candidates = engine.index.candidates(query, 320)
    uppers = bound.upper(table, query, candidates).tolist()
    for nid, upper in zip(candidates, uppers, strict=True):
        listed: NormalizedName = table.norm(nid)
        scored = score_name(query, listed, table.kind_of(nid)).score
        assert scored <= upper + EPSILON, (name, listed.tokens, scored, upper)
    return len(candidates)


def test_the_bound_is_never_under_the_score(engine: ScreeningEngine, bound: NameBound) -> None:
    checked = sum(_check(engine, bound, n, org) for n, org in _queries(engine, 80, 1))
    assert checked > 5000


def test_the_bound_holds_on_the_rules_hard_cases(engine: ScreeningEngine, bound: NameBound) -> None:
    for name in HARD:
        _check(engine, bound, name, False)


def test_pruned_screenings_equal_plain_ones(engine: ScreeningEngine, bound: NameBound) -> None:
    """engine.screen with the bound gives the very hits (scores, explanations) it gives
    without, while scoring a small share of the candidates."""
    table = engine.index.table
    asked = kept = 0

    def counting(t, query, cut, nids):  # type: ignore[no-untyped-def]
        nonlocal asked, kept
        out = bound(t, query, cut, nids)
        asked += len(nids)
        kept += len(out)
        return out

    assert table is engine.index.table
    for name, is_org in [*_queries(engine, 60, 3), *((n, False) for n in HARD)]:
        subject = Subject(name=name, schema="Organization" if is_org else "Person")
        for threshold in (0.7, 0.8):
            plain = engine.screen(subject, checks=("sanction",), threshold=threshold, limit=50)
            pruned = engine.screen(
                subject, checks=("sanction",), threshold=threshold, limit=50, prune=counting
            )
            assert [h.to_dict() for h in pruned.hits] == [h.to_dict() for h in plain.hits]
    assert DOB_SAME_DATE + COUNTRY_MATCH > 0
    assert kept < asked / 5
