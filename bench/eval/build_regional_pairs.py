"""Build the regional name-pair sets of bench/eval/data/ from EveryPolitician legislators' names.

    python3 bench/eval/build_regional_pairs.py [--shared /work/shared/data]

The same construction as ``african_name_pairs_tz.csv`` (the Tanzanian set):

* **true pairs**: two different spellings of one legislator's name, as different records write
  it (names linked by an EveryPolitician person id; a name written identically under two ids
  joins them, as the same name in two parliamentary terms);
* **hard negatives**: names of two different legislators that share a name part (casefolded,
  accents dropped, 3+ letters), sampled with a fixed seed, as many as the true pairs.

``african_name_pairs_ug.csv``: from ``uganda_parliament`` (not used before by the project).

``african_name_pairs_records.csv``: "as official records write it" — every true pair and hard
negative of the Ugandan and Tanzanian sets again, with ``name2`` rewritten by a record style
drawn with a fixed seed: a title or rank in front (Dr., Eng., Hon., Prof., Col (Rtd), Maj Gen
(rtd), Alhaji, Chief, Sen.), a Nigerian national honour after the name (CON, OFR, GCON, MON),
surname first in capitals (``SURNAME Given Middle``), or the middle names as initials. A style
alone never changes the label, so the negatives test that a stripped title or a reordering
does not create a match. The styles are the failure classes of issue 12; the names are real.
Deterministic: the same inputs give the same files.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import random
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SOURCE = "lists/everypolitician/{}/names_partial_first16k.csv"

TITLES = ("Dr.", "Eng.", "Hon.", "Prof.", "Col (Rtd)", "Maj Gen (rtd)", "Alhaji", "Chief", "Sen.")
HONOURS = ("CON", "OFR", "GCON", "MON")
STYLES = ("title", "honour", "surname_first", "initials", "title+surname_first")


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def parts(name: str) -> set[str]:
    return {p for p in re.split(r"[^a-z]+", fold(name)) if len(p) >= 3}


def read_names(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [(r["name"].strip(), r["id"].strip()) for r in csv.DictReader(handle)]


def clusters(rows: list[tuple[str, str]]) -> list[list[str]]:
    """Names of one legislator: connected through shared ids or identical names."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for name, pid in rows:
        a, b = find("n:" + name), find("i:" + pid)
        if a != b:
            parent[a] = b
    groups: dict[str, set[str]] = defaultdict(set)
    for name, _ in rows:
        groups[find("n:" + name)].add(name)
    return [sorted(g) for g in sorted(groups.values(), key=lambda g: sorted(g)[0])]


def build(rows: list[tuple[str, str]], source: str, seed: int) -> list[dict[str, str]]:
    groups = clusters(rows)
    true_pairs = [
        (a, b) for g in groups for a, b in itertools.combinations(g, 2) if fold(a) != fold(b)
    ]
    negatives = []
    for g, h in itertools.combinations(groups, 2):
        for a in g:
            for b in h:
                if parts(a) & parts(b):
                    negatives.append((a, b))
    rng = random.Random(seed)
    negatives = sorted(rng.sample(negatives, min(len(true_pairs), len(negatives))))
    out = [{"name1": a, "name2": b, "is_match": "true", "source": source} for a, b in true_pairs]
    out += [{"name1": a, "name2": b, "is_match": "false", "source": source} for a, b in negatives]
    return out


def restyle(name: str, style: str, rng: random.Random) -> str:
    words = name.split()
    if style == "title":
        return f"{rng.choice(TITLES)} {name}"
    if style == "honour":
        return f"{name} {rng.choice(HONOURS)}"
    if style == "surname_first":
        return " ".join([words[-1].upper(), *words[:-1]]) if len(words) > 1 else name.upper()
    if style == "initials":
        if len(words) < 3:
            return f"{words[0][0]}. {' '.join(words[1:])}" if len(words) == 2 else name
        return " ".join([words[0], *(w[0] + "." for w in words[1:-1]), words[-1]])
    if style == "title+surname_first":
        return f"{rng.choice(TITLES)} {restyle(name, 'surname_first', rng)}"
    raise ValueError(style)


def records_style(rows: list[dict[str, str]], seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    out = []
    for row in rows:
        style = rng.choice(STYLES)
        out.append(
            {
                "name1": row["name1"],
                "name2": restyle(row["name2"], style, rng),
                "is_match": row["is_match"],
                "source": f"{row['source']}:{style}",
            }
        )
    return out


def write(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["name1", "name2", "is_match", "source"])
        writer.writeheader()
        writer.writerows(rows)
    true = sum(r["is_match"] == "true" for r in rows)
    print(f"{path.name}: {true} true, {len(rows) - true} hard negatives")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=Path("/work/shared/data"))
    args = parser.parse_args()
    ug_names = read_names(args.shared / SOURCE.format("uganda_parliament"))
    ug = build(ug_names, "uganda_parliament", 12)
    write(DATA / "african_name_pairs_ug.csv", ug)
    with (DATA / "african_name_pairs_tz.csv").open(encoding="utf-8", newline="") as handle:
        tz = list(csv.DictReader(handle))
    write(DATA / "african_name_pairs_records.csv", records_style(ug + tz, 1212))


if __name__ == "__main__":
    main()
