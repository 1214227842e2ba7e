"""One-command evaluation of Hakiki's screening engine, optionally beside nomenklatura logic-v2.

    uv run --group dev python bench/eval/run.py              # Hakiki only
    uv run --group dev python bench/eval/run.py --anchor     # plus logic-v2 (after setup_anchor.sh)
    uv run --group dev python bench/eval/run.py --negatives 5000   # quicker: first 5,000 negatives

Sets (all in bench/eval/data/, see its SOURCES.md):

* name bench: 826 labelled name pairs from nomenklatura (people, companies, vessels...);
* regional: Tanzanian, Ugandan, records-style, Kenyan and Nigerian legislators' name pairs
  (true pairs and as many hard negatives; compare mode);
* UN positives: 683 listed UN persons screened against the full bundled index (top-1 found),
  as listed and with one seeded typo each (UN typos);
* negatives: 50,000 synthetic clean customers screened against the full index (false positives).

Pair sets are scored with Hakiki's name scorer (``scorer.score_name``: ``name1`` is the query,
``name2`` the list name); screenings use ``default_engine().screen`` at the default threshold.
The process is pinned to one core; the anchor subprocess inherits the pinning.
Writes bench/eval/results/latest.json and prints a Markdown summary.
"""

from __future__ import annotations

import argparse
import csv
import gc
import gzip
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "results"
ANCHOR_PYTHON = HERE / ".venv-anchor" / "bin" / "python"
ANCHOR_SCRIPT = HERE / "anchor_logic_v2.py"

HAKIKI_THRESHOLD = 0.8  # ScreeningEngine.screen default and Settings.aml_threshold
LOGIC_V2_THRESHOLD = 0.7  # the threshold OpenSanctions publishes logic-v2 figures at
TIMING_REPEATS = 3

PUBLISHED = {
    "name_bench": {
        "logic-v2": (0.760, 0.835, 0.796),
        "logic-v1 F1": 0.751,
        "name-based F1": 0.729,
    },
    "regional_tz": {
        "logic-v2": (0.990, 0.910, 0.948),
        "logic-v1 F1": 0.796,
        "name-based": (0.957, 0.991, 0.973),
    },
    "un_positives_top1": 0.996,
    "negatives_fpr": 0.001,
}
TARGETS = {
    "name_bench_f1": 0.85,
    "regional_f1": 0.97,
    "legislators_fpr_max": 0.005,
    "un_top1": 0.99,
    "negatives_fpr_max": 0.001,
    "p50_ms_max": 1.0,
    "p99_ms_max": 5.0,
}

Row = dict[str, str]


# --- data -----------------------------------------------------------------------------------


def read_csv(path: Path) -> list[Row]:
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


REGIONAL_SETS = {
    "regional_tz": "african_name_pairs_tz.csv",
    "regional_ug": "african_name_pairs_ug.csv",
    "regional_records": "african_name_pairs_records.csv",
    "regional_ke": "african_name_pairs_ke.csv",
    "regional_ng": "african_name_pairs_ng.csv",
}
RECORD_FIELDS = ("dob1", "dob2", "country1", "country2")
LEGISLATORS = ("tanzania_national_assembly", "uganda_parliament")


def load_pairs() -> dict[str, list[Row]]:
    sets = {"name_bench": read_csv(DATA / "name_bench_cases.csv")}
    for name, filename in REGIONAL_SETS.items():
        regional = read_csv(DATA / filename)
        for row in regional:
            row.setdefault("schema", "Person")
            row["case_group"] = row.get("source", name)
        sets[name] = regional
    return sets


def load_legislators() -> list[str]:
    """Every distinct legislator name of the regional sets (none is a sanctioned person)."""
    names: set[str] = set()
    for filename in REGIONAL_SETS.values():
        for row in read_csv(DATA / filename):
            names.update((row["name1"], row["name2"]))
    return sorted(names)


# --- metrics --------------------------------------------------------------------------------


def prf(scores: Sequence[float], labels: Sequence[bool], threshold: float) -> dict[str, Any]:
    tp = sum(1 for s, y in zip(scores, labels, strict=True) if s >= threshold and y)
    fp = sum(1 for s, y in zip(scores, labels, strict=True) if s >= threshold and not y)
    fn = sum(1 for s, y in zip(scores, labels, strict=True) if s < threshold and y)
    tn = len(labels) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "threshold": round(threshold, 4),
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def best_f1(scores: Sequence[float], labels: Sequence[bool]) -> dict[str, Any]:
    """The threshold with the best F1 on this very set (TUNED: optimistic by construction)."""
    candidates = sorted({round(s, 4) for s in scores if 0.0 < s <= 1.0})
    best = prf(scores, labels, 1.01)
    for t in candidates:
        current = prf(scores, labels, t)
        if current["f1"] > best["f1"]:
            best = current
    return best


def error_breakdown(
    rows: Sequence[Row], scores: Sequence[float], threshold: float
) -> dict[str, Any]:
    """False negatives and false positives grouped by schema, case group, quality and note."""
    groups: dict[str, dict[str, Counter[str]]] = {
        key: {"fn": Counter(), "fp": Counter(), "n_true": Counter(), "n_false": Counter()}
        for key in ("schema", "case_group", "quality", "note")
    }
    examples: dict[str, list[dict[str, Any]]] = {"fn": [], "fp": []}
    for row, score in zip(rows, scores, strict=True):
        truth = row["is_match"].strip().lower() == "true"
        outcome = None
        if truth and score < threshold:
            outcome = "fn"
        elif not truth and score >= threshold:
            outcome = "fp"
        keys = {
            "schema": row.get("schema") or "Person",
            "case_group": row.get("case_group") or "",
            "quality": row.get("quality") or "",
            "note": _note_key(row),
        }
        for group, value in keys.items():
            groups[group]["n_true" if truth else "n_false"][value] += 1
            if outcome:
                groups[group][outcome][value] += 1
        if outcome:
            examples[outcome].append(
                {"name1": row["name1"], "name2": row["name2"], "score": round(score, 4), **keys}
            )
    out: dict[str, Any] = {}
    for group, counters in groups.items():
        values = set(counters["n_true"]) | set(counters["n_false"])
        out[group] = {
            v: {
                "fn": counters["fn"][v],
                "n_true": counters["n_true"][v],
                "fp": counters["fp"][v],
                "n_false": counters["n_false"][v],
            }
            for v in sorted(values)
        }
    for outcome in examples:
        examples[outcome].sort(key=lambda e: e["score"], reverse=outcome == "fn")
    out["examples"] = examples
    return out


def _note_key(row: Row) -> str:
    note = (row.get("notes") or "").strip()
    if not note:
        return row.get("category") or ""
    return re.split(r"[:;(]", note, maxsplit=1)[0].strip()[:40]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))]


# --- Hakiki ---------------------------------------------------------------------------------


def hakiki_pair_scorer(symmetric: bool = False) -> Callable[[str, str, str], float]:
    """Query against list name (the name bench), or compare mode (``hakiki screen --compare``,
    symmetric: the regional sets, two records of one legislator)."""
    from hakiki.engines.screening.normalize import is_org_schema, normalize_name
    from hakiki.engines.screening.scorer import score_name, score_names_symmetric

    scorer = score_names_symmetric if symmetric else score_name

    def score(name1: str, name2: str, schema: str) -> float:
        is_org = is_org_schema(schema)
        query, listed = normalize_name(name1, is_org), normalize_name(name2, is_org)
        return scorer(query, listed, "primary").score

    return score


def has_record(row: Row) -> bool:
    return any(row.get(k) for k in RECORD_FIELDS)


def score_record_pair(row: Row) -> float:
    """A pair whose records carry a date of birth or nationality: scored as
    ``hakiki screen --compare`` scores two records (``lists.screen.compare_pair``)."""
    from hakiki.lists.screen import compare_pair

    def record(k: str) -> dict[str, Any]:
        out: dict[str, Any] = {"name": row[f"name{k}"]}
        if row.get(f"dob{k}"):
            out["birth_date"] = row[f"dob{k}"]
        if row.get(f"country{k}"):
            out["country"] = row[f"country{k}"]
        return out

    return float(
        compare_pair({"a": record("1"), "b": record("2")}, threshold=HAKIKI_THRESHOLD)["score"]
    )


def clear_hakiki_caches() -> None:
    from hakiki.engines.screening import normalize

    for name in ("fold", "tokenize", "normalize_name"):
        getattr(normalize, name).cache_clear()


def score_pairs_hakiki(
    rows: Sequence[Row], symmetric: bool = False
) -> tuple[list[float], dict[str, float]]:
    """Scores, and µs per pair: cold (caches cleared, one pass) and warm (best of 3 passes)."""
    score = hakiki_pair_scorer(symmetric)
    score("Warm Up", "Warm-Up Ltd", "Company")  # load rigour's data before timing
    clear_hakiki_caches()
    t0 = time.perf_counter()
    scores = [score(r["name1"], r["name2"], r.get("schema") or "Person") for r in rows]
    cold = (time.perf_counter() - t0) / len(rows) * 1e6
    scores = [
        score_record_pair(r) if has_record(r) else s for r, s in zip(rows, scores, strict=True)
    ]
    warm = []
    for _ in range(TIMING_REPEATS):
        t0 = time.perf_counter()
        for r in rows:
            score(r["name1"], r["name2"], r.get("schema") or "Person")
        warm.append((time.perf_counter() - t0) / len(rows) * 1e6)
    return scores, {"us_per_pair_cold": round(cold, 2), "us_per_pair_warm": round(min(warm), 2)}


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def resolve_un_references(positives: Sequence[Row]) -> list[str | None]:
    """REFERENCE_NUMBER of the bundled UN individual each positive names (as the test fixture).

    The UN individual whose primary name, lowercased without punctuation, equals the query's
    full name; among several, the one whose birth date equals the query's; else unresolved.
    """
    from hakiki.engines.screening import load_bundled_snapshots

    by_name: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    for snapshot in load_bundled_snapshots():
        if snapshot.code != "un_sc_consolidated":
            continue
        for entity in snapshot.entities:
            if entity.schema == "Person":
                by_name[_key(entity.primary_name)].append((entity.entity_id, entity.birth_dates))
    refs: list[str | None] = []
    for row in positives:
        found = by_name.get(_key(row["full_name"]), [])
        if len(found) > 1:
            found = [f for f in found if row["date_of_birth"] and row["date_of_birth"] in f[1]]
        refs.append(found[0][0] if len(found) == 1 else None)
    return refs


def subject_of(row: Row, with_features: bool) -> Any:
    from hakiki.engines.screening import Subject

    if not with_features:
        return Subject(row["full_name"])
    return Subject(
        row["full_name"],
        birth_date=row["date_of_birth"] or None,
        countries=(row["nationality"],) if row["nationality"] else (),
        gender=row["gender"] or None,
    )


TYPO_SEED = 33
_TYPO_LETTERS = "aeioubdhklmnrsty"


def with_typo(name: str, rng: Any) -> str:
    """The name with one seeded slip: a letter dropped, doubled, changed or two swapped in a
    part of any length (two letters and more), or the boundary between two parts moved by one
    letter ("Abdul Rahman" -> "Abdu Lrahman"), as a clerk keys names in."""
    words = name.split()
    kinds = ["delete", "insert", "substitute", "transpose"]
    if len(words) >= 2:
        kinds.append("boundary")
    kind = rng.choice(kinds)
    if kind == "boundary":
        k = rng.randrange(len(words) - 1)
        a, b = words[k], words[k + 1]
        if len(b) > 2 and rng.random() < 0.5:
            a, b = a + b[0].lower() if a[-1:].islower() else a + b[0], b[1:]
        elif len(a) > 2:
            a, b = a[:-1], a[-1] + b
        words[k], words[k + 1] = a, b
        return " ".join(words)
    candidates = [i for i, w in enumerate(words) if len(w) >= 2 and w.isalpha()]
    if not candidates:
        return name
    i = rng.choice(candidates)
    w = words[i]
    j = rng.randrange(1, len(w)) if len(w) > 1 else 0
    letter = rng.choice(_TYPO_LETTERS)
    letter = letter.upper() if w.isupper() else letter
    if kind == "delete" and len(w) > 2:
        w = w[:j] + w[j + 1 :]
    elif kind == "insert":
        w = w[:j] + letter + w[j:]
    elif kind == "transpose" and j < len(w) - 1 and w[j] != w[j + 1]:
        w = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    else:
        w = w[:j] + (letter if letter.lower() != w[j].lower() else "z") + w[j + 1 :]
    words[i] = w
    return " ".join(words)


def run_screenings(
    positives: Sequence[Row],
    negatives: Sequence[Row],
    threshold: float,
    legislators: Sequence[str] = (),
) -> dict[str, Any]:
    from hakiki.engines.screening import Subject, default_engine

    t0 = time.perf_counter()
    engine = default_engine()
    build_s = time.perf_counter() - t0
    refs = resolve_un_references(positives)
    out: dict[str, Any] = {
        "lists": [f"{v.code} {v.version}" for v in engine.lists],
        "entities": engine.entity_count,
        "names": engine.name_count,
        "engine_build_s": round(build_s, 2),
        "threshold": threshold,
    }
    for warm in positives[:50]:  # warm caches as a running server would have them
        engine.screen(subject_of(warm, True), threshold=threshold)
    gc.collect()
    gc.freeze()  # what a server does after building the engine: no full GC over the lists

    timings: list[float] = []
    for mode, with_features in (("name+dob+country+gender", True), ("name_only", False)):
        found = resolved = 0
        missed: list[dict[str, Any]] = []
        for row, ref in zip(positives, refs, strict=True):
            subject = subject_of(row, with_features)
            t = time.perf_counter()
            result = engine.screen(subject, threshold=threshold)
            if with_features:
                timings.append(time.perf_counter() - t)
            if ref is None:
                continue
            resolved += 1
            best = result.hits[0].score if result.hits else None
            ok = any(
                h.list_code == "un_sc_consolidated" and h.entity_id == ref and h.score == best
                for h in result.hits
            )
            found += ok
            if not ok:
                top = result.hits[0] if result.hits else None
                missed.append(
                    {
                        "query": row["full_name"],
                        "expected": ref,
                        "top": f"{top.list_code}:{top.entity_id} {top.matched_name} {top.score}"
                        if top
                        else None,
                    }
                )
        out.setdefault("un_positives", {})[mode] = {
            "queries": len(positives),
            "resolved": resolved,
            "top1_found": found,
            "top1_recall": round(found / resolved, 4) if resolved else 0.0,
            "missed": missed,
        }
        flagged = 0
        flagged_examples: list[dict[str, Any]] = []
        started = time.perf_counter()
        for row in negatives:
            subject = subject_of(row, with_features)
            t = time.perf_counter()
            result = engine.screen(subject, threshold=threshold)
            if with_features:
                timings.append(time.perf_counter() - t)
            if result.hits:
                flagged += 1
                if len(flagged_examples) < 50:
                    h = result.hits[0]
                    flagged_examples.append(
                        {
                            "query": row["full_name"],
                            "hit": f"{h.list_code}:{h.entity_id} {h.matched_name}",
                            "score": h.score,
                        }
                    )
        out.setdefault("negatives", {})[mode] = {
            "queries": len(negatives),
            "flagged": flagged,
            "fpr": round(flagged / len(negatives), 5) if negatives else 0.0,
            "seconds": round(time.perf_counter() - started, 1),
            "examples": flagged_examples,
        }
    import random

    rng = random.Random(TYPO_SEED)
    typo_rows = [row | {"full_name": with_typo(row["full_name"], rng)} for row in positives]
    for mode, with_features in (
        ("typo, name+dob+country+gender", True),
        ("typo, name_only", False),
    ):
        found = resolved = 0
        missed = []
        for row, ref in zip(typo_rows, refs, strict=True):
            if ref is None:
                continue
            resolved += 1
            result = engine.screen(subject_of(row, with_features), threshold=threshold)
            best = result.hits[0].score if result.hits else None
            ok = any(
                h.list_code == "un_sc_consolidated" and h.entity_id == ref and h.score == best
                for h in result.hits
            )
            found += ok
            if not ok:
                top = result.hits[0] if result.hits else None
                missed.append(
                    {
                        "query": row["full_name"],
                        "expected": ref,
                        "top": f"{top.list_code}:{top.entity_id} {top.matched_name} {top.score}"
                        if top
                        else None,
                    }
                )
        out["un_positives"][mode] = {
            "queries": len(typo_rows),
            "resolved": resolved,
            "top1_found": found,
            "top1_recall": round(found / resolved, 4) if resolved else 0.0,
            "missed": missed,
        }
    flagged_legislators = []
    for name in legislators:
        result = engine.screen(Subject(name), threshold=threshold)
        if result.hits:
            h = result.hits[0]
            flagged_legislators.append(
                {"query": name, "hit": f"{h.list_code}:{h.entity_id} {h.matched_name}",
                 "score": h.score}
            )  # fmt: skip
    out["legislators"] = {
        "what": "every legislator name of the regional sets, name only, against the full index",
        "queries": len(legislators),
        "flagged": len(flagged_legislators),
        "fpr": round(len(flagged_legislators) / len(legislators), 5) if legislators else 0.0,
        "examples": flagged_legislators,
    }
    gc.unfreeze()
    timings.sort()
    ms = [t * 1000 for t in timings]
    out["latency"] = {
        "what": "in-process engine.screen on one pinned core, name+dob+country+gender queries "
        "(UN positives and negatives), threshold 0.8, both bundled lists",
        "screenings": len(ms),
        "p50_ms": round(statistics.median(ms), 3),
        "p99_ms": round(percentile(ms, 0.99), 3),
        "max_ms": round(ms[-1], 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "throughput_per_s": round(len(ms) / (sum(ms) / 1000), 1),
    }
    return out


# --- anchor ---------------------------------------------------------------------------------


def run_anchor(pair_sets: dict[str, list[Row]]) -> dict[str, Any]:
    if not ANCHOR_PYTHON.exists():
        raise SystemExit(f"no anchor venv at {ANCHOR_PYTHON}: run bench/eval/setup_anchor.sh first")
    request = {
        "repeats": TIMING_REPEATS,
        "sets": {
            name: [
                {"schema": r.get("schema") or "Person", "name1": r["name1"], "name2": r["name2"]}
                | {k: r[k] for k in RECORD_FIELDS if r.get(k)}
                for r in rows
            ]
            for name, rows in pair_sets.items()
        },
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["HF_HUB_OFFLINE"] = "1"
    proc = subprocess.run(
        [str(ANCHOR_PYTHON), str(ANCHOR_SCRIPT), "--offline"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"anchor failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def frozen_agreement(rows: Sequence[Row], live: Sequence[float]) -> dict[str, Any]:
    """How the live logic-v2 scores compare with the frozen reference scores of the bench."""
    frozen: dict[tuple[str, str, str, str], float] = {}
    for r in read_csv(DATA / "name_bench_logicv2_frozen_scores.csv"):
        frozen[(r["case_group"], r["schema"], r["name1"], r["name2"])] = float(r["score"])
    diffs = []
    same_side = 0
    for row, score in zip(rows, live, strict=True):
        ref = frozen.get((row["case_group"], row["schema"], row["name1"], row["name2"]))
        if ref is None:
            continue
        diffs.append(abs(ref - score))
        same_side += (ref >= LOGIC_V2_THRESHOLD) == (score >= LOGIC_V2_THRESHOLD)
    return {
        "compared": len(diffs),
        "mean_abs_diff": round(statistics.fmean(diffs), 4) if diffs else None,
        "same_decision_at_0.7": same_side,
    }


# --- report ---------------------------------------------------------------------------------


def fmt(metrics: dict[str, Any]) -> str:
    return f"{metrics['precision']:.3f} / {metrics['recall']:.3f} / **{metrics['f1']:.3f}**"


def markdown(results: dict[str, Any]) -> str:
    lines = ["## Hakiki evaluation", ""]
    lines.append(f"{results['started']}, {results['machine']}")
    lines.append("")
    pairs = results["pairs"]
    anchor = "logic-v2" in next(iter(pairs.values()))
    head = "| set | Hakiki P / R / F1 @0.8 | Hakiki tuned (best-F1 thr) |"
    sep = "|---|---|---|"
    if anchor:
        head += " logic-v2 P / R / F1 @0.7 (this run) | logic-v2 tuned | published logic-v2 |"
        head += " name-based P / R / F1 @0.7 (this run) |"
        sep += "---|---|---|---|"
    lines += [head, sep]
    for name, res in pairs.items():
        h = res["hakiki"]
        tuned = h["tuned_best_f1"]
        line = f"| {name} ({res['pairs']} pairs) | {fmt(h['at_threshold'])} | "
        line += f"{tuned['f1']:.3f} @{tuned['threshold']:.2f} |"
        if anchor:
            a = res["logic-v2"]
            pub = PUBLISHED.get(name, {}).get("logic-v2")
            line += f" {fmt(a['at_threshold'])} | {a['tuned_best_f1']['f1']:.3f}"
            line += f" @{a['tuned_best_f1']['threshold']:.2f} |"
            line += f" {pub[0]:.3f} / {pub[1]:.3f} / {pub[2]:.3f} |" if pub else " |"
            line += f" {fmt(res['name-based']['at_threshold'])} |"
        lines.append(line)
    lines.append("")
    lines.append("| pair scoring speed (one core) | µs/pair warm | µs/pair cold |")
    lines.append("|---|---|---|")
    for name, res in pairs.items():
        h = res["hakiki"]["timing"]
        lines.append(
            f"| Hakiki, {name} | {h['us_per_pair_warm']:.1f} | {h['us_per_pair_cold']:.1f} |"
        )
        if anchor:
            a = res["logic-v2"]["timing"]
            lines.append(
                f"| logic-v2, {name} | {a['us_per_pair_warm']:.1f} | {a['us_per_pair_cold']:.1f} |"
            )
            lines.append(
                f"| **ratio** (logic-v2 / Hakiki, warm) | **{res['throughput_ratio']:.1f}x** | |"
            )
    s = results.get("screening")
    if s:
        lines.append("")
        lines.append("| screening against the full index (threshold 0.8) | value | target |")
        lines.append("|---|---|---|")
        for mode, un in s["un_positives"].items():
            lines.append(
                f"| UN positives top-1, {mode} | {un['top1_recall']:.4f} "
                f"({un['top1_found']}/{un['resolved']} resolved of {un['queries']}) | >= 0.99 |"
            )
        for mode, neg in s["negatives"].items():
            lines.append(
                f"| negatives FPR, {mode} | {neg['fpr'] * 100:.3f}% "
                f"({neg['flagged']}/{neg['queries']}) | <= 0.1% |"
            )
        leg = s.get("legislators")
        if leg:
            lines.append(
                f"| legislators against the lists, name only | {leg['fpr'] * 100:.2f}% "
                f"({leg['flagged']}/{leg['queries']}) | <= 0.5% |"
            )
        lat = s["latency"]
        lines.append(f"| p50 latency | {lat['p50_ms']:.3f} ms | < 1 ms |")
        lines.append(f"| p99 latency | {lat['p99_ms']:.3f} ms | < 5 ms |")
        lines.append(
            f"| throughput | {lat['throughput_per_s']:,.0f} screenings/s "
            f"({lat['screenings']:,} screenings) | |"
        )
    return "\n".join(lines)


# --- main -----------------------------------------------------------------------------------


def evaluate_pairs(
    pair_sets: dict[str, list[Row]], anchor: dict[str, Any] | None
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, rows in pair_sets.items():
        labels = [r["is_match"].strip().lower() == "true" for r in rows]
        symmetric = name in REGIONAL_SETS
        scores, timing = score_pairs_hakiki(rows, symmetric)
        res: dict[str, Any] = {
            "pairs": len(rows),
            "positives": sum(labels),
            "hakiki": {
                "scorer": (
                    "scorer.score_names_symmetric (compare mode, hakiki screen --compare)"
                    if symmetric
                    else "scorer.score_name(normalize_name(name1), normalize_name(name2), "
                    "'primary'), legal-form handling for non-Person schemas"
                ),
                "at_threshold": prf(scores, labels, HAKIKI_THRESHOLD),
                "tuned_best_f1": best_f1(scores, labels),
                "errors_at_threshold": error_breakdown(rows, scores, HAKIKI_THRESHOLD),
                "timing": timing,
                "scores": [round(s, 4) for s in scores],
            },
        }
        if anchor is not None:
            a = anchor["sets"][name]
            a_scores = a["scores"]
            res["logic-v2"] = {
                "nomenklatura": anchor["nomenklatura"],
                "at_threshold": prf(a_scores, labels, LOGIC_V2_THRESHOLD),
                "at_hakiki_threshold": prf(a_scores, labels, HAKIKI_THRESHOLD),
                "tuned_best_f1": best_f1(a_scores, labels),
                "errors_at_threshold": error_breakdown(rows, a_scores, LOGIC_V2_THRESHOLD),
                "timing": a["timing"],
                "scores": [round(s, 4) for s in a_scores],
            }
            res["throughput_ratio"] = round(
                a["timing"]["us_per_pair_warm"] / timing["us_per_pair_warm"], 2
            )
            nb_scores = a["name_based_scores"]
            res["name-based"] = {
                "matcher": anchor.get("second_matcher", "name-based"),
                "at_threshold": prf(nb_scores, labels, LOGIC_V2_THRESHOLD),
                "at_hakiki_threshold": prf(nb_scores, labels, HAKIKI_THRESHOLD),
                "tuned_best_f1": best_f1(nb_scores, labels),
                "errors_at_threshold": error_breakdown(rows, nb_scores, LOGIC_V2_THRESHOLD),
                "scores": [round(s, 4) for s in nb_scores],
            }
            if name == "name_bench":
                res["logic-v2"]["frozen_reference_agreement"] = frozen_agreement(rows, a_scores)
        out[name] = res
    return out


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--anchor", action="store_true", help="also run logic-v2 (anchor venv)")
    parser.add_argument("--negatives", type=int, default=None, help="use the first N negatives")
    parser.add_argument("--no-screening", action="store_true", help="pair sets only")
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to (default: lowest)")
    parser.add_argument("--output", type=Path, default=RESULTS / "latest.json")
    args = parser.parse_args(list(argv) if argv is not None else None)

    cpu = None
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    results: dict[str, Any] = {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, Python {platform.python_version()}, pinned to CPU {cpu}",
        "hakiki_threshold": HAKIKI_THRESHOLD,
        "logic_v2_threshold": LOGIC_V2_THRESHOLD,
        "published_anchors": PUBLISHED,
        "targets": TARGETS,
    }
    pair_sets = load_pairs()
    anchor = run_anchor(pair_sets) if args.anchor else None
    results["pairs"] = evaluate_pairs(pair_sets, anchor)
    if not args.no_screening:
        positives = read_csv(DATA / "positives_un_untreated.csv")
        negatives = read_csv(DATA / "negatives_global.csv.gz")
        if args.negatives is not None:
            negatives = negatives[: args.negatives]
        results["screening"] = run_screenings(
            positives, negatives, HAKIKI_THRESHOLD, load_legislators()
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(args.output)
    out = io.StringIO()
    out.write(markdown(results) + "\n")
    out.write(f"\nfull results: {args.output}\n")
    sys.stdout.write(out.getvalue())


if __name__ == "__main__":
    main()
