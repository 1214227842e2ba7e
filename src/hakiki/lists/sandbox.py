"""The sandbox's own watchlists: fictional entries whose names are documented test values.

Sandbox name screening runs the real matcher against these lists instead of the official ones,
so integrators get deterministic hits (and can see fuzzy matching at work: "Sandbx Sanction
Persn" still hits) without screening real people.
"""

from __future__ import annotations

from hakiki.engines.screening.model import (
    ListEntity,
    ListSnapshot,
    NameEntry,
    PepPosition,
    Schema,
)

VERSION = "sandbox"


# (list code, title, check, entries as (id, schema, name, birth date, country)).
_LISTS: tuple[tuple[str, str, str, tuple[tuple[str, Schema, str, str | None, str], ...]], ...] = (
    (
        "sandbox_sanction",
        "Sandbox sanctions list",
        "sanction",
        (
            ("sbx-s-1", "Person", "Sandbox Sanction Person", "1970-01-01", "ng"),
            ("sbx-s-2", "Organization", "Sandbox Sanction Trading Limited", None, "ke"),
            ("sbx-s-3", "Person", "Sandbox Every List", "1975-05-05", "tz"),
            # removed by the sandbox list update (screening/monitoring_sandbox.py)
            ("sbx-s-4", "Person", "Sandbox Delisted Person", "1960-10-10", "ug"),
        ),
    ),
    (
        "sandbox_pep",
        "Sandbox PEP list",
        "pep",
        (
            ("sbx-p-1", "Person", "Sandbox Politically Exposed", "1965-06-15", "ke"),
            ("sbx-p-3", "Person", "Sandbox Every List", "1975-05-05", "tz"),
        ),
    ),
    (
        "sandbox_adverse_media",
        "Sandbox adverse-media source",
        "adverse_media",
        (
            ("sbx-a-1", "Person", "Sandbox Adverse Media", "1980-03-03", "ug"),
            ("sbx-a-3", "Person", "Sandbox Every List", "1975-05-05", "tz"),
        ),
    ),
)

# The fictional offices of the sandbox PEPs: one still held, one ended (hits show both).
_POSITIONS: dict[str, tuple[PepPosition, ...]] = {
    "sbx-p-1": (
        PepPosition("Sandbox Minister of Test Affairs", "ke", "2022-09-27", None, "current"),
    ),
    "sbx-p-3": (PepPosition("Sandbox Member of Parliament", "tz", "2010-11-18", "2015-11-17"),),
}

TEST_NAMES = {
    "Sandbox Sanction Person": "a sanctions hit (person)",
    "Sandbox Sanction Trading Limited": "a sanctions hit (business)",
    "Sandbox Politically Exposed": "a PEP hit",
    "Sandbox Adverse Media": "an adverse-media hit",
    "Sandbox Every List": "a hit on every list",
    "Sandbox Delisted Person": "a sanctions hit that the sandbox list update removes",
}


def sandbox_snapshots() -> list[ListSnapshot]:
    return [
        ListSnapshot(
            code=code,
            title=title,
            version=VERSION,
            source_url="builtin:sandbox",
            checks=frozenset({check}),
            entities=tuple(
                ListEntity(
                    entity_id=entity_id,
                    list_code=code,
                    schema=schema,
                    names=(NameEntry(name),),
                    programs=("SANDBOX",),
                    birth_dates=(born,) if born else (),
                    countries=(country,),
                    positions=_POSITIONS.get(entity_id, ()),
                )
                for entity_id, schema, name, born, country in entries
            ),
        )
        for code, title, check, entries in _LISTS
    ]
