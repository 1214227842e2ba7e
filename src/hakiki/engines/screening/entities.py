"""The listed entities of an engine, without a Python object per entity.

A :class:`~.model.ListEntity` with its names, dates and identifiers is a dozen Python objects,
about a kilobyte: two gigabytes for a list of a million entities, all walked by every full
garbage collection. Here each entity is one ``marshal`` record in a single byte buffer, with an
array of offsets; the few entities a screening scores are decoded when asked for (a few
microseconds each).
"""

from __future__ import annotations

import marshal
from array import array

import numpy as np
import numpy.typing as npt

from hakiki.engines.screening.model import ListEntity, NameEntry, PepPosition


def _encode(entity: ListEntity) -> bytes:
    return marshal.dumps(
        (
            entity.entity_id,
            entity.list_code,
            entity.schema,
            tuple((n.name, n.kind, n.original, n.given, n.family) for n in entity.names),
            entity.programs,
            entity.birth_dates,
            entity.countries,
            entity.identifiers,
            entity.gender,
            entity.remarks,
            tuple(
                (p.title, p.country, p.start_date, p.end_date, p.status) for p in entity.positions
            ),
        )
    )


def _decode(data: bytes) -> ListEntity:
    (entity_id, code, schema, names, programs, births, countries, ids, gender, remarks, posts) = (
        marshal.loads(data)
    )
    return ListEntity(
        entity_id,
        code,
        schema,
        tuple(NameEntry(*n) for n in names),
        programs,
        births,
        countries,
        ids,
        gender,
        remarks,
        tuple(PepPosition(*p) for p in posts),
    )


class EntityStore:
    """Append-only while the engine is built (:meth:`add`), read-only after :meth:`freeze`."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._offsets = array("q", [0])
        # an array, not bytes: pickled out of band, so a cached engine maps it from the file
        self._data: npt.NDArray[np.uint8] = np.zeros(0, dtype=np.uint8)
        self._ends: npt.NDArray[np.int64] = np.zeros(1, dtype=np.int64)

    def add(self, entity: ListEntity) -> int:
        position = len(self._offsets) - 1
        self._buffer += _encode(entity)
        self._offsets.append(len(self._buffer))
        return position

    def freeze(self) -> None:
        self._data = np.frombuffer(bytes(self._buffer), dtype=np.uint8)
        self._ends = np.frombuffer(self._offsets, dtype=np.int64).copy()
        self._buffer = bytearray()
        self._offsets = array("q")

    def __len__(self) -> int:
        return len(self._ends) - 1

    def __getitem__(self, position: int) -> ListEntity:
        if not 0 <= position < len(self):
            raise IndexError(position)
        start, end = int(self._ends[position]), int(self._ends[position + 1])
        return _decode(self._data[start:end].tobytes())

    @property
    def nbytes(self) -> int:
        return self._data.nbytes + self._ends.nbytes
