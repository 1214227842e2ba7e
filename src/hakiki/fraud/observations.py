"""Recording and counting what is seen with identity numbers, across organisations."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.fraud import observations_repository as repository
from hakiki.fraud.keys import phone_key

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
    await repository.insert_observations(conn, rows)


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


async def numbers_seen_with(
    conn: AsyncConnection, environment: str, kind: str, value_keys: list[str]
) -> dict[str, int]:
    """How many distinct identity numbers each value (of ``kind``) was seen with."""
    return await repository.count_numbers_seen_with(conn, environment, kind, value_keys)


async def seen_with_many(
    conn: AsyncConnection, environment: str, identifier_keys: list[str], org_id: str
) -> dict[str, Seen]:
    """``Seen`` for each number, in one query."""
    rows = await repository.observations_of(conn, environment, identifier_keys)
    by_key: dict[str, list[tuple[str, str, str]]] = {key: [] for key in identifier_keys}
    for key, kind, value, org in rows:
        by_key[key].append((kind, value, org))
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
