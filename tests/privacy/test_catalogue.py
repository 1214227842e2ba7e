"""The subject-data catalogue covers the table registry: a table with encrypted, sealed or
hashed columns is declared (so subject requests and retention reach it) or listed as holding
no data subject's data, with its reason; every declared column exists."""

from __future__ import annotations

from sqlalchemy import LargeBinary

from hakiki.privacy.catalogue import BY_NAME, NOT_SUBJECT_DATA, TABLES
from hakiki.privacy.retention import CATEGORIES
from hakiki.tables import metadata


def _personal_looking(table_name: str) -> bool:
    table = metadata.tables[table_name]
    return any(
        c.name.endswith(("_encrypted", "_sealed", "_hash", "_key"))
        or (isinstance(c.type, LargeBinary) and c.name != "data")
        for c in table.columns
    )


def test_every_table_with_personal_looking_columns_is_declared() -> None:
    undeclared = [
        name
        for name in metadata.tables
        if _personal_looking(name) and name not in BY_NAME and name not in NOT_SUBJECT_DATA
    ]
    assert not undeclared, f"declare these in hakiki/privacy/catalogue.py: {undeclared}"


def test_declared_columns_exist_and_links_point_back() -> None:
    names = [spec.table for spec in TABLES]
    for spec in TABLES:
        table = metadata.tables[spec.table]
        columns = (*spec.personal, *spec.hashes, *spec.keyed, *spec.reference, *spec.scrubbed)
        assert set(columns) <= set(table.c.keys()), spec.table
        for link in spec.links:
            # A table is found through rows found before it.
            assert names.index(link.source) < names.index(spec.table), (spec.table, link)
            assert link.source_column in metadata.tables[link.source].c
        if spec.action != "delete" or spec.keep_when:
            assert spec.reason, spec.table
    for category in CATEGORIES.values():
        assert category.min_days <= category.max_days and category.reason
        assert all(name in BY_NAME for name in category.tables)
