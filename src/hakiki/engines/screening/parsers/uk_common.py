"""What the two UK CSV layouts (OFSI ConList, FCDO UK Sanctions List) share: one draft entity
per group of rows, country lists in free text, and the final one-primary-name entity."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListEntity, NameEntry, NameKind, Schema
from hakiki.engines.screening.parsers.builder import Collected, build_entity

SCHEMAS: dict[str, Schema] = {
    "individual": "Person",
    "entity": "Organization",
    "ship": "Vessel",
}
# "(1) Russia (2) Ukraine", "a) ... b) ...", "Russia; Ukraine", one per line.
_LIST_SPLIT = re.compile(r"\(?\b\d{1,2}\)|\(?\b[a-h]\)|;|\n")
IMO = re.compile(r"\bIMO:?\s*(\d{7})\b")


@dataclass
class Draft:
    entity_id: str
    schema: Schema
    names: list[NameEntry] = field(default_factory=list)
    programs: list[str] = field(default_factory=list)
    birth_dates: list[str] = field(default_factory=list)
    countries: list[str] = field(default_factory=list)
    identifiers: list[tuple[str, str]] = field(default_factory=list)
    gender: str | None = None
    remarks: str | None = None


def split_list(text: str | None) -> list[str]:
    """The items of a numbered or semicolon-separated list, stripped."""
    if not text:
        return []
    parts = (part.strip(" ,.-()") for part in _LIST_SPLIT.split(text))
    return [part for part in parts if part]


def countries(text: str | None) -> list[str]:
    """Country codes for the country names in a free-text list; unknown names are dropped."""
    found: list[str] = []
    for part in split_list(text):
        country = to_country_code(part) or to_country_code(re.sub(r"\s*\(.*$", "", part))
        if country:
            found.append(country)
    return found


def uk_name(
    given: str | None, family: str | None, kind: NameKind, schema: Schema
) -> NameEntry | None:
    """A name from Name 1..5 (given) and Name 6 (family; the whole name for non-persons)."""
    if schema != "Person":
        text = " ".join(p for p in (given, family) if p)
        return NameEntry(text, kind) if text else None
    if family and given:
        return NameEntry(
            f"{given} {family}", kind, original=f"{family}, {given}", given=given, family=family
        )
    single = family or given
    return NameEntry(single, kind) if single else None


def finish(draft: Draft, code: str) -> ListEntity:
    """The entity with exactly one primary name: the first marked primary, else the first."""
    main = next((n for n in draft.names if n.kind == "primary"), draft.names[0])
    names = [NameEntry(main.name, "primary", main.original, main.given, main.family)]
    for entry in draft.names:
        if entry.kind == "primary":
            entry = NameEntry(entry.name, "alias", entry.original, entry.given, entry.family)
        names.append(entry)
    return build_entity(
        draft.entity_id,
        code,
        draft.schema,
        names,
        programs=draft.programs,
        birth_dates=draft.birth_dates,
        countries=draft.countries,
        identifiers=draft.identifiers,
        gender=draft.gender if draft.schema == "Person" else None,
        remarks=draft.remarks,
    )


def header_row(rows: list[list[str]], required: tuple[str, ...], search: int = 5) -> int | None:
    """The index of the first of the first ``search`` rows holding every required column."""
    for index, row in enumerate(rows[:search]):
        cells = {c.strip() for c in row}
        if all(name in cells for name in required):
            return index
    return None


def records(rows: list[list[str]], header_at: int) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, {column: cell}) for each non-blank row after the header."""
    header = [c.strip() for c in rows[header_at]]
    for line_no, row in enumerate(rows[header_at + 1 :], header_at + 2):
        if not any(cell.strip() for cell in row):
            continue
        # Some exports carry a leading unnamed index column in the header only.
        offset = len(header) - len(row) if header[0] == "" and len(row) < len(header) else 0
        yield (
            line_no,
            {name: row[i - offset] for i, name in enumerate(header) if 0 <= i - offset < len(row)},
        )


def finish_all(drafts: dict[str, Draft], code: str, label: str, collected: Collected) -> None:
    """Add every draft with a name to ``collected``; warn about the others."""
    for draft in drafts.values():
        if draft.names:
            collected.add(finish(draft, code))
        else:
            collected.warnings.append(f"{label} {draft.entity_id}: no usable name; skipped")
