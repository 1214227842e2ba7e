"""EveryPolitician / Popolo JSON (``ep-popolo-v1.0.json``) to a PEP ListSnapshot.

Format (https://www.popoloproject.com/specs/, as EveryPolitician writes it): one JSON object
with ``persons`` (``id``, ``name``, ``other_names`` [{``name``}], ``given_name``,
``family_name``, ``birth_date``, ``gender``, ``identifiers`` [{``scheme``, ``identifier``}]),
``organizations`` (``id``, ``name``, ``classification``: ``legislature``, ``party``...),
``memberships`` (``person_id``, ``organization_id``, ``post_id``, ``role``, ``area_id``,
``legislative_period_id``, ``start_date``, ``end_date``), ``posts`` (``id``, ``label``),
``areas`` (``id``, ``name``) and ``events`` (legislative periods: ``id``, ``name``,
``start_date``, ``end_date``).

Every person is a Person entity; each membership of an organisation that is not a party
becomes one of the person's positions: title "<post label or role>, <organisation>
(<area>)", dates the membership's own or else its legislative period's. The positions' and
the person's country is the ``country`` the operator gives (Popolo files do not carry one).
The list's date (``published``) is the newest start date in the file (of a membership or a
legislative period): the publisher's file is at least that recent; an operator who knows
the publication date states it instead.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from hakiki.engines.screening.model import ListSnapshot, NameEntry, PepPosition
from hakiki.engines.screening.parsers.builder import Collected, build_entity, parse_each
from hakiki.engines.screening.parsers.common import parse_iso_date
from hakiki.engines.screening.parsers.text import ListFormatError, clean, decode_legacy

_NOT_POSITIONS = frozenset({"party", "parliamentary group", "faction", "coalition"})


def _objects(document: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = document.get(key)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(item: dict[str, Any], key: str) -> str | None:
    value = item.get(key)
    return clean(str(value), empty="") if value is not None else None


def _by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(item["id"]): item for item in items if item.get("id") is not None}


def parse_popolo_json(
    data: bytes,
    *,
    version: str,
    code: str,
    title: str,
    source_url: str = "",
    checks: frozenset[str] = frozenset({"pep"}),
    country: str | None = None,
) -> ListSnapshot:
    """Parse a Popolo JSON document. Raises ListFormatError when it is not one."""
    try:
        document = json.loads(decode_legacy(data))
    except json.JSONDecodeError as exc:
        raise ListFormatError(f"Popolo JSON: not valid JSON: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("persons"), list):
        raise ListFormatError("Popolo JSON: no 'persons' array (is this a Popolo file?)")
    organizations = _by_id(_objects(document, "organizations"))
    posts = _by_id(_objects(document, "posts"))
    areas = _by_id(_objects(document, "areas"))
    periods = _by_id(_objects(document, "events"))
    held: defaultdict[str, list[PepPosition]] = defaultdict(list)
    starts: list[str] = []
    for period in periods.values():
        starts.extend(d for d in [parse_iso_date(_text(period, "start_date"))] if d)
    for membership in _objects(document, "memberships"):
        position = _position(membership, organizations, posts, areas, periods, country)
        if position is not None:
            held[str(membership.get("person_id"))].append(position)
            starts.extend(d for d in [parse_iso_date(_text(membership, "start_date"))] if d)
    collected = Collected()
    for number, person in enumerate(_objects(document, "persons"), 1):
        person_id = _text(person, "id")
        name = _text(person, "name")
        if not person_id or not name:
            collected.warnings.append(f"person {number}: no id or name; skipped")
            continue
        names = [NameEntry(name, "primary", given=_text(person, "given_name"))]
        names.extend(
            NameEntry(other, "alias")
            for item in _objects(person, "other_names")
            if (other := _text(item, "name"))
        )
        births, unreadable = parse_each([_text(person, "birth_date") or ""], parse_iso_date)
        collected.warnings.extend(
            f"{person_id}: unreadable birth_date {raw!r} ignored" for raw in unreadable if raw
        )
        identifiers = [
            (scheme, value)
            for item in _objects(person, "identifiers")
            if (scheme := _text(item, "scheme")) in ("wikidata",)
            and (value := _text(item, "identifier"))
        ]
        gender = _text(person, "gender")
        entity = build_entity(
            person_id,
            code,
            "Person",
            names,
            birth_dates=births,
            countries=[country] if country else [],
            identifiers=identifiers,
            gender=gender if gender in ("male", "female") else None,
            positions=sorted(held.get(person_id, ()), key=lambda p: p.start_date or ""),
        )
        if not collected.add(entity):
            collected.warnings.append(f"person {number}: duplicate id {person_id}; skipped")
    return collected.snapshot(
        code=code,
        title=title,
        version=version,
        source_url=source_url,
        checks=checks,
        published=max(starts, default=None),
    )


def _position(
    membership: dict[str, Any],
    organizations: dict[str, dict[str, Any]],
    posts: dict[str, dict[str, Any]],
    areas: dict[str, dict[str, Any]],
    periods: dict[str, dict[str, Any]],
    country: str | None,
) -> PepPosition | None:
    organization = organizations.get(str(membership.get("organization_id")), {})
    if (_text(organization, "classification") or "").lower() in _NOT_POSITIONS:
        return None
    post = posts.get(str(membership.get("post_id")), {})
    label = _text(post, "label") or _text(membership, "role") or "member"
    title = label[:1].upper() + label[1:]
    if org_name := _text(organization, "name"):
        title += f", {org_name}"
    if area := _text(areas.get(str(membership.get("area_id")), {}), "name"):
        title += f" ({area})"
    period = periods.get(str(membership.get("legislative_period_id")), {})
    start = parse_iso_date(_text(membership, "start_date") or _text(period, "start_date"))
    end = parse_iso_date(_text(membership, "end_date") or _text(period, "end_date"))
    return PepPosition(title=title, country=country, start_date=start, end_date=end)
