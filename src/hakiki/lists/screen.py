"""``hakiki screen``: one record or JSON lines screened with the engine the API uses, and
``--compare``: two records scored against each other with the engine's scorer."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, cast

from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.index import normalize_identifier
from hakiki.engines.screening.model import SCHEMAS, ListEntity, NameEntry, Schema
from hakiki.engines.screening.normalize import is_org_schema, normalize_name
from hakiki.engines.screening.scorer import score_entity, score_names_symmetric
from hakiki.engines.screening.subject import Subject
from hakiki.lists.outcomes import ListDates, check_outcomes, missing_reason, overall_status

FIELDS = {"name", "schema", "birth_date", "country", "countries", "identifiers", "gender"}


class InputError(ValueError):
    """A record that cannot be screened."""


def subject_from(record: Any, default_schema: str = "Person") -> Subject:
    """A :class:`Subject` from ``{"name", "schema", "birth_date", "country", "identifiers"}``."""
    if not isinstance(record, dict):
        raise InputError("expected a JSON object")
    unknown = set(record) - FIELDS
    if unknown:
        raise InputError(f"unknown fields: {', '.join(sorted(unknown))}")
    name = record.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("'name' must be a non-empty string")
    schema = record.get("schema") or default_schema
    if schema not in SCHEMAS:
        raise InputError(f"'schema' must be one of {', '.join(SCHEMAS)}")
    birth_date = record.get("birth_date")
    if isinstance(birth_date, int) and not isinstance(birth_date, bool):
        birth_date = str(birth_date)
    if birth_date is not None and not isinstance(birth_date, str):
        raise InputError("'birth_date' must be a string such as 1969 or 1969-05-01")
    gender = record.get("gender")
    if gender is not None and not isinstance(gender, str):
        raise InputError("'gender' must be a string")
    return Subject(
        name=name,
        schema=cast(Schema, schema),
        birth_date=birth_date or None,
        countries=_strings(record, "country") + _strings(record, "countries"),
        identifiers=_strings(record, "identifiers"),
        gender=gender,
    )


def _strings(record: dict[str, Any], key: str) -> tuple[str, ...]:
    value = record.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,) if value.strip() else ()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v for v in value if v.strip())
    raise InputError(f"'{key}' must be a string or a list of strings")


def screen_record(
    engine: ScreeningEngine,
    record: Any,
    *,
    checks: Collection[str],
    threshold: float,
    limit: int = 10,
    dates: ListDates | None = None,
) -> dict[str, Any]:
    """The engine's result, and (with ``dates``) the honest outcome the API gives: ``status``
    (CLEAR only when every check ran), per check ``outcomes``, each list dated."""
    result = engine.screen(subject_from(record), checks=checks, threshold=threshold, limit=limit)
    out = {"input": record, **result.to_dict()}
    if dates is None:
        return out
    wanted = list(dict.fromkeys([checks] if isinstance(checks, str) else checks))
    lists = [dates.dated(lv) for lv in result.lists]
    gaps = {c: missing_reason(c) for c in result.checks_without_lists}
    gaps.update(dates.stale_gaps((c for c in wanted if c not in gaps), lists))
    outcomes = check_outcomes(
        wanted, (h.check for h in result.hits), gaps, ((lst.code, lst.checks) for lst in lists)
    )
    out["status"] = overall_status(outcomes)
    out["outcomes"] = [o.to_dict() for o in outcomes]
    out["lists"] = [lst.to_dict() for lst in lists]
    return out


def describe_result(out: dict[str, Any]) -> str:
    """A screened record's ``screen_record`` output as lines of text (``--format text``)."""
    if "error" in out:
        return f"line {out['line']}: error: {out['error']}"
    name = out["input"].get("name") if isinstance(out.get("input"), dict) else None
    lines = [f"{name}: {out.get('status', '')}"]
    for outcome in out.get("outcomes", []):
        why = f" ({outcome['reason']})" if outcome["reason"] else ""
        lines.append(f"  {outcome['check']}: {outcome['outcome'].replace('_', ' ')}{why}")
    for hit in out["hits"]:
        lines.append(
            f"  hit {hit['score']:.2f} {hit['entity_name']} [{hit['list_code']} {hit['entity_id']}]"
        )
    for lst in out["lists"]:
        age = f", {lst['age_days']} days old" if lst.get("age_days") is not None else ""
        stale = ", STALE" if lst.get("stale") else ""
        published = lst.get("published") or "date unknown"
        lines.append(f"  list {lst['code']}: published {published}{age}{stale}")
    return "\n".join(lines)


def compare_pair(pair: Any, *, threshold: float) -> dict[str, Any]:
    """Score two records against each other with the engine's scorer, ``b`` in the place of the
    listed entry; the name score is symmetric (``score(a, b) == score(b, a)``)."""
    if not isinstance(pair, dict) or set(pair) != {"a", "b"}:
        raise InputError('expected {"a": {...}, "b": {...}}')
    a = subject_from(pair["a"])
    b = subject_from(pair["b"], default_schema=a.schema)
    is_org = is_org_schema(a.schema)
    name = score_names_symmetric(
        normalize_name(a.full_name, is_org), normalize_name(b.full_name, is_org), "primary"
    )
    listed = ListEntity(
        entity_id="b",
        list_code="compare",
        schema=b.schema,
        names=(NameEntry(b.full_name),),
        birth_dates=(b.birth_date,) if b.birth_date else (),
        countries=b.country_codes,
        identifiers=tuple(("identifier", value) for value in b.identifiers),
        gender=b.normalized_gender,
    )
    wanted = {normalize_identifier(value) for value in a.identifiers}
    matches = [(t, v) for t, v in listed.identifiers if normalize_identifier(v) in wanted]
    score, explanation = score_entity(
        name,
        listed,
        birth_date=a.birth_date,
        countries=a.country_codes,
        gender=a.normalized_gender,
        identifier_matches=matches,
    )
    return {
        "a": pair["a"],
        "b": pair["b"],
        "score": score,
        "name_score": round(name.score, 4),
        "decision": "match" if score >= threshold else "no_match",
        "threshold": threshold,
        "explanation": explanation,
    }


def process_lines(
    lines: Iterable[str], handle: Callable[[Any], dict[str, Any]]
) -> Iterator[dict[str, Any]]:
    """One output per non-blank input line; a bad line yields ``{"line": n, "error": ...}``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield handle(json.loads(line))
        except json.JSONDecodeError as exc:
            yield {"line": number, "error": f"invalid JSON: {exc.msg}"}
        except (InputError, ValueError) as exc:
            yield {"line": number, "error": str(exc)}
