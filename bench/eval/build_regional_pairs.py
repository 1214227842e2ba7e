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

``african_name_pairs_ke.csv`` and ``african_name_pairs_ng.csv`` (issue 33, held out): from the
Kenyan National Assembly and the Nigerian Senate names (``data/sources/``, the first 16 kB of
EveryPolitician's ``names.csv``, person ids shortened to 8 hex digits), the natural pairs as
above, plus pairs of the name classes issue 33 lists, each made by one general rule from every
legislator whose name has the shape (the legislator's longest name, titles dropped, is the base):

* ``short_form``: a Yoruba given name ``Olu-``/``Oluwa-``/``Ola-`` + 4 letters or more written
  without the prefix (``Olugbenga`` / ``Gbenga``);
* ``dot_below``: the name in Yoruba orthography, ``sh`` written ``ṣ`` and the first ``e`` and
  ``o`` written ``ẹ`` and ``ọ`` (Nigeria);
* ``particle``: a Maa ``ole`` (Kenya) left out on one side;
* ``hyphen_half``: a hyphenated surname of which one record keeps the first half only;
* ``initial_omitted``: four parts or more, the second as an initial and the third left out;
* ``reorder_omitted``: three parts or more, surname first in capitals and the middle left out;
* ``two_shared``: four parts or more, ``A B D`` against ``A C D`` (two shared parts, a
  different extra part on each side);
* ``one_shared``: three parts or more, ``A B`` against ``A C`` (one shared part, an extra part
  on each side): no name-only rule can tell these from different people, so these rows carry a
  date of birth and a nationality (synthetic: a date drawn from the person id, the country of
  the parliament) on both records.

Hard negatives of the same shapes: the same rule applied to the second name of a natural hard
negative (two legislators sharing a name part), so each class has negatives of its shape; the
``one_shared`` negatives are natural hard negatives sharing exactly one part, with each
person's own synthetic date of birth (they differ) and the same nationality.
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
        fields = FIELDS if any("dob1" in r for r in rows) else FIELDS[:4]
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    true = sum(r["is_match"] == "true" for r in rows)
    print(f"{path.name}: {true} true, {len(rows) - true} hard negatives")


# The rest must start a Yoruba syllable: a vowel, or a consonant (gb, kp one) and a vowel
# ("Olanrewaju" keeps its n: its short form is "Lanre", not "Nrewaju").
YORUBA_PREFIX = re.compile(r"^(oluwa|olu|ola)((?:gb|kp|[^aeiou\W\d_])?[aeiou][a-z]{2,})$")


def base_names(rows: list[tuple[str, str]]) -> dict[str, str]:
    """Person id -> the longest name written for that person without a title."""
    best: dict[str, str] = {}
    for name, pid in rows:
        if "," in name:
            continue  # "NAME, CON": an honour, not a name part
        words = name.split()
        if words and words[0].rstrip(".").casefold() in {"dr", "eng", "hon", "rev", "captain"}:
            continue
        if "(" in name or not all(w.replace("-", "").replace("'", "").isalpha() for w in words):
            continue
        if pid not in best or len(words) > len(best[pid].split()):
            best[pid] = " ".join(words)
    return best


def short_form(name: str) -> str | None:
    words = name.split()
    for k, w in enumerate(words):
        found = YORUBA_PREFIX.match(fold(w))
        if found:
            rest = found.group(2)
            return " ".join(
                [*words[:k], rest.upper() if w.isupper() else rest.capitalize(), *words[k + 1 :]]
            )
    return None


def dot_below(name: str) -> str | None:
    if "sh" not in name.casefold():
        return None
    out = name.replace("SH", "Ṣ").replace("Sh", "Ṣ").replace("sh", "ṣ")
    for plain, dotted in (("e", "ẹ"), ("o", "ọ")):
        for p, d in ((plain, dotted), (plain.upper(), dotted.upper())):
            if p in out:
                out = out.replace(p, d, 1)
                break
    return out


def drop_particle(name: str) -> str | None:
    words = name.replace("-", " ").split()
    kept = [w for k, w in enumerate(words) if not (k > 0 and w.casefold() == "ole")]
    return " ".join(kept) if len(kept) < len(words) and len(kept) >= 2 else None


def hyphen_half(name: str) -> str | None:
    words = name.split()
    for k, w in enumerate(words):
        if "-" in w and k > 0 and w.split("-")[0].casefold() != "ole":
            return " ".join([*words[:k], w.split("-")[0], *words[k + 1 :]])
    return None


def initial_omitted(name: str) -> str | None:
    words = name.split()
    if len(words) < 4:
        return None
    return " ".join([words[0], words[1][0].upper() + ".", *words[3:]])


def reorder_omitted(name: str) -> str | None:
    words = name.split()
    if len(words) < 3:
        return None
    return f"{words[-1].upper()} {words[0]}"


def two_shared(name: str) -> tuple[str, str] | None:
    words = name.split()
    if len(words) < 4:
        return None
    return " ".join([words[0], words[1], *words[3:]]), " ".join([words[0], *words[2:]])


def one_shared(name: str) -> tuple[str, str] | None:
    words = name.split()
    if len(words) < 3:
        return None
    return f"{words[0]} {words[1]}", f"{words[0]} {words[-1]}"


TRANSFORMS = {
    "short_form": short_form,
    "dot_below": dot_below,
    "particle": drop_particle,
    "hyphen_half": hyphen_half,
    "initial_omitted": initial_omitted,
    "reorder_omitted": reorder_omitted,
}


def synthetic_dob(pid: str) -> str:
    value = int(pid[:8], 16)
    return f"{1950 + value % 36}-{1 + value // 36 % 12:02d}-{1 + value // 432 % 28:02d}"


def build_classes(
    rows: list[tuple[str, str]], natural: list[dict[str, str]], source: str, country: str, seed: int
) -> list[dict[str, str]]:
    """The issue-33 class pairs (module docstring) and their same-shape hard negatives."""
    bases = base_names(rows)
    id_of = {name: pid for name, pid in rows}
    out: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add(a: str, b: str, label: bool, cls: str, extra: dict[str, str] | None = None) -> None:
        if fold(a) == fold(b) or (a, b) in seen:
            return
        seen.add((a, b))
        row = {"name1": a, "name2": b, "is_match": "true" if label else "false"}
        row["source"] = f"{source}:{cls}"
        out.append(row | (extra or {}))

    transforms = {k: t for k, t in TRANSFORMS.items() if k != "dot_below" or country == "ng"}
    for pid, base in sorted(bases.items(), key=lambda item: item[1]):
        for cls, transform in transforms.items():
            written = transform(base)
            if written:
                add(base, written, True, cls)
        pair = two_shared(base)
        if pair:
            add(*pair, True, "two_shared")
        pair = one_shared(base)
        if pair:
            dob = synthetic_dob(pid)
            context = {"dob1": dob, "dob2": dob, "country1": country, "country2": country}
            add(*pair, True, "one_shared", context)
    for row in natural:
        if row["is_match"] != "false":
            continue
        a, b = row["name1"], row["name2"]
        base_a, base_b = bases.get(id_of[a], a), bases.get(id_of[b], b)
        for cls, transform in transforms.items():
            written = transform(base_b)
            if written:
                add(a, written, False, cls)
            written = transform(base_a)
            if written:
                add(written, b, False, cls)
        if len(parts(a) & parts(b)) == 1 and parts(a) - parts(b) and parts(b) - parts(a):
            context = {
                "dob1": synthetic_dob(id_of[a]),
                "dob2": synthetic_dob(id_of[b]),
                "country1": country,
                "country2": country,
            }
            add(a, b, False, "one_shared", context)
    # two_shared negatives: two legislators sharing two parts are rare in one parliament; the
    # same shape from two different people is "A B D" of one against "A C D" written from
    # another's given name and surname with their own middle names.
    by_parts = defaultdict(list)
    for pid, base in bases.items():
        words = base.split()
        if len(words) >= 3:
            by_parts[(fold(words[0]), fold(words[-1]))].append(pid)
    for pid, base in sorted(bases.items(), key=lambda item: item[1]):
        words = base.split()
        if len(words) < 3:
            continue
        for other, other_base in sorted(bases.items(), key=lambda item: item[1]):
            o = other_base.split()
            if other == pid or len(o) < 3 or fold(o[0]) != fold(words[0]):
                continue
            if fold(o[1]) == fold(words[1]) or fold(o[-1]) == fold(words[-1]):
                continue
            # same given name; the negative shares it and the middle name of the first
            add(" ".join(words), " ".join([o[0], words[1], o[-1]]), False, "two_shared")
            break
    return balance(out, seed)


def balance(rows: list[dict[str, str]], seed: int) -> list[dict[str, str]]:
    """As many true pairs as negatives in each class (a fixed-seed sample of the larger side);
    a class without negatives keeps its true pairs."""
    rng = random.Random(seed)
    kept: list[dict[str, str]] = []
    for cls in sorted({r["source"] for r in rows}):
        true = [r for r in rows if r["source"] == cls and r["is_match"] == "true"]
        false = [r for r in rows if r["source"] == cls and r["is_match"] == "false"]
        if true and false:
            n = min(len(true), len(false))
            true, false = rng.sample(true, n), rng.sample(false, n)
        kept.extend(sorted(true, key=lambda r: (r["name1"], r["name2"])))
        kept.extend(sorted(false, key=lambda r: (r["name1"], r["name2"])))
    return kept


FIELDS = ["name1", "name2", "is_match", "source", "dob1", "dob2", "country1", "country2"]


def build_country(path: Path, source: str, country: str, seed: int) -> list[dict[str, str]]:
    rows = read_names(path)
    natural = build(rows, source, seed)
    classes = build_classes(rows, natural, source, country, seed)
    id_of = {name: pid for name, pid in rows}
    kept = []
    for row in natural:
        a, b = parts(row["name1"]), parts(row["name2"])
        if row["is_match"] == "true" and len(a & b) == 1 and a - b and b - a:
            # one shared part, extras on both sides: only a date of birth can tell (the
            # natural negatives stay name-only; the one_shared class has them with dates)
            dob = synthetic_dob(id_of[row["name1"]])
            row |= {"dob1": dob, "dob2": dob, "country1": country, "country2": country}
            row["source"] += ":one_shared"
        kept.append(row)
    return kept + classes


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
    sources = DATA / "sources"
    ke = build_country(sources / "kenya_assembly_names_first16k.csv", "kenya_assembly", "ke", 33)
    write(DATA / "african_name_pairs_ke.csv", ke)
    ng = build_country(sources / "nigeria_senate_names_first16k.csv", "nigeria_senate", "ng", 34)
    write(DATA / "african_name_pairs_ng.csv", ng)


if __name__ == "__main__":
    main()
