"""Peak memory of loading a stored list version: the file decompressed whole and parsed from
bytes (how every stored version was read before issue 33's streaming) against parsed from its
gzip stream (FtM JSON lines, Senzing JSON lines, targets.simple.csv now).

A synthetic FollowTheMoney JSON lines export (the persons and organisations of
bench/screening_scale.py, each with the fields an OpenSanctions record carries: datasets,
referents, first/last seen, source URL, notes) and the same entities as targets.simple.csv are
stored as list versions (``store.save_version``), then each is loaded in a fresh process, both
ways. Reported: file sizes, entities, and per way the process's peak RSS (``VmHWM``) above
its RSS before the load, the wall and CPU time.

    uv run --frozen --group dev python bench/list_load_memory.py --entities 200000
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def ftm_line(entity: Any, k: int) -> str:
    names = [n.name for n in entity.names]
    properties: dict[str, list[str]] = {
        "name": names[:1],
        "alias": names[1:],
        "country": list(entity.countries),
        "topics": ["sanction"],
        "sourceUrl": [f"https://example.org/sanctions/notice/{k}"],
        "notes": [f"Designated under a fictional programme, notice {k}, for synthetic reasons."],
        "program": ["SYN"],
    }
    if entity.birth_dates:
        properties["birthDate"] = list(entity.birth_dates)
    record = {
        "id": f"NK-{k:08d}",
        "schema": "Person" if entity.schema == "Person" else "Company",
        "caption": names[0],
        "properties": properties,
        "datasets": ["synthetic_sanctions"],
        "referents": [f"syn-{k}", f"syn-alt-{k}"],
        "target": True,
        "first_seen": "2023-01-01T00:00:00",
        "last_seen": "2026-11-27T00:00:00",
        "last_change": "2026-11-27T00:00:00",
    }
    return json.dumps(record, ensure_ascii=False)


def targets_rows(entities: list[Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["id", "schema", "name", "aliases", "birth_date", "countries", "addresses",
         "identifiers", "sanctions", "phones", "emails", "dataset", "first_seen", "last_seen",
         "last_change"]
    )  # fmt: skip
    for k, entity in enumerate(entities):
        names = [n.name for n in entity.names]
        writer.writerow(
            [f"NK-{k:08d}", "Person" if entity.schema == "Person" else "Company", names[0],
             ";".join(names[1:]), ";".join(entity.birth_dates), ";".join(entity.countries), "",
             "", "Fictional programme", "", "", "Synthetic", "2023-01-01", "2026-11-27",
             "2026-11-27"]
        )  # fmt: skip
    return out.getvalue()


def store_versions(data_dir: Path, count: int) -> dict[str, Any]:
    from bench.screening_scale import NamePool, synthetic_entities
    from hakiki.engines.screening.bundled import load_bundled_snapshots
    from hakiki.lists import store
    from hakiki.lists.sources import ListSource, parse_source

    entities = list(synthetic_entities(count, NamePool(load_bundled_snapshots()), 33))
    sizes = {}
    for fmt, role, data in (
        ("ftm_json", "json", "\n".join(ftm_line(e, k) for k, e in enumerate(entities)).encode()),
        ("targets_simple_csv", "csv", targets_rows(entities).encode()),
    ):
        source = ListSource(
            code=f"bench_{fmt}",
            title=fmt,
            format=fmt,
            files={role: f"/srv/{role}"},
            checks=frozenset({"sanction"}),
        )
        snapshot = parse_source(source, {role: data}, fallback_version="2026-11-27")
        store.save_version(data_dir, source, {role: data}, snapshot, "2026-11-27T00:00:00Z")
        sizes[fmt] = {"file_mb": round(len(data) / 2**20, 1), "entities": len(snapshot.entities)}
    return sizes


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        import os

        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def high_water_mb() -> float:
    """The process's peak RSS (VmHWM: reset by exec, unlike ru_maxrss, which keeps the forking
    parent's)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def load_once(data_dir: Path, code: str, way: str) -> dict[str, Any]:
    """In this (fresh) process: load the stored version ``code`` one ``way``."""
    from hakiki.lists import store
    from hakiki.lists.sources import parse_source

    stored = store.current_version(data_dir, code)
    assert stored is not None
    before = rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    if way == "stream":
        snapshot = store.load_snapshot(data_dir, stored)
    else:  # the former load_snapshot: every file decompressed whole, parsed from the bytes
        folder = store.lists_root(data_dir) / code / stored.folder
        files = {
            meta["role"]: gzip.decompress((folder / meta["path"]).read_bytes())
            for meta in stored.manifest["files"]
        }
        snapshot = parse_source(
            store._source_of(stored.manifest), files, fallback_version=stored.version
        )
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = high_water_mb()
    return {
        "entities": len(snapshot.entities),
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),
        "peak_above_start_mb": round(peak - before),
        "rss_after_mb": round(rss_mb() - before),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=200_000)
    parser.add_argument("--child", nargs=3, metavar=("DATA_DIR", "CODE", "WAY"))
    options = parser.parse_args()
    if options.child:
        data_dir, code, way = options.child
        print(json.dumps(load_once(Path(data_dir), code, way)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        report: dict[str, Any] = {"entities": options.entities}
        sizes = store_versions(data_dir, options.entities)
        for fmt, size in sizes.items():
            report[fmt] = dict(size)
            for way in ("bytes", "stream"):
                command = [sys.executable, __file__, "--child", tmp, f"bench_{fmt}", way]
                output = subprocess.run(command, check=True, capture_output=True, text=True)
                report[fmt][way] = json.loads(output.stdout.strip().splitlines()[-1])
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
