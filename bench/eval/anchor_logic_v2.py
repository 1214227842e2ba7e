"""Score name pairs with nomenklatura's logic-v2 (OpenSanctions) as an evaluation anchor.

Runs INSIDE bench/eval/.venv-anchor (made by bench/eval/setup_anchor.sh), never in the project
environment. bench/eval/run.py --anchor calls it; by hand:

    bench/eval/.venv-anchor/bin/python bench/eval/anchor_logic_v2.py [--offline] [request.json]

Input (stdin or a file), JSON: ``{"repeats": 3, "sets": {"name": [{"schema": "Person",
"name1": "...", "name2": "..."}, ...]}}``. Output (stdout), JSON: per set the logic-v2 score
of each pair (``name1`` is the query entity, ``name2`` the candidate) and µs per pair, cold
(first pass) and warm (best of ``repeats`` further passes); and the score of nomenklatura's
name-based matcher (``NameMatcher``, "name-based") for the same pairs (``name_based_scores``).

Each side becomes a one-name FollowTheMoney entity of the pair's schema and the pair is scored
with ``LogicV2.compare(query, candidate, config)`` using the matcher's default configuration.
``--offline`` makes any socket use fail, to prove the anchor needs no network at run time.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from importlib.metadata import version
from typing import Any


def forbid_network() -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the logic-v2 anchor tried to use the network")

    socket.socket.connect = refuse  # type: ignore[method-assign,assignment]
    socket.create_connection = refuse  # type: ignore[assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("request", nargs="?", help="JSON request file (default: stdin)")
    parser.add_argument("--offline", action="store_true", help="fail on any network use")
    args = parser.parse_args()
    if args.offline:
        forbid_network()

    from followthemoney import model
    from nomenklatura.matching import LogicV2, NameMatcher

    if args.request:
        with open(args.request, encoding="utf-8") as handle:
            request = json.load(handle)
    else:
        request = json.load(sys.stdin)
    repeats = int(request.get("repeats", 3))
    config = LogicV2.default_config()

    def entity(eid: str, schema: str, name: str, dob: str = "", country: str = "") -> Any:
        proxy = model.make_entity(schema)
        proxy.id = eid
        proxy.add("name", name)
        if dob:
            proxy.add("birthDate", dob)
        if country:
            proxy.add("nationality", country)
        return proxy

    out: dict[str, Any] = {
        "nomenklatura": version("nomenklatura"),
        "followthemoney": version("followthemoney"),
        "matcher": LogicV2.NAME,
        "second_matcher": NameMatcher.NAME,
        "sets": {},
    }
    for set_name, pairs in request["sets"].items():
        entities = [
            (
                entity(f"q{i}", p["schema"], p["name1"], p.get("dob1", ""), p.get("country1", "")),
                entity(f"c{i}", p["schema"], p["name2"], p.get("dob2", ""), p.get("country2", "")),
            )
            for i, p in enumerate(pairs)
        ]
        warm_up = (entity("w1", "Company", "Warm Up"), entity("w2", "Company", "Warm-Up Ltd"))
        LogicV2.compare(*warm_up, config)  # load data files before timing
        t0 = time.perf_counter()
        scores = [LogicV2.compare(q, c, config).score for q, c in entities]
        cold = (time.perf_counter() - t0) / len(entities) * 1e6
        warm = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            for q, c in entities:
                LogicV2.compare(q, c, config)
            warm.append((time.perf_counter() - t0) / len(entities) * 1e6)
        name_config = NameMatcher.default_config()
        name_based = [NameMatcher.compare(q, c, name_config).score for q, c in entities]
        out["sets"][set_name] = {
            "scores": [float(s) for s in scores],
            "name_based_scores": [float(s) for s in name_based],
            "timing": {
                "us_per_pair_cold": round(cold, 2),
                "us_per_pair_warm": round(min(warm), 2),
            },
        }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
