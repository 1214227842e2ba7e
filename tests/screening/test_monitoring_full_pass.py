"""Monitoring's daily full pass (screening/monitoring_screening.full_hits) prunes the candidates
whose name cannot reach the threshold (engines/screening/bound.py): on synthetic subjects with
planted matches it raises exactly the hits of the straightforward pass, a plain screening of
every subject."""

from __future__ import annotations

import random

import pytest

from hakiki.engines.screening import ScreeningEngine, Subject, default_engine
from hakiki.screening.monitoring_screening import Watched, full_hits


@pytest.fixture(scope="module")
def engine() -> ScreeningEngine:
    return default_engine()


def _typo(name: str, rnd: random.Random) -> str:
    if len(name) < 6:
        return name
    k = rnd.randrange(1, len(name) - 1)
    return name[:k] + name[k + 1 :]


def _subjects(engine: ScreeningEngine, seed: int) -> tuple[list[Watched], set[int]]:
    """Listed persons and organisations (exact, a letter dropped, parts reordered, an alias),
    some with the entry's birth date and country, some sharing only an identifier with it;
    strangers made of listed name parts; thresholds and checks of several kinds."""
    rnd = random.Random(seed)
    entities = [e for v in engine.lists for e in engine.entities_of(v.code)]
    listed = rnd.sample(entities, 160)
    parts = [p for e in rnd.sample(entities, 400) for p in e.primary_name.split()]
    with_ids = [e for e in entities if e.identifiers][:20]
    subjects: list[Subject] = []
    planted: set[int] = set()
    for k, entity in enumerate(listed):
        name = rnd.choice(entity.names).name
        if k % 4 == 1:
            name = _typo(name, rnd)
        elif k % 4 == 2:
            name = " ".join(reversed(name.split()))
        subjects.append(
            Subject(
                name=name,
                schema=entity.schema,
                birth_date=entity.birth_dates[0] if entity.birth_dates and k % 3 else None,
                countries=entity.countries[:1] if k % 2 else (),
            )
        )
        planted.add(len(subjects) - 1)
    for entity in with_ids:
        subjects.append(
            Subject(
                name=rnd.choice(parts) + " " + rnd.choice(parts),
                schema=entity.schema,
                identifiers=(entity.identifiers[0][1],),
            )
        )
        planted.add(len(subjects) - 1)
    for _ in range(240):
        name = " ".join(rnd.choice(parts) for _ in range(rnd.randint(2, 4)))
        subjects.append(Subject(name=name, birth_date=f"19{rnd.randint(40, 99)}-01-01"))
    subjects.append(Subject(name=""))
    watched = [
        Watched(
            row={"id": f"msub_{k}"},
            subject=s,
            checks=("sanction", "pep") if k % 2 else ("sanction",),
            threshold=(0.7, 0.8, 0.9)[k % 3],
        )
        for k, s in enumerate(subjects)
    ]
    return watched, planted


def test_the_full_pass_raises_the_plain_passs_hits(engine: ScreeningEngine) -> None:
    watched, planted = _subjects(engine, 34)
    found = full_hits(engine, watched)
    reference = full_hits(engine, watched, prune=False)
    assert {k: [h.to_dict() for h in v] for k, v in found.items()} == {
        k: [h.to_dict() for h in v] for k, v in reference.items()
    }
    # the planted subjects are found (a reordered name or a high threshold may miss a few)
    assert len(planted & set(found)) >= 0.8 * len(planted)
