"""Recording and counting what is seen with identity numbers, across organisations."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.fraud.keys import phone_key
from hakiki.fraud.tables import identity_observations as seen

_NOT_LETTER = re.compile(r"[^a-z ]")


def name_key(vault: Vault, *parts: str | None) -> str | None:
    """Names compare without case, accents' punctuation or order ("Okonkwo Musa" = "Musa
    Okonkwo"); None when no part is given."""
    tokens = sorted(_NOT_LETTER.sub(" ", " ".join(p for p in parts if p).casefold()).split())
    return vault.lookup_hash("name", " ".join(tokens)) if tokens else None


def person_values(
    vault: Vault,
    *,
    names: tuple[str | None, ...],
    birth_date: date | None,
    phones: list[str],
    country: str | None,
) -> list[tuple[str, str]]:
    """(kind, keyed value) of what a request says about the person behind a number."""
    values: list[tuple[str, str]] = []
    if (key := name_key(vault, *names)) is not None:
        values.append(("name", key))
    if birth_date is not None:
        values.append(("birth_date", vault.lookup_hash("birth_date", birth_date.isoformat())))
    values += [("phone", phone_key(vault, phone, country)) for phone in phones]
    return values


async def record(
    conn: AsyncConnection,
    environment: str,
    org_id: str,
    identifier_keys: list[str],
    values: list[tuple[str, str]],
) -> None:
    """Note that these values were seen with these numbers (once per organisation)."""
    await record_many(conn, environment, org_id, [(key, values) for key in identifier_keys])


async def record_many(
    conn: AsyncConnection,
    environment: str,
    org_id: str,
    sightings: list[tuple[str, list[tuple[str, str]]]],
) -> None:
    """``record`` for many numbers, each with its own values, in one statement."""
    now = utcnow()
    rows = [
        {
            "environment": environment,
            "identifier_key": identifier,
            "kind": kind,
            "value_key": value,
            "org_id": org_id,
            "first_seen": now,
        }
        for identifier, values in sightings
        for kind, value in values
    ]
    if not rows:
        return
    dialect: Any = postgresql if conn.dialect.name == "postgresql" else sqlite
    await conn.execute(dialect.insert(seen).on_conflict_do_nothing(), rows)


@dataclass(frozen=True)
class Seen:
    """What was seen with one number: distinct values per kind, the organisations that saw
    them, and which (kind, value) pairs this organisation has already noted."""

    distinct: dict[str, int]
    organisations: int
    noted_by_caller: frozenset[tuple[str, str]]


async def seen_with(
    conn: AsyncConnection, environment: str, identifier_key: str, org_id: str
) -> Seen:
    return (await seen_with_many(conn, environment, [identifier_key], org_id))[identifier_key]


_SEEN_WITH = select(seen.c.identifier_key, seen.c.kind, seen.c.value_key, seen.c.org_id).where(
    seen.c.environment == bindparam("environment"),
    seen.c.identifier_key.in_(bindparam("keys", expanding=True)),
)  # built once: it runs on every ID scan
# Distinct identity numbers seen with each of some values (phones), by the value index.
_NUMBERS_SEEN_WITH = (
    select(seen.c.value_key, func.count(seen.c.identifier_key.distinct()))
    .where(
        seen.c.environment == bindparam("environment"),
        seen.c.kind == bindparam("kind"),
        seen.c.value_key.in_(bindparam("values", expanding=True)),
    )
    .group_by(seen.c.value_key)
)


async def numbers_seen_with(
    conn: AsyncConnection, environment: str, kind: str, value_keys: list[str]
) -> dict[str, int]:
    """How many distinct identity numbers each value (of ``kind``) was seen with."""
    values = {"environment": environment, "kind": kind, "values": sorted(set(value_keys))}
    return {str(v): int(n) for v, n in await conn.execute(_NUMBERS_SEEN_WITH, values)}


async def seen_with_many(
    conn: AsyncConnection, environment: str, identifier_keys: list[str], org_id: str
) -> dict[str, Seen]:
    """``Seen`` for each number, in one query."""
    values = {"environment": environment, "keys": sorted(set(identifier_keys))}
    rows = (await conn.execute(_SEEN_WITH, values)).all()
    by_key: dict[str, list[Any]] = {key: [] for key in identifier_keys}
    for key, kind, value, org in rows:
        by_key[str(key)].append((str(kind), str(value), str(org)))
    return {key: _seen(found, org_id) for key, found in by_key.items()}


def _seen(rows: list[tuple[str, str, str]], org_id: str) -> Seen:
    values: dict[str, set[str]] = {}
    for kind, value, _org in rows:
        values.setdefault(kind, set()).add(value)
    return Seen(
        distinct={kind: len(found) for kind, found in values.items()},
        organisations=len({org for _kind, _value, org in rows}),
        noted_by_caller=frozenset((k, v) for k, v, org in rows if org == org_id),
    )
