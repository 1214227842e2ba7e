"""The engine at scale: no Python object per listed name, and a candidate budget that adapts
to ties (issue 33). Speed and memory figures are in bench/screening_scale.py, not here."""

from __future__ import annotations

import gc
import pickle

from hakiki.engines.screening import ListEntity, ListSnapshot, NameEntry, ScreeningEngine, Subject

GIVEN = [
    "Wanjiru",
    "Nyokabi",
    "Achieng",
    "Atieno",
    "Chepkoech",
    "Jepchirchir",
    "Nafula",
    "Nekesa",
    "Kerubo",
    "Moraa",
]
FAMILY = [
    "Kamau",
    "Mwangangi",
    "Otieno",
    "Odhiambo",
    "Kiprotich",
    "Wafula",
    "Barasa",
    "Onyango",
    "Nyamweya",
    "Makori",
]


def _snapshot(entities: list[ListEntity]) -> ListSnapshot:
    return ListSnapshot("t", "Test", "1", "", frozenset({"sanction"}), tuple(entities))


def _people(count: int) -> list[ListEntity]:
    return [
        ListEntity(
            f"p{k}",
            "t",
            "Person",
            (
                NameEntry(f"{GIVEN[k % 10]} {GIVEN[k // 10 % 10]} {FAMILY[k // 100 % 10]}"),
                NameEntry(f"{FAMILY[k % 10]} {GIVEN[k // 7 % 10]}", "alias"),
            ),
            birth_dates=(f"{1940 + k % 60}-01-01",),
            countries=("ke",),
        )
        for k in range(count)
    ]


def test_the_engine_keeps_no_python_object_per_listed_name() -> None:
    entities = _people(3000)
    gc.collect()
    before = len(gc.get_objects())
    engine = ScreeningEngine([_snapshot(entities)])
    gc.collect()
    grown = len(gc.get_objects()) - before
    assert engine.name_count == 6000
    # names, their tokens and entities are arrays and one buffer: the objects that remain are
    # the vocabulary and caches, far fewer than the names (the engine before issue 33 held
    # five or more per name)
    assert grown < engine.name_count / 2, grown


def test_more_tied_names_than_the_budget_still_reach_the_one_with_the_same_birth_date() -> None:
    """Sixty entities with the same name: the index cannot tell them apart, the date of birth
    can. A fixed budget of 40 names dropped the later ones."""
    entities = [
        ListEntity(
            f"e{k}",
            "t",
            "Person",
            (NameEntry("Zawadi Nyokabi Mwangangi"),),
            birth_dates=(f"{1930 + k}-03-02",),
        )
        for k in range(60)
    ]
    engine = ScreeningEngine([_snapshot(entities)])
    assert len(entities) > 40  # the fixed budget before issue 33
    result = engine.screen(Subject("Zawadi Nyokabi Mwangangi", birth_date="1985-03-02"))
    assert result.hits[0].entity_id == "e55"
    assert 55 in engine.candidate_entities(Subject("Zawadi Nyokabi Mwangangi"))


def test_a_pickled_engine_screens_as_the_one_it_was_made_from() -> None:
    engine = ScreeningEngine([_snapshot(_people(500))])
    copy = pickle.loads(pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL))
    for name in ("Wanjiru Nyokabi Kamau", "Kamau Wanjiru", "Achieng Atieno Otieno"):
        subject = Subject(name, birth_date="1941-01-01")
        first = [(h.entity_id, h.score, h.matched_name) for h in engine.screen(subject).hits]
        again = [(h.entity_id, h.score, h.matched_name) for h in copy.screen(subject).hits]
        assert first == again and first


def test_queries_in_many_threads_find_what_one_thread_finds() -> None:
    """The index's work arrays are shared out one query at a time (never two at once)."""
    from concurrent.futures import ThreadPoolExecutor

    engine = ScreeningEngine([_snapshot(_people(2000))])
    subjects = [
        Subject(f"{GIVEN[k % 10]} {GIVEN[k * 3 % 10]} {FAMILY[k % 7]}", birth_date="1950-01-01")
        for k in range(60)
    ]
    alone = [engine.candidate_entities(s) for s in subjects]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(engine.candidate_entities, subjects * 4))
    assert together == alone * 4


def test_a_listed_name_comes_back_from_the_table_as_it_went_in() -> None:
    # The scorer's rules read every part of a normalised name (its script among them: a slip of
    # one letter counts only between names written in Latin letters), so the table must give
    # back exactly what was added, before and after it is frozen and pickled.
    from hakiki.engines.screening.index import NameTable
    from hakiki.engines.screening.normalize import normalize_name

    names = [normalize_name(text) for text in ("Kim Jong Un", "김정은", "Dr. Amina Wanjiru")]
    assert [name.latin for name in names] == [True, False, True]
    table = NameTable()
    ids = [table.add(k, 0, "primary", name, 0) for k, name in enumerate(names)]
    table.freeze()
    for again in (table, pickle.loads(pickle.dumps(table))):
        assert [again.norm(nid) for nid in ids] == names
