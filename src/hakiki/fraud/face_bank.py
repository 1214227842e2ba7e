"""The faces every process matches against: one in-memory index per environment, filled from
``face_prints`` at start-up and kept fresh by loading newer rows (other processes' prints)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.database import Database, read
from hakiki.engines.face import FaceIndex, FaceMatch
from hakiki.fraud import face_repository


@dataclass(frozen=True)
class Print:
    id: str
    org_id: str
    identifier_key: str | None
    report_id: str | None
    category: str | None
    person_key: str


class FaceBank:
    def __init__(self) -> None:
        self._indexes: dict[str, FaceIndex] = {}
        self._prints: dict[str, Print] = {}
        self._last_id = ""

    def _index(self, environment: str) -> FaceIndex:
        return self._indexes.setdefault(environment, FaceIndex())

    def add(self, environment: str, row: dict[str, Any]) -> None:  # a face_prints row
        vector = np.frombuffer(row["embedding"], dtype=np.float32)
        self._index(environment).add(row["id"], vector)
        self._prints[row["id"]] = Print(
            row["id"], row["org_id"], row["identifier_key"], row["report_id"],
            row["category"], row["person_key"],
        )  # fmt: skip
        self._last_id = max(self._last_id, row["id"])

    async def refresh(self, db: Database) -> None:
        """Load the prints written since the last refresh (by any process)."""
        async with read(db) as conn:
            rows = await face_repository.prints_after(conn, self._last_id)
        for row in rows:
            if row["id"] not in self._prints:
                self.add(row["environment"], row)

    def nearest(
        self, environment: str, vector: np.ndarray, k: int = 50
    ) -> list[tuple[Print, float]]:
        matches: list[FaceMatch] = self._index(environment).nearest(vector, k=k)
        return [(self._prints[m.id], m.distance) for m in matches]


async def insert_prints(conn: AsyncConnection, rows: list[dict[str, object]]) -> None:
    """Store new face_prints rows (one statement; nothing when there are none)."""
    await face_repository.insert_prints(conn, rows)
