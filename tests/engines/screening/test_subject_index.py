"""Monitoring's index of the subjects (engines/screening/subject_index.py): the subjects a
changed list entry proposes, and their hits scored exactly as a screening of each scores it."""

from __future__ import annotations

import random
from dataclasses import replace

from hakiki.engines.screening import ScreeningEngine, Subject
from hakiki.engines.screening.model import ListEntity, NameEntry
from hakiki.engines.screening.subject_index import SubjectIndex, changed_entities, confirm


def test_monitoring_hits_equal_a_screenings(engine: ScreeningEngine) -> None:
    """Subjects named like listed entries (exactly, with a typo, without the birth date) get,
    through the index of the subjects, the very hits (score and explanation) a screening of
    each gives on those entries; a stranger gets none."""
    rnd = random.Random(34)
    version = engine.lists[0]
    entries = [e for e in engine.entities_of(version.code)][:400]
    subjects: list[Subject] = []
    for entity in entries[:150]:
        name = entity.primary_name
        if rnd.random() < 0.3 and len(name) > 6:
            k = rnd.randrange(2, len(name) - 2)
            name = name[:k] + name[k + 1 :]
        born = entity.birth_dates[0] if entity.birth_dates and rnd.random() < 0.7 else None
        subjects.append(Subject(name=name, schema=entity.schema, birth_date=born))
    subjects.append(Subject(name="Wanjiru Nyokabi Gathoni"))
    index = SubjectIndex(subjects)
    assert index.size == len(subjects)
    found: dict[tuple[int, str], float] = {}
    for entity in entries:
        for position in index.candidates(entity):
            hit = confirm(
                subjects[position],
                entity,
                list_version=version.version,
                list_checks=version.checks,
                wanted=["sanction"],
                threshold=0.8,
            )
            if hit is not None:
                found[(position, entity.entity_id)] = hit.score
                assert hit.entity_fingerprint == entity.fingerprint()
    expected: dict[tuple[int, str], float] = {}
    wanted_ids = {e.entity_id for e in entries}
    for position, subject in enumerate(subjects):
        for hit in engine.screen(subject, checks=["sanction"], threshold=0.8, limit=50).hits:
            if hit.list_code == version.code and hit.entity_id in wanted_ids:
                expected[(position, hit.entity_id)] = hit.score
    assert len(expected) >= 140
    assert found == expected
    assert not any(position == len(subjects) - 1 for position, _ in found)


def test_an_identifier_alone_proposes_the_subject() -> None:
    listed = ListEntity(
        entity_id="v-1",
        list_code="test",
        schema="Person",
        names=(NameEntry("Completely Different Name"),),
        identifiers=(("passport", "AB-123456"),),
    )
    subjects = [Subject(name="Amina Wanjiku", identifiers=("ab123456",)), Subject(name="Otieno")]
    index = SubjectIndex(subjects)
    assert index.candidates(listed) == [0]
    hit = confirm(
        subjects[0],
        listed,
        list_version="1",
        list_checks=("sanction",),
        wanted=["sanction"],
        threshold=0.8,
    )
    assert hit is not None and hit.explanation["identifier"]["score"] == 1.0


def test_a_subject_of_another_schema_or_check_gets_no_hit() -> None:
    listed = ListEntity("o-1", "test", "Organization", (NameEntry("Amina Wanjiku"),))
    person = Subject(name="Amina Wanjiku")
    assert SubjectIndex([person]).candidates(listed) == []
    same = replace(listed, schema="Person")
    for entity, wanted, hits in (
        (listed, "pep", False),
        (same, "sanction", False),
        (same, "pep", True),
    ):
        found = confirm(
            person, entity, list_version="1", list_checks=("pep",), wanted=[wanted], threshold=0.8
        )
        assert (found is not None) == hits, (entity.schema, wanted)


def test_changed_entities_are_the_added_amended_and_removed() -> None:
    kept = ListEntity("k", "test", "Person", (NameEntry("Kept Person"),))
    amended = ListEntity("a", "test", "Person", (NameEntry("Amended Person"),))
    added = ListEntity("n", "test", "Person", (NameEntry("New Person"),))
    before = {
        "k": kept.fingerprint(),
        "a": amended.fingerprint(),
        "gone": "0" * 20,
    }
    newer = replace(amended, programs=("NEW",))
    changed, removed = changed_entities(before, [kept, newer, added])
    assert [e.entity_id for e in changed] == ["a", "n"] and removed == ["gone"]
    assert changed_entities({}, [kept]) == ([kept], [])
