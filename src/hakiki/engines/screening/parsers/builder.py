"""Assembly shared by the list parsers: entities from collected values, snapshots from entities."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from hakiki.engines.screening.model import (
    ListEntity,
    ListSnapshot,
    NameEntry,
    PepPosition,
    Schema,
)
from hakiki.engines.screening.parsers.common import unique_names
from hakiki.engines.screening.parsers.text import unique

T = TypeVar("T")


def parse_each(
    values: Iterable[str], parse: Callable[[str], T | None]
) -> tuple[list[T], list[str]]:
    """The parsed values, and the raw values ``parse`` rejected (returned None for), in order."""
    parsed: list[T] = []
    rejected: list[str] = []
    for value in values:
        result = parse(value)
        if result is None:
            rejected.append(value)
        else:
            parsed.append(result)
    return parsed, rejected


def build_entity(
    entity_id: str,
    list_code: str,
    schema: Schema,
    names: Iterable[NameEntry],
    *,
    programs: Iterable[str] = (),
    birth_dates: Iterable[str] = (),
    countries: Iterable[str | None] = (),
    identifiers: Iterable[tuple[str, str]] = (),
    gender: str | None = None,
    remarks: str | None = None,
    positions: Iterable[PepPosition] = (),
) -> ListEntity:
    """A ListEntity whose names, programs, dates, countries and identifiers are de-duplicated.

    Empty values are dropped; everything else keeps its first-seen order (primary names first).
    """
    return ListEntity(
        entity_id=entity_id,
        list_code=list_code,
        schema=schema,
        names=unique_names(names),
        programs=unique(programs),
        birth_dates=unique(birth_dates),
        countries=unique(c for c in countries if c),
        identifiers=tuple(dict.fromkeys(identifiers)),
        gender=gender,
        remarks=remarks,
        positions=tuple(dict.fromkeys(positions)),
    )


@dataclass
class Collected:
    """The entities and warnings of one list file, gathered while it is parsed."""

    warnings: list[str] = field(default_factory=list)
    entities: list[ListEntity] = field(default_factory=list)
    _ids: set[str] = field(default_factory=set)

    def add(self, entity: ListEntity) -> bool:
        """Keep the entity unless one with its id was kept before; True when kept."""
        if entity.entity_id in self._ids:
            return False
        self._ids.add(entity.entity_id)
        self.entities.append(entity)
        return True

    def snapshot(
        self,
        *,
        code: str,
        title: str,
        version: str,
        source_url: str,
        checks: frozenset[str],
        published: str | None = None,
    ) -> ListSnapshot:
        """The parsed list: the kept entities and every warning, in order."""
        return ListSnapshot(
            code=code,
            title=title,
            version=version,
            source_url=source_url,
            checks=checks,
            entities=tuple(self.entities),
            warnings=tuple(self.warnings),
            published=published,
        )
