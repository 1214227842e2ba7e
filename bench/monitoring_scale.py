"""Ongoing monitoring at scale, on one core (issue 34's targets).

**Delta**: a million synthetic monitored subjects, and a list change of 1,000 entries (new
synthetic listed persons and organisations). Timed from the change to the alerts ready: the
subjects decrypted from their stored form (the Vault's AES-GCM and JSON, as the job reads them;
measured on a sample and scaled, see ``--decrypt-sample``), the index of the subjects built, every
changed entry's names looked up in it and each proposed pair scored with the screening's scorer
(screening/monitoring_screening.delta_hits, what the job runs). ``--planted`` subjects are
listed persons of the change written with one typo (or exactly), with the entry's birth date and
country: recall is the share of them that get their hit, and every hit's score is checked equal
to an onboarding screening's (the engine over the bundled lists plus the change, the subject
screened the usual way).

**Full pass**: 100,000 synthetic subjects, each screened against the bundled lists (OFAC SDN
and UN, 15,968 entities) as the daily pass does (monitoring_screening.full_hits: the candidates
whose name score cannot reach the threshold are not scored, engines/screening/bound.py).
``--part check --full N`` runs that pass and the plain one (every candidate scored) on the same
N subjects and counts the subjects whose hits differ.

Subjects come from bench/screening_scale.py's generator (name parts of the bundled lists and
rigour's generic names, plus invented ones; 1 in 8 an organisation). Peak RSS of each part's
process is reported (each part runs in a fresh process).

    uv run --frozen --group dev python bench/monitoring_scale.py
    uv run --frozen --group dev python bench/monitoring_scale.py --subjects 100000 --full 10000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.screening_scale import NamePool, synthetic_entities, typo_name


def peak_rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def _subject(entity: Any) -> Any:
    from hakiki.engines.screening.subject import Subject

    return Subject(
        name=entity.primary_name,
        schema=entity.schema,
        birth_date=entity.birth_dates[0] if entity.birth_dates else None,
        countries=entity.countries,
    )


def _watched(subjects: list[Any]) -> list[Any]:
    from hakiki.screening.monitoring_screening import Watched

    return [
        Watched(row={"id": f"msub_{k}"}, subject=s, checks=("sanction", "pep"), threshold=0.8)
        for k, s in enumerate(subjects)
    ]


def _decrypt_seconds(subjects: list[Any], total: int) -> float:
    """The job's read of ``total`` stored subjects (decrypt + JSON + Subject), from a sample."""
    from hakiki.core.crypto import Vault
    from hakiki.screening.monitoring_screening import watched
    from hakiki.screening.monitoring_service import TYPE_BY_SCHEMA, seal_subject

    vault = Vault("bench master key, not a secret: " + "k" * 32)
    rows = [
        {
            "subject_encrypted": seal_subject(vault, s),
            "subject_type": TYPE_BY_SCHEMA[s.schema],
            "checks": "sanction,pep",
            "threshold": None,
        }
        for s in subjects
    ]
    started = time.process_time()
    watched(vault, rows, 0.8)
    return (time.process_time() - started) * total / len(rows)


def run_delta(count: int, changes: int, planted: int, sample: int, seed: int) -> dict[str, Any]:
    from hakiki.engines.screening import ListSnapshot, ScreeningEngine
    from hakiki.engines.screening.bundled import load_bundled_snapshots
    from hakiki.engines.screening.results import ListVersion
    from hakiki.screening.monitoring_screening import delta_hits

    bundled = load_bundled_snapshots()
    pool = NamePool(bundled)
    changed = [
        entity.__class__(**{**_fields(entity), "entity_id": f"C{k}", "list_code": "change"})
        for k, entity in enumerate(synthetic_entities(changes, pool, seed + 7))
    ]
    version = ListVersion("change", "The change", "2", ("sanction",))
    subjects = [_subject(e) for e in synthetic_entities(count - planted, pool, seed)]
    rnd = random.Random(seed + 1)
    persons = [e for e in changed if e.schema == "Person"]
    planted_subjects = []
    for k in range(planted):
        listed = persons[k % len(persons)]
        name = typo_name(listed.primary_name, rnd) if k % 2 else listed.primary_name
        planted_subjects.append(
            (
                listed.entity_id,
                _subject(listed.__class__(**{**_fields(listed), "names": (_entry(name),)})),
            )
        )
    positions = rnd.sample(range(count), planted)
    for position, (_, subject) in zip(sorted(positions), planted_subjects, strict=True):
        subjects.insert(position, subject)
    expected = dict(zip(sorted(positions), (e for e, _ in planted_subjects), strict=True))
    rss_subjects = peak_rss_mb()

    decrypt_s = _decrypt_seconds(subjects[:sample], count)
    watched = _watched(subjects)
    started = time.process_time()
    found = delta_hits(watched, [(entity, version) for entity in changed])
    delta_s = time.process_time() - started

    recalled = sum(
        1 for pos, eid in expected.items() if any(h.entity_id == eid for h in found.get(pos, []))
    )
    # the scores an onboarding screening gives the planted subjects, against the new version
    engine = ScreeningEngine(
        [
            *bundled,
            ListSnapshot("change", "The change", "2", "", frozenset({"sanction"}), tuple(changed)),
        ]
    )
    mismatched = 0
    for pos in expected:
        onboarding = {
            h.entity_id: h.score
            for h in engine.screen(subjects[pos], checks=("sanction", "pep"), limit=50).hits
            if h.list_code == "change"
        }
        monitoring = {h.entity_id: h.score for h in found.get(pos, [])}
        mismatched += onboarding != monitoring
    return {
        "subjects": count,
        "changes": changes,
        "decrypt_s": round(decrypt_s, 1),
        "delta_s": round(delta_s, 1),
        "total_s": round(decrypt_s + delta_s, 1),
        "with_hits": len(found),
        "hits": sum(len(h) for h in found.values()),
        "planted": planted,
        "recall": recalled / planted if planted else None,
        "score_mismatches": mismatched,
        "rss_subjects_mb": rss_subjects,
        "peak_rss_mb": peak_rss_mb(),
    }


def _fields(entity: Any) -> dict[str, Any]:
    return {name: getattr(entity, name) for name in entity.__dataclass_fields__}


def _entry(name: str) -> Any:
    from hakiki.engines.screening.model import NameEntry

    return NameEntry(name)


def run_full(count: int, seed: int) -> dict[str, Any]:
    from hakiki.engines.screening import ScreeningEngine
    from hakiki.engines.screening.bundled import load_bundled_snapshots
    from hakiki.screening.monitoring_screening import full_hits

    bundled = load_bundled_snapshots()
    engine = ScreeningEngine(bundled)
    pool = NamePool(bundled)
    watched = _watched([_subject(e) for e in synthetic_entities(count, pool, seed + 3)])
    started = time.process_time()
    found = full_hits(engine, watched)
    took = time.process_time() - started
    return {
        "subjects": count,
        "entities": engine.entity_count,
        "full_s": round(took, 1),
        "per_subject_ms": round(1000 * took / count, 2),
        "with_hits": len(found),
        "peak_rss_mb": peak_rss_mb(),
    }


def run_full_check(count: int, seed: int) -> dict[str, Any]:
    """The full pass as the job runs it (candidates pruned by the bound of the name score)
    against the plain pass (every candidate scored) on the same subjects: the hits compared
    entry for entry, score and explanation included."""
    from hakiki.engines.screening import ScreeningEngine
    from hakiki.engines.screening.bundled import load_bundled_snapshots
    from hakiki.screening.monitoring_screening import full_hits

    bundled = load_bundled_snapshots()
    engine = ScreeningEngine(bundled)
    pool = NamePool(bundled)
    watched = _watched([_subject(e) for e in synthetic_entities(count, pool, seed + 3)])
    started = time.process_time()
    pruned = full_hits(engine, watched)
    pruned_s = time.process_time() - started
    started = time.process_time()
    plain = full_hits(engine, watched, prune=False)
    plain_s = time.process_time() - started
    mismatched = sum(
        1
        for k in set(pruned) | set(plain)
        if [h.to_dict() for h in pruned.get(k, [])] != [h.to_dict() for h in plain.get(k, [])]
    )
    return {
        "subjects": count,
        "pruned_s": round(pruned_s, 1),
        "plain_s": round(plain_s, 1),
        "with_hits": len(pruned),
        "hits": sum(len(v) for v in pruned.values()),
        "subjects_with_other_hits": mismatched,
    }


def run_full_reversed(count: int, seed: int) -> dict[str, Any]:
    """The full pass the other way round (not what the job does; for comparison): every entry
    of the lists looked up in the index of the subjects, as a delta of the whole lists."""
    from hakiki.engines.screening import ScreeningEngine
    from hakiki.engines.screening.bundled import load_bundled_snapshots
    from hakiki.screening.monitoring_screening import delta_hits

    bundled = load_bundled_snapshots()
    engine = ScreeningEngine(bundled)
    pool = NamePool(bundled)
    watched = _watched([_subject(e) for e in synthetic_entities(count, pool, seed + 3)])
    entries = [(e, v) for v in engine.lists for e in engine.entities_of(v.code)]
    started = time.process_time()
    found = delta_hits(watched, entries)
    took = time.process_time() - started
    return {
        "subjects": count,
        "entities": len(entries),
        "full_reversed_s": round(took, 1),
        "with_hits": len(found),
        "peak_rss_mb": peak_rss_mb(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subjects", type=int, default=1_000_000)
    parser.add_argument("--changes", type=int, default=1000)
    parser.add_argument("--planted", type=int, default=500)
    parser.add_argument("--decrypt-sample", type=int, default=50_000)
    parser.add_argument("--full", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--cpu", type=int, default=0, help="core to pin to (Linux)")
    parser.add_argument(
        "--part", choices=("delta", "full", "reversed", "check"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    if args.part == "delta":
        result = run_delta(
            args.subjects, args.changes, args.planted, args.decrypt_sample, args.seed
        )
        print(json.dumps(result))
        return
    if args.part == "full":
        print(json.dumps(run_full(args.full, args.seed)))
        return
    if args.part == "check":  # pruned against plain, on --full subjects
        print(json.dumps(run_full_check(args.full, args.seed)))
        return
    if args.part == "reversed":
        print(json.dumps(run_full_reversed(args.full, args.seed)))
        return
    for part in ("delta", "full"):
        command = [sys.executable, __file__, "--part", part, *sys.argv[1:]]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        print(part, out.strip().splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
