"""The name-score bound the engine prunes candidates with (issue 33): it never falls below the
score it stands for, and screening with and without it gives the same hits."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hakiki.engines.screening import ScreeningEngine, Subject
from hakiki.engines.screening.model import NameKind
from hakiki.engines.screening.normalize import NormalizedName, is_org_schema, normalize_name
from hakiki.engines.screening.scorer import NameBound, score_name

EVAL = Path(__file__).parents[3] / "bench" / "eval" / "data"
PAIR_SETS = (
    "name_bench_cases.csv",
    "african_name_pairs_tz.csv",
    "african_name_pairs_ug.csv",
    "african_name_pairs_records.csv",
    "african_name_pairs_ke.csv",
    "african_name_pairs_ng.csv",
)
KINDS: tuple[NameKind, ...] = ("primary", "weak_alias")


def _assert_bound(query: NormalizedName, listed: NormalizedName, bound: NameBound) -> None:
    for kind in KINDS:
        score = score_name(query, listed, kind).score
        assert bound.of(listed, kind) >= score - 1e-9, (query.tokens, listed.tokens, kind)


def _typo(name: str, rnd: random.Random) -> str:
    parts = name.split()
    k = rnd.randrange(len(parts))
    part = parts[k]
    if len(part) > 3:
        i = rnd.randrange(1, len(part) - 1)
        parts[k] = part[:i] + part[i + 1 :] if rnd.random() < 0.5 else part[:i] + "e" + part[i:]
    return " ".join(parts)


@pytest.mark.parametrize("filename", PAIR_SETS)
def test_bound_holds_on_every_evaluation_pair(filename: str) -> None:
    with (EVAL / filename).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        is_org = is_org_schema(row.get("schema") or "Person")
        a, b = normalize_name(row["name1"], is_org), normalize_name(row["name2"], is_org)
        if not a or not b:
            continue
        _assert_bound(a, b, NameBound(a))
        _assert_bound(b, a, NameBound(b))


def test_bound_holds_on_every_candidate_of_the_bundled_lists(
    engine: ScreeningEngine, un_positives: list[dict[str, str]], negatives: list[dict[str, str]]
) -> None:
    rnd = random.Random(33)
    names = [row["full_name"] for row in un_positives[::3]]
    names += [_typo(name, rnd) for name in names]
    names += [row["full_name"] for row in negatives[:60]]
    table = engine.index.table
    for name in names:
        query = normalize_name(name)
        if not query:
            continue
        bound = NameBound(query)
        for nid in engine.index.candidates(query):
            _assert_bound(query, table.norm(nid), bound)


def _hits(engine: ScreeningEngine, subject: Subject) -> list[tuple[object, ...]]:
    return [
        (h.entity_id, h.score, h.matched_name, h.explanation)
        for h in engine.screen(subject, threshold=0.8, limit=10).hits
    ]


def test_pruning_changes_no_hit(
    engine: ScreeningEngine,
    un_positives: list[dict[str, str]],
    negatives: list[dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rnd = random.Random(34)
    subjects = []
    for row in un_positives[::2]:
        subjects.append(Subject(row["full_name"], birth_date=row["date_of_birth"] or None))
        subjects.append(Subject(_typo(row["full_name"], rnd)))
    for row in negatives[:100]:
        subjects.append(Subject(row["full_name"], birth_date=row["date_of_birth"] or None))
    pruned = [_hits(engine, s) for s in subjects]
    monkeypatch.setattr(ScreeningEngine, "prune", False)
    full = [_hits(engine, s) for s in subjects]
    assert pruned == full
    assert sum(1 for hits in full if hits) >= 120  # the UN positives are found


# Tokens that exercise every way match_tokens pairs parts: written together on either side,
# a moved boundary, short-part slips, short forms, variants, initials, honorifics, "bin".
TRICKY = (  # noqa: SIM905 (words read better as words)
    "abdul rahman abdulrahman abdu lrahman abd al bin ibn haji mohamed muhammad mohmmad "
    "olugbenga gbenga oluwaseun seun chris christopher jonah jonathan kim jong un on ho heo "
    "a m j segun shegun joshua yusuf iusuf ali aly omar omarow said saade iyorihyer iyorher "
    "abubakar abu bakr ta ehun tae hun ahmed ahmad jabbar rahim ltd"
).split()
_token = st.one_of(
    st.sampled_from(TRICKY),
    st.text(alphabet="abdehilmnorsuy", min_size=1, max_size=9),
)
_name = st.lists(_token, min_size=1, max_size=5).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(_name, _name, st.booleans())
def test_bound_holds_on_made_up_names(a: str, b: str, is_org: bool) -> None:
    query, listed = normalize_name(a, is_org), normalize_name(b, is_org)
    if query and listed:
        _assert_bound(query, listed, NameBound(query))
