"""Candidate generation stops short of the postings of common name parts when it can prove
that no name reached only through them can be proposed (issue 33, ``CandidateIndex._early``):
on a list where a few parts are very common, the early pass proposes exactly the names of the
plain pass over every posting, for planted typo positives, strangers made of common parts and
restricted groups, and it does stop early on most of them."""

from __future__ import annotations

import random

import pytest

from hakiki.engines.screening import ListEntity, ListSnapshot, NameEntry, ScreeningEngine, Subject
from hakiki.engines.screening import index as index_module
from hakiki.engines.screening.index import CandidateIndex
from hakiki.engines.screening.normalize import normalize_name

COMMON = ["Mohamed", "Muhammad", "Mohammed", "Ali", "Hassan", "Ahmed", "Ibrahim", "Abdullahi"]
RARE_SYLLABLES = ["ka", "ru", "mo", "ta", "ne", "si", "wa", "lo", "zi", "be", "do", "ri", "ho"]


def _rare(rnd: random.Random) -> str:
    return "".join(rnd.choice(RARE_SYLLABLES) for _ in range(rnd.randint(2, 4))).capitalize()


def _names(count: int, seed: int) -> list[str]:
    """Names of two to four parts, most of them with one or two very common parts."""
    rnd = random.Random(seed)
    names = []
    for _ in range(count):
        parts = [rnd.choice(COMMON) for _ in range(rnd.choice((0, 1, 1, 2, 2, 3)))]
        parts += [_rare(rnd) for _ in range(rnd.randint(1, 2))]
        rnd.shuffle(parts)
        names.append(" ".join(parts))
    return names


def _typo(name: str, rnd: random.Random) -> str:
    parts = name.split()
    k = max(range(len(parts)), key=lambda i: len(parts[i]))
    word = parts[k]
    at = rnd.randrange(1, len(word) - 1)
    parts[k] = word[:at] + word[at + 1 :]
    return " ".join(parts)


@pytest.fixture
def small_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The early pass on (off by default), its thresholds scaled to a list of a few thousand
    names (they are set for lists of hundreds of thousands)."""
    monkeypatch.setattr(index_module, "EARLY_MIN", 200)
    monkeypatch.setattr(index_module, "EARLY_SKIP", 20)
    monkeypatch.setattr(CandidateIndex, "early", True)


def _count_early(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    outcomes: list[bool] = []
    plain_early = CandidateIndex._early

    def spy(self: CandidateIndex, *args: object, **kwargs: object) -> list[int] | None:
        found = plain_early(self, *args, **kwargs)  # type: ignore[arg-type]
        outcomes.append(found is not None)
        return found

    monkeypatch.setattr(CandidateIndex, "_early", spy)
    return outcomes


def test_the_early_pass_proposes_the_names_of_the_plain_pass(
    small_thresholds: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(7)
    listed = _names(4000, seed=3)
    norms = [normalize_name(n) for n in listed]
    index = CandidateIndex.of(norms)
    planted = [_typo(n, rnd) for n in rnd.sample(listed, 100)]
    strangers = [
        " ".join([rnd.choice(COMMON), rnd.choice(COMMON), _rare(rnd)][: rnd.randint(2, 3)])
        for _ in range(100)
    ]
    outcomes = _count_early(monkeypatch)
    for query in [normalize_name(q) for q in planted + strangers]:
        plain = index.candidates(query, early=False)
        assert index.candidates(query) == plain, query.tokens
        assert index.candidates(query, 80) == index.candidates(query, 80, early=False)
    # the proof holds for a good share of the queries: the early pass runs, not only the plain one
    assert sum(outcomes) >= len(outcomes) // 8, (sum(outcomes), len(outcomes))


def test_a_planted_name_is_still_proposed_when_the_pass_stops_early(
    small_thresholds: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(11)
    listed = _names(4000, seed=5)
    index = CandidateIndex.of([normalize_name(n) for n in listed])
    outcomes = _count_early(monkeypatch)
    for row in rnd.sample(range(len(listed)), 100):
        if len(listed[row].split()) < 3:
            continue
        query = normalize_name(_typo(listed[row], rnd))
        found = index.candidates(query)
        assert found == index.candidates(query, early=False)
        assert row in found or not outcomes[-1]
    assert any(outcomes)


def test_screening_hits_are_the_same_with_and_without_the_early_pass(
    small_thresholds: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the engine: persons and organisations in two lists of different checks (the
    ``groups`` restriction), dates of birth on the listed side."""
    rnd = random.Random(13)
    listed = _names(4000, seed=9)
    entities = [
        ListEntity(
            entity_id=f"e{k}",
            list_code="s" if k < 2000 else "p",
            schema="Person",
            names=(NameEntry(name),),
            birth_dates=(f"19{50 + k % 50}-01-0{1 + k % 9}",),
        )
        for k, name in enumerate(listed)
    ]
    half = len(entities) // 2
    engine = ScreeningEngine(
        [
            ListSnapshot("s", "S", "1", "", frozenset({"sanction"}), tuple(entities[:half])),
            ListSnapshot("p", "P", "1", "", frozenset({"pep"}), tuple(entities[half:])),
        ]
    )
    subjects = [
        Subject(_typo(listed[k], rnd), birth_date=f"19{50 + k % 50}-01-0{1 + k % 9}")
        for k in rnd.sample(range(len(listed)), 50)
    ] + [Subject(f"{rnd.choice(COMMON)} {rnd.choice(COMMON)} {_rare(rnd)}") for _ in range(30)]
    outcomes = _count_early(monkeypatch)
    early = [engine.screen(s, checks=("sanction",), threshold=0.7) for s in subjects]
    calls = len(outcomes)
    plain_candidates = CandidateIndex.candidates

    def plain(self: CandidateIndex, *args: object, **kwargs: object) -> list[int]:
        return plain_candidates(self, *args, **{**kwargs, "early": False})  # type: ignore[arg-type]

    monkeypatch.setattr(CandidateIndex, "candidates", plain)
    full = [engine.screen(s, checks=("sanction",), threshold=0.7) for s in subjects]
    assert [r.to_dict() for r in early] == [r.to_dict() for r in full]
    assert sum(outcomes[:calls]) > 0
    assert sum(bool(r.hits) for r in early) >= 15


def test_the_early_pass_is_on_by_default() -> None:
    """The A/B on every query of ``bench/screening_scale.py`` at 200k and 1M names found the same
    candidates and the same results (docs/benchmarks.md), so the early pass runs unless told."""
    assert CandidateIndex.early is True


def test_a_failed_early_try_walks_the_postings_no_more_than_the_plain_pass(
    small_thresholds: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether the early pass can hold is decided from the postings' lengths and the tokens'
    weights before anything is walked; when it cannot be proven the plain pass is the only
    walk (before: a first walk of the short postings, then the plain pass over all of them)."""
    rnd = random.Random(17)
    listed = _names(4000, seed=21)
    index = CandidateIndex.of([normalize_name(n) for n in listed])
    queries = [_typo(n, rnd) for n in rnd.sample(listed, 60)] + [
        " ".join(rnd.choice(COMMON) for _ in range(rnd.randint(2, 4))) for _ in range(60)
    ]
    outcomes = _count_early(monkeypatch)
    walks: list[int] = []
    plain_walk = CandidateIndex._walk

    def counting(self: CandidateIndex, *args: object, **kwargs: object) -> object:
        walks.append(1)
        return plain_walk(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CandidateIndex, "_walk", counting)
    for query in [normalize_name(q) for q in queries]:
        walks.clear()
        tried = len(outcomes)
        found = index.candidates(query)
        assert len(walks) <= 1, query.tokens
        if len(outcomes) > tried:  # a query of no name part is not tried at all
            assert len(walks) == (0 if outcomes[-1] else 1)
        monkeypatch.setattr(CandidateIndex, "_walk", plain_walk)
        assert found == index.candidates(query, early=False), query.tokens
        monkeypatch.setattr(CandidateIndex, "_walk", counting)
    # both kinds were met: queries proven early and queries of common parts only where it fails
    assert any(outcomes) and not all(outcomes), outcomes
