"""A data subject's rows inside a stored file of many subjects: a bulk scan's uploaded file
(``bulk_scans.input_encrypted``: the rows as JSON, compressed and sealed). The file is not the
subject's row: it stays, and erasure replaces each of the subject's rows by a placeholder
(``{"row": n, "erased": true}``: a running scan walks the rows by position, and records such
a row as an error ``erased``, never screening it), then reseals it in the erasure's
transaction (docs/privacy.md#subject-rights)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.crypto import Vault
from hakiki.fraud.bulk import repository as bulk
from hakiki.fraud.bulk.runner import decode_rows, encode_rows, erased
from hakiki.privacy.matching import Needles, matches

CATEGORY = "fraud"  # the category of the scans' results (catalogue: bulk_scan_results)


@dataclass
class FileRows:
    """One file holding the subject: its rows, and the positions of the subject's."""

    bulk_id: str
    file_name: str
    rows: list[dict[str, Any]]
    positions: list[int]


async def find(
    conn: AsyncConnection, vault: Vault, org_id: str, environment: str, needles: Needles
) -> list[FileRows]:
    """The organisation's files that hold rows about the subject (only those are kept open)."""
    found: list[FileRows] = []
    async for scan in bulk.owned_inputs(conn, org_id, environment):
        rows = decode_rows(vault, scan["input_encrypted"])
        positions = [
            i
            for i, row in enumerate(rows)
            if not erased(row) and matches(list(row.values()), needles)
        ]
        if positions:
            found.append(FileRows(scan["id"], scan["file_name"], rows, positions))
    return found


def export(files: list[FileRows]) -> list[dict[str, Any]]:
    """The subject's rows, each with the file it is in."""
    return [
        {"bulk_id": f.bulk_id, "file_name": f.file_name, **f.rows[i]}
        for f in files
        for i in f.positions
    ]


def placeholder(row: dict[str, Any]) -> dict[str, Any]:
    return {"row": row.get("row"), "erased": True}


async def erase(conn: AsyncConnection, vault: Vault, files: list[FileRows]) -> dict[str, int]:
    """Each file rewritten without the subject's rows (the others as they were)."""
    removed = 0
    for f in files:
        rows = list(f.rows)
        for i in f.positions:
            rows[i] = placeholder(rows[i])
        await bulk.rewrite_input(conn, f.bulk_id, encode_rows(vault, rows))
        removed += len(f.positions)
    return {"files_rewritten": len(files), "file_rows_removed": removed}


__all__ = ["CATEGORY", "FileRows", "erase", "export", "find", "placeholder"]
