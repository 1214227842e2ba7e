"""Recording and counting what is seen with identity numbers, across organisations.

What an organisation is shown never counts its own sightings, and each other organisation
weighs once and can never carry a count alone (``engines/fraud/corroboration.py``): so no
organisation can learn whether a guess matches what others saw by watching a count, nor raise
a number's risk for everyone with guesses (docs/decisions.md#fraud-cross-organisation-inference).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, transaction
from hakiki.engines.fraud.corroboration import corroborated_count
from hakiki.fraud import observations_repository as repository
from hakiki.fraud.keys import phone_key

# Values of one kind an organisation may note with one number: enough for a couple of
# spellings or phones, not a store of guesses (it weighs as one organisation anyway).
MAX_VALUES_PER_ORGANISATION = 3

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
    *,
    from_report: bool = False,
) -> None:
    """Note that these values were seen with these numbers (once per organisation); a report's
    sightings are kept with the report, the others expire (``purge_expired``)."""
    sightings = [(key, values) for key in identifier_keys]
    await record_many(conn, environment, org_id, sightings, from_report=from_report)


async def record_many(
    conn: AsyncConnection,
    environment: str,
    org_id: str,
    sightings: list[tuple[str, list[tuple[str, str]]]],
    *,
    from_report: bool = False,
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
    await repository.insert_observations(conn, rows, from_report=from_report)


async def purge_expired(db: Database, retention_days: int) -> int:
    """Delete the sightings of scans and KYC calls first seen more than ``retention_days`` ago
    (HAKIKI_FRAUD_SIGHTING_RETENTION_DAYS); a report's stay with the report."""
    async with transaction(db) as conn:
        cutoff = utcnow() - timedelta(days=retention_days)
        return await repository.purge_first_seen_before(conn, cutoff)


@dataclass(frozen=True)
class Seen:
    """What was seen with one number, for one caller: per kind, the count of values other
    organisations saw, which no single organisation carries (``corroborated_count``); how many
    other organisations saw anything; and which (kind, value) pairs the caller itself noted
    (used only to decide what to record, never counted for it)."""

    counts: dict[str, int]
    organisations: int
    noted_by_caller: frozenset[tuple[str, str]]

    def to_note(self, told: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """Of what the caller tells, what to record: values it has not noted yet, at most
        ``MAX_VALUES_PER_ORGANISATION`` of each kind in all."""
        noted = Counter(kind for kind, _value in self.noted_by_caller)
        new: list[tuple[str, str]] = []
        for kind, value in dict.fromkeys(told):
            if (kind, value) in self.noted_by_caller or noted[kind] >= MAX_VALUES_PER_ORGANISATION:
                continue
            noted[kind] += 1
            new.append((kind, value))
        return new

    def noting(self, values: Iterable[tuple[str, str]]) -> Seen:
        """The same, once the caller has noted ``values`` too (later rows of a bulk file)."""
        return replace(self, noted_by_caller=self.noted_by_caller | frozenset(values))


async def seen_with(
    conn: AsyncConnection, environment: str, identifier_key: str, org_id: str
) -> Seen:
    return (await seen_with_many(conn, environment, [identifier_key], org_id))[identifier_key]


async def numbers_seen_with(
    conn: AsyncConnection, environment: str, kind: str, value_keys: list[str], org_id: str
) -> dict[str, int]:
    """For each value (of ``kind``), the identity numbers organisations other than ``org_id``
    saw it with, counted so that no single organisation carries the count."""
    by_value: dict[str, dict[str, set[str]]] = {}
    for value, number, org in await repository.numbers_seen_with(
        conn, environment, kind, value_keys
    ):
        if org != org_id:
            by_value.setdefault(value, {}).setdefault(org, set()).add(number)
    return {value: corroborated_count(orgs) for value, orgs in by_value.items()}


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
    others: dict[str, dict[str, set[str]]] = {}  # kind -> organisation -> values
    for kind, value, org in rows:
        if org != org_id:
            others.setdefault(kind, {}).setdefault(org, set()).add(value)
    return Seen(
        counts={kind: corroborated_count(by_org) for kind, by_org in others.items()},
        organisations=len({org for _kind, _value, org in rows if org != org_id}),
        noted_by_caller=frozenset((k, v) for k, v, org in rows if org == org_id),
    )
