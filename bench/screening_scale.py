"""The screening engine at the scale of a real watchlist, on one core.

For each size, a fresh process builds an engine over the bundled lists (OFAC SDN and UN, 15,968
entities) plus synthetic entities up to that size, then screens a fixed query mix:

* planted positives: synthetic listed persons screened with one typo in one name part (a letter
  dropped, doubled, replaced or two swapped), with their date of birth and country;
* UN positives (``tests/engines/screening/data/un_positives_sample.csv``, with one typo every
  other time) and clean customers (``bench/eval/data/negatives_global.csv.gz``).

Synthetic persons take their name parts from the bundled lists' person names and rigour's
generic person names, with a share of new parts made from the syllables of those (so the
vocabulary grows with the list, as a real one does); they have 0-3 aliases (a spelling
variant, a dropped middle name, surname first), a date of birth for most, one or two
countries. One in eight synthetic entities is an organisation.

Reported per size: entities, names, build time (index and engine, not the generation; CPU
time), engine RSS (the process after the build, the generated entities dropped, minus before
they were generated: what the engine keeps, entities and index),
p50/p99 latency, screenings/s, and recall of the planted positives at the candidate stage (the
entity among the candidates the index proposes) and final (a hit at threshold 0.8).

    uv run --frozen --group dev python bench/screening_scale.py --sizes 15968,100000,300000
    uv run --frozen --group dev python bench/screening_scale.py --sizes 1000000 --planted 500
"""

from __future__ import annotations

import argparse
import csv
import gc
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
UN_POSITIVES = ROOT / "tests" / "engines" / "screening" / "data" / "un_positives_sample.csv"
NEGATIVES = ROOT / "bench" / "eval" / "data" / "negatives_global.csv.gz"
COUNTRIES = (  # noqa: SIM905 (a list of words reads better as words)
    "ke ug tz ng gh za et so sd ss cd rw bi eg ly dz ma tn ml ne td cm sn ci bf gn "
    "af pk ir iq sy ye sa ae qa om lb jo ps tr ru ua by kz uz tj cn kp mm th vn ph id my "
    "in bd lk np us gb fr de it es nl be ch at se no pl ro bg rs ba hr gr cy mt ve co mx br"
).split()
ORG_FORMS = ("Ltd", "LLC", "Limited", "Company", "Trading Co", "Group", "SA", "GmbH", "JSC", "")
ORG_WORDS = (  # noqa: SIM905
    "General Trading Holdings Industries Petroleum Shipping Logistics Investment Mining Gold "
    "Energy Oil Gas Bank Finance Capital Agro Foods Textiles Electronics Technology Systems "
    "Construction Engineering Security Services Import Export Marine Aviation Pharma Medical "
    "National International Global United Star Eagle Lion Crescent Golden Green Royal Sahara "
    "Nile Congo Atlas Horizon Orient Pacific Alpha Delta Omega"
).split()


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def typo(token: str, rnd: random.Random) -> str:
    """One edit inside a name part of four letters or more."""
    i = rnd.randrange(1, len(token) - 1)
    kind = rnd.randrange(4)
    if kind == 0:  # a letter dropped
        return token[:i] + token[i + 1 :]
    if kind == 1:  # a letter doubled
        return token[:i] + token[i] + token[i:]
    if kind == 2:  # a letter replaced by a neighbouring vowel or consonant
        swaps = {"a": "e", "e": "i", "i": "y", "o": "u", "u": "o", "y": "i"}
        repl = swaps.get(token[i].lower(), rnd.choice("bdklmnrst"))
        return token[:i] + (repl.upper() if token[i].isupper() else repl) + token[i + 1 :]
    return token[:i] + token[i + 1] + token[i] + token[i + 2 :]  # two letters swapped


def typo_name(name: str, rnd: random.Random) -> str:
    tokens = name.split()
    long = [k for k, t in enumerate(tokens) if len(t) >= 5 and t.isalpha()]
    if not long:
        return name
    k = rnd.choice(long)
    tokens[k] = typo(tokens[k], rnd)
    return " ".join(tokens)


class NamePool:
    """Name parts as the bundled lists use them (with their frequencies), and new ones."""

    def __init__(self, snapshots: list[Any]) -> None:
        from rigour._core import generic_person_names_list

        given: list[str] = []
        family: list[str] = []
        for snapshot in snapshots:
            for entity in snapshot.entities:
                if entity.schema != "Person":
                    continue
                for entry in entity.names[:2]:
                    parts = [p for p in entry.name.replace(",", " ").split() if p.isalpha()]
                    if len(parts) < 2:
                        continue
                    given.extend(p.capitalize() for p in parts[:-1])
                    family.append(parts[-1].capitalize())
        given.extend(
            n.capitalize()
            for n in generic_person_names_list()
            if n.isascii() and n.isalpha() and len(n) > 2
        )
        self.given = given
        self.family = family
        self._syllables = sorted({t[: len(t) // 2] for t in family if len(t) >= 4})
        self._endings = sorted({t[len(t) // 2 :].lower() for t in family if len(t) >= 4})

    def invent(self, rnd: random.Random) -> str:
        return (rnd.choice(self._syllables) + rnd.choice(self._endings)).capitalize()

    def given_name(self, rnd: random.Random) -> str:
        return self.invent(rnd) if rnd.random() < 0.15 else rnd.choice(self.given)

    def family_name(self, rnd: random.Random) -> str:
        return self.invent(rnd) if rnd.random() < 0.4 else rnd.choice(self.family)


def _variant(token: str, rnd: random.Random) -> str:
    return typo(token, rnd) if len(token) >= 5 else token


def synthetic_entities(count: int, pool: NamePool, seed: int) -> Iterator[Any]:
    from hakiki.engines.screening.model import ListEntity, NameEntry

    rnd = random.Random(seed)
    for k in range(count):
        countries = tuple(sorted({rnd.choice(COUNTRIES) for _ in range(rnd.choice((1, 1, 2)))}))
        if rnd.random() < 0.125:
            words = [rnd.choice(ORG_WORDS) for _ in range(rnd.choice((1, 2, 2, 3)))]
            name = " ".join([pool.family_name(rnd), *words, rnd.choice(ORG_FORMS)]).strip()
            names = [NameEntry(name)]
            if rnd.random() < 0.3:
                names.append(NameEntry(" ".join(name.split()[:-1]) or name, "alias"))
            yield ListEntity(
                f"S{k}", "synthetic", "Organization", tuple(names), ("SYN",), (), countries
            )
            continue
        given = [pool.given_name(rnd) for _ in range(rnd.choice((1, 1, 2, 2, 3)))]
        family = [pool.family_name(rnd) for _ in range(rnd.choice((1, 1, 1, 2)))]
        primary = " ".join(given + family)
        names = [NameEntry(primary, "primary", given=" ".join(given), family=" ".join(family))]
        for _ in range(rnd.choice((0, 0, 1, 1, 2, 3))):
            how = rnd.randrange(3)
            if how == 0:
                alias = " ".join(_variant(t, rnd) for t in primary.split())
            elif how == 1 and len(given) > 1:
                alias = " ".join([given[0], *family])
            else:
                alias = " ".join([*(f.upper() for f in family), *given])
            if alias != primary and all(alias != n.name for n in names):
                names.append(NameEntry(alias, rnd.choice(("alias", "alias", "weak_alias"))))
        birth = ()
        if rnd.random() < 0.75:
            year = rnd.randrange(1940, 2002)
            birth = (
                (f"{year}-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}",)
                if rnd.random() < 0.8
                else (str(year),)
            )
        gender = rnd.choice(("male", "male", "female", None))
        yield ListEntity(
            f"S{k}",
            "synthetic",
            "Person",
            tuple(names),
            ("SYN",),
            birth,
            countries,
            gender=gender,
        )


def candidate_entities(engine: Any, subject: Any) -> set[int]:
    """Positions of the entities whose names the index proposes for ``subject``."""
    if hasattr(engine, "candidate_entities"):
        return set(engine.candidate_entities(subject))
    from hakiki.engines.screening.engine import CANDIDATES
    from hakiki.engines.screening.normalize import is_org_schema, normalize_name

    query = normalize_name(subject.full_name, is_org_schema(subject.schema))
    if not query:
        return set()
    nids = engine.index.candidates(query, max(CANDIDATES, 40))
    return {engine.index.names[nid].entity for nid in nids}


_LOAD = """
import gc, json, os, sys, time
from pathlib import Path
from hakiki.lists import index_cache
import hakiki.engines.screening.engine
def memory():
    found = {}
    with open("/proc/self/smaps_rollup") as h:
        for line in h:
            parts = line.split()
            if parts[0] in ("Rss:", "Anonymous:"):
                found[parts[0][:-1]] = int(parts[1]) / 1024
    return found
gc.collect()
base = memory()
started = time.perf_counter()
engine = index_cache.read(Path(sys.argv[1]), "k" * 64, "bench master key")
took = time.perf_counter() - started
assert engine is not None
gc.collect()
now = memory()
private = now["Anonymous"] - base["Anonymous"]
print(json.dumps({"rss_mb": round(now["Rss"] - base["Rss"]), "private_mb": round(private),
                  "load_s": round(took, 2)}))
"""


def loaded_from_cache(engine: Any) -> dict[str, Any]:
    """The engine as a server gets it from the index cache (``lists/index_cache.py``: the
    file's size, and the RSS, the part of it not backed by the file (anonymous memory, which
    other processes cannot share) and
    the time of loading it in a fresh process, with no garbage from the build."""
    from hakiki.lists import index_cache

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cache" / "engine.cache"
        index_cache.write(path, "k" * 64, "bench master key", engine)
        size = path.stat().st_size / 2**20
        out = subprocess.run(
            [sys.executable, "-c", _LOAD, str(path)], check=True, capture_output=True, text=True
        ).stdout
    return {"file_mb": round(size), **json.loads(out.strip().splitlines()[-1])}


def run_one(size: int, planted: int, negatives: int, seed: int) -> dict[str, Any]:
    from hakiki.engines.screening import ListSnapshot, ScreeningEngine, Subject
    from hakiki.engines.screening.bundled import load_bundled_snapshots

    bundled = load_bundled_snapshots()
    pool = NamePool(bundled)
    gc.collect()
    base = rss_mb()
    extra = max(size - sum(len(s.entities) for s in bundled), 0)
    synthetic = tuple(synthetic_entities(extra, pool, seed))
    snapshots = [*bundled]
    if synthetic:
        snapshots.append(
            ListSnapshot("synthetic", "Synthetic list", "1", "", frozenset({"sanction"}), synthetic)
        )
    # what the planted queries need, so the generated entities can go before RSS is read
    rnd = random.Random(seed + 1)
    offset = sum(len(s.entities) for s in bundled)
    persons = [k for k, e in enumerate(synthetic) if e.schema == "Person"]
    planted_rows = [
        (
            offset + k,
            synthetic[k].entity_id,
            synthetic[k].names[0].name,
            synthetic[k].birth_dates[:1],
            synthetic[k].countries[:1],
        )
        for k in rnd.sample(persons, min(planted, len(persons)))
    ]
    del persons
    started = time.thread_time()
    engine = ScreeningEngine(snapshots)
    build = time.thread_time() - started
    del snapshots, synthetic
    gc.collect()
    gc.freeze()
    memory = rss_mb() - base
    cached = loaded_from_cache(engine)

    queries: list[tuple[str, Any, Any]] = []
    for position, entity_id, name, births, countries in planted_rows:
        subject = Subject(
            typo_name(name, rnd), birth_date=births[0] if births else None, countries=countries
        )
        queries.append(("planted", subject, (position, entity_id)))

    with UN_POSITIVES.open(encoding="utf-8", newline="") as handle:
        for k, row in enumerate(csv.DictReader(handle)):
            name = row["full_name"] if k % 2 == 0 else typo_name(row["full_name"], rnd)
            subject = Subject(name, birth_date=row["date_of_birth"] or None)
            queries.append(("un", subject, row["expected_un_reference"]))
    with gzip.open(NEGATIVES, "rt", encoding="utf-8", newline="") as handle:
        for k, row in enumerate(csv.DictReader(handle)):
            if k >= negatives:
                break
            subject = Subject(
                row["full_name"],
                birth_date=row["date_of_birth"] or None,
                countries=(row["nationality"],) if len(row["nationality"]) == 2 else (),
            )
            queries.append(("negative", subject, None))
    rnd.shuffle(queries)
    for _, subject, _ in queries[:100]:  # warm the caches a serving process would have warm
        engine.screen(subject)

    timings: list[float] = []
    walls: list[float] = []
    results = []
    cpu = time.thread_time()
    for _, subject, _ in queries:
        w0, t0 = time.perf_counter(), time.thread_time()
        results.append(engine.screen(subject))
        timings.append(time.thread_time() - t0)
        walls.append(time.perf_counter() - w0)
    elapsed = time.thread_time() - cpu

    found_candidates = found_final = planted_total = 0
    un_total = un_found = flagged = negative_total = 0
    for (kind, subject, expected), result in zip(queries, results, strict=True):
        if kind == "planted":
            planted_total += 1
            position, entity_id = expected
            found_candidates += position in candidate_entities(engine, subject)
            found_final += any(h.entity_id == entity_id for h in result.hits)
        elif kind == "un":
            un_total += 1
            un_found += any(h.entity_id == expected for h in result.hits)
        else:
            negative_total += 1
            flagged += bool(result.hits)
    ms = sorted(t * 1000 for t in timings)
    wall_ms = sorted(t * 1000 for t in walls)
    return {
        "size": size,
        "entities": engine.entity_count,
        "names": engine.name_count,
        "build_s": round(build, 2),
        "rss_mb": round(memory),
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2),
        "per_s": round(len(queries) / elapsed),
        "cache_mb": cached["file_mb"],
        "loaded_rss_mb": cached["rss_mb"],
        "loaded_private_mb": cached["private_mb"],
        "load_s": cached["load_s"],
        "wall_p50_ms": round(statistics.median(wall_ms), 2),
        "wall_p99_ms": round(wall_ms[min(len(wall_ms) - 1, int(len(wall_ms) * 0.99))], 2),
        "planted": planted_total,
        "recall_candidates": round(found_candidates / max(planted_total, 1), 4),
        "recall_final": round(found_final / max(planted_total, 1), 4),
        "un_hit": round(un_found / max(un_total, 1), 4),
        "negatives_flagged": round(flagged / max(negative_total, 1), 4),
    }


# Times are the thread's CPU time (``time.thread_time``): on a shared machine the wall clock
# measures the neighbours. The wall-clock p50/p99 are printed too.


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="15968,100000,300000")
    parser.add_argument("--planted", type=int, default=500)
    parser.add_argument("--negatives", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--cpu", type=int, default=0, help="core to pin to (Linux)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    if args.one is not None:
        print(json.dumps(run_one(args.one, args.planted, args.negatives, args.seed)))
        return
    header = (
        "| entities | names | build | engine RSS | p50 / p99 | screenings/s "
        "| planted recall (candidates / final) | UN hit | negatives flagged | wall p50 / p99 "
        "| cache file | loaded from cache: RSS (anonymous), time |"
    )
    print(header)
    print("|---" * 12 + "|")
    for size in (int(s) for s in args.sizes.split(",")):
        command = [
            sys.executable,
            __file__,
            "--one",
            str(size),
            "--planted",
            str(args.planted),
            "--negatives",
            str(args.negatives),
            "--seed",
            str(args.seed),
            "--cpu",
            str(args.cpu),
        ]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(
            f"| {r['entities']:,} | {r['names']:,} | {r['build_s']} s | {r['rss_mb']} MB "
            f"| {r['p50_ms']} / {r['p99_ms']} ms | {r['per_s']:,} "
            f"| {r['recall_candidates']:.3f} / {r['recall_final']:.3f} ({r['planted']}) "
            f"| {r['un_hit']:.3f} | {r['negatives_flagged']:.4f} "
            f"| {r['wall_p50_ms']} / {r['wall_p99_ms']} ms | {r['cache_mb']} MB "
            f"| {r['loaded_rss_mb']} MB ({r['loaded_private_mb']} MB), {r['load_s']} s |",
            flush=True,
        )


if __name__ == "__main__":
    main()
