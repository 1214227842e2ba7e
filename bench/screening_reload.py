"""Memory of a running index across a reload (issue 33): the serving process's peak RSS while
a list update is swapped in, and the build child's.

Uses the lists stored in ``--data-dir`` (for example a 1M-entity FollowTheMoney file put there
with ``hakiki lists load``). The process loads the engine as a server does at start
(``load_current_engine(freeze=True, build_elsewhere=True)``: built in a child process that
writes the index cache, then read from the cache), screens a few names, then the index cache
is removed (what a list update does to the cache key: the next load must build) and the
engine is reloaded the way ``lists.service.reload`` does it, the old engine held until the
new one is swapped in. The peak RSS (``VmHWM``) of the serving process is reset before the
reload (``/proc/self/clear_refs``), so the peak reported is the reload's own.

    HAKIKI_DATA_DIR=/tmp/data uv run --frozen python bench/screening_reload.py
"""

from __future__ import annotations

import gc
import json
import resource
import time
from pathlib import Path


def _status() -> dict[str, float]:
    found: dict[str, float] = {}
    with Path("/proc/self/status").open() as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                found[key] = round(int(value.split()[0]) / 1024)
    return found


def _children_peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)


def main() -> None:
    from hakiki.core.settings import get_settings
    from hakiki.engines.screening import Subject
    from hakiki.lists import index_cache
    from hakiki.lists.loading import load_current_engine

    settings = get_settings()
    out: dict[str, object] = {"before": _status()}
    started = time.perf_counter()
    engine = load_current_engine(settings, freeze=True, build_elsewhere=True)
    out["start_s"] = round(time.perf_counter() - started, 1)
    out["entities"] = engine.entity_count
    out["after_start"] = _status()
    out["build_child_peak_mb"] = _children_peak_mb()
    for name in ("Ali Hassan Musa", "Grace Wanjiru Kamau", "Joseph Kony"):
        engine.screen(Subject(name))
    out["serving"] = _status()

    index_cache.cache_path(settings.data_dir).unlink()
    Path("/proc/self/clear_refs").write_text("5")  # the peak RSS starts again from now
    started = time.perf_counter()
    new = load_current_engine(settings, build_elsewhere=True)
    out["during_reload_peak"] = _status()["VmHWM"]
    engine = new  # the swap: one assignment, the old engine is freed
    del new
    gc.collect()
    out["reload_s"] = round(time.perf_counter() - started, 1)
    out["after_reload"] = _status()
    out["build_child_peak_mb_max"] = _children_peak_mb()
    engine.screen(Subject("Ali Hassan Musa"))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
