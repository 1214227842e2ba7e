"""What a screening returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ListVersion:
    code: str
    title: str
    version: str
    checks: tuple[str, ...]
    licence: str | None = None  # as the operator declared it when loading the list

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "title": self.title,
            "version": self.version,
            "checks": list(self.checks),
        }
        if self.licence:
            data["licence"] = self.licence
        return data


@dataclass(frozen=True, slots=True)
class Hit:
    check: str
    list_code: str
    list_version: str
    programs: tuple[str, ...]
    entity_id: str
    entity_name: str
    entity_schema: str
    matched_name: str
    matched_name_kind: str
    score: float
    explanation: dict[str, dict[str, Any]]
    entity_fingerprint: str = ""  # changes when the list entry changes
    # pep hits: {"positions": [...], "countries": [...], "tenure_ended": bool | None}
    pep: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "check": self.check,
            "list_code": self.list_code,
            "list_version": self.list_version,
            "programs": list(self.programs),
            "entity_id": self.entity_id,
            "entity_name": self.entity_name,
            "entity_schema": self.entity_schema,
            "matched_name": self.matched_name,
            "matched_name_kind": self.matched_name_kind,
            "score": self.score,
            "explanation": {k: dict(v) for k, v in self.explanation.items()},
            "entity_fingerprint": self.entity_fingerprint,
        }
        if self.pep is not None:
            data["pep"] = self.pep
        return data


@dataclass(frozen=True, slots=True)
class ScreeningResult:
    """Hits best first, the list versions screened, and requested checks no list covers."""

    hits: list[Hit] = field(default_factory=list)
    lists: list[ListVersion] = field(default_factory=list)
    checks_without_lists: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hits": [h.to_dict() for h in self.hits],
            "lists": [v.to_dict() for v in self.lists],
            "checks_without_lists": list(self.checks_without_lists),
        }
