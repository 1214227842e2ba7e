"""A data subject's rows in every declared table (``catalogue.TABLES``): found by decrypting
the organisation's personal columns and comparing them with the subject's identifiers, by the
fraud look-up keys, by the organisation's reference and through the rows already found;
exported as JSON; erased (deleted, or anonymised where a row must stay) except what a
documented reason keeps."""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, get_args

from sqlalchemy import ColumnElement, and_, or_
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.crypto import Vault
from hakiki.credit.schemas import IdType
from hakiki.engines.phone import SUPPORTED_REGIONS, analyse
from hakiki.fraud.keys import identifier_key, phone_key_of
from hakiki.identity.channels import CHANNELS
from hakiki.privacy import repository
from hakiki.privacy.catalogue import TABLES, SubjectTable
from hakiki.privacy.matching import Needles, decode, matches
from hakiki.privacy.repository import Key

ID_CHANNELS = frozenset((c.country, c.code) for c in CHANNELS)
ID_CODES = frozenset({code for _, code in ID_CHANNELS} | set(get_args(IdType)))
_NOT_ALNUM = re.compile(r"[^0-9A-Z]")


@dataclass(frozen=True)
class Subject:
    """What a subject request names: the organisation's reference and/or identifiers."""

    reference: str | None = None
    id_numbers: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    birth_date: str | None = None
    country: str | None = None

    @property
    def needles(self) -> Needles:
        return Needles.of(
            reference=self.reference,
            id_numbers=self.id_numbers,
            phones=self.phones,
            emails=self.emails,
            names=self.names,
            birth_date=self.birth_date,
        )

    def keys(self, vault: Vault) -> dict[str, set[str]]:
        """The subject's keyed hashes as the tables store them, by kind of column: the fraud
        domain's look-up keys, and the ``subject_hash`` of a call (country, channel, number)
        for every channel a number may have been checked under (a bureau report holds no
        number of its own: its hash is the only way to it)."""
        country = self.country if self.country in SUPPORTED_REGIONS else None
        phones = [analyse(p, country) for p in self.phones]
        countries = [self.country] if self.country else sorted({c for c, _ in ID_CHANNELS})
        subject = {
            vault.lookup_hash(c, code, form)
            for number in self.id_numbers
            for form in {number.strip(), number.strip().upper(), _NOT_ALNUM.sub("", number.upper())}
            for c in countries
            for code in ID_CODES
        }
        subject |= {vault.lookup_hash(a.region or "ZZ", "phone", a.e164) for a in phones if a.e164}
        return {
            "identifier": {identifier_key(vault, i) for i in self.id_numbers},
            "value": {phone_key_of(vault, a) for a in phones},
            "subject": subject,
        }


@dataclass
class Found:
    """The rows found per table, by primary key."""

    rows: dict[str, dict[Key, dict[str, Any]]] = field(default_factory=dict)

    def of(self, name: str) -> dict[Key, dict[str, Any]]:
        return self.rows.setdefault(name, {})

    def values(self, name: str, column: str) -> set[Any]:
        return {row[column] for row in self.of(name).values() if row[column] is not None}


def opened(vault: Vault, spec: SubjectTable, row: dict[str, Any]) -> dict[str, Any]:
    """The row's personal columns decrypted and decoded (JSON where they hold JSON)."""
    out: dict[str, Any] = {}
    for column in spec.encrypted:
        if row.get(column) is not None:
            out[column] = decode(vault.decrypt(str(row[column])))
    for column in spec.sealed:
        if row.get(column) is not None:
            out[column] = decode(vault.unseal(bytes(row[column])))
    for column in spec.clear:
        if row.get(column) is not None:
            value = row[column]
            out[column] = decode(value) if isinstance(value, str) else value
    return out


async def find(
    conn: AsyncConnection, vault: Vault, org_id: str, environment: str, subject: Subject
) -> Found:
    found = Found()
    needles = subject.needles
    keys = subject.keys(vault)
    for spec in TABLES:
        rows = found.of(spec.table)
        scope = repository.owned(spec, org_id, environment)
        if spec.personal:
            # Every row of the organisation is opened: most columns are encrypted, so no index
            # can say which hold the subject (a durable job; docs/privacy.md#subject-rights).
            async for batch in repository.scan(conn, spec, scope):
                for row in batch:
                    if matches(list(opened(vault, spec, row).values()), needles):
                        rows[repository.primary_key(spec, row)] = row
        where: list[ColumnElement[bool]] = []
        for column, kind in spec.keyed.items():
            if keys[kind]:
                where.append(repository.in_values(spec, column, keys[kind]))
        if subject.reference:
            where += [repository.in_values(spec, c, [subject.reference]) for c in spec.reference]
        if where:
            async for batch in repository.scan(conn, spec, and_(scope, or_(*where))):
                rows.update((repository.primary_key(spec, row), row) for row in batch)
    await follow(conn, found, org_id, environment)
    return found


async def follow(conn: AsyncConnection, found: Found, org_id: str, environment: str) -> None:
    """Add the rows found through the rows already found (a request's checks and documents,
    an alert's events, a record's webhook events and their deliveries)."""
    for spec in TABLES:
        where = [
            repository.in_values(spec, link.column, values)
            for link in spec.links
            if (values := found.values(link.source, link.source_column))
        ]
        if where:
            scope = repository.owned(spec, org_id, environment)
            rows = found.of(spec.table)
            async for batch in repository.scan(conn, spec, and_(scope, or_(*where))):
                rows.update((repository.primary_key(spec, row), row) for row in batch)


async def older(
    conn: AsyncConnection,
    roots: Sequence[SubjectTable],
    org_id: str,
    environment: str,
    cutoff: datetime,
) -> Found:
    """Retention: the rows of ``roots`` created before ``cutoff``, and those found through them."""
    found = Found()
    for spec in roots:
        where = and_(
            repository.owned(spec, org_id, environment), repository.older_than(spec, cutoff)
        )
        rows = found.of(spec.table)
        async for batch in repository.scan(conn, spec, where):
            rows.update((repository.primary_key(spec, row), row) for row in batch)
    await follow(conn, found, org_id, environment)
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return value


def export(vault: Vault, found: Found) -> dict[str, Any]:
    """Every found row, by category then table: its columns in clear (hashes left out: they
    are keyed digests, nobody's data), its personal columns decrypted."""
    categories: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for spec in TABLES:
        rows = found.of(spec.table).values()
        if not rows:
            continue
        listed = categories.setdefault(spec.category, {}).setdefault(spec.table, [])
        for row in rows:
            plain = {
                str(k): _plain(v)
                for k, v in row.items()
                if k not in spec.hashes and k not in spec.keyed and k not in spec.personal
            }
            plain.update(opened(vault, spec, row))
            listed.append(plain)
    return categories


def _kept_keys(spec: SubjectTable, rows: dict[Key, dict[str, Any]]) -> set[Key]:
    if spec.action == "keep":
        return set(rows)
    if spec.keep_when is None:
        return set()
    return {k for k, row in rows.items() if row[spec.keep_when]}


async def erase(
    conn: AsyncConnection, found: Found, *, expired: bool = False
) -> dict[str, dict[str, Any]]:
    """Delete or anonymise every found row (children first) but those a reason keeps; the
    receipt's counts per category. ``expired`` (retention): rows past their retention are
    deleted, the anonymised kind too."""
    receipt: dict[str, dict[str, Any]] = {}
    for spec in reversed(TABLES):
        rows = found.of(spec.table)
        entry = receipt.setdefault(
            spec.category, {"found": 0, "erased": 0, "anonymised": 0, "kept": 0, "reasons": []}
        )
        entry["found"] += len(rows)
        kept = _kept_keys(spec, rows)
        gone: Sequence[Key] = [k for k in rows if k not in kept]
        if kept:
            entry["kept"] += len(kept)
            if spec.reason and spec.reason not in entry["reasons"]:
                entry["reasons"].append(spec.reason)
        if not gone:
            continue
        if spec.action == "anonymise" and not expired:
            entry["anonymised"] += await repository.scrub_rows(conn, spec, gone)
            if spec.reason not in entry["reasons"]:
                entry["reasons"].append(spec.reason)
        else:
            entry["erased"] += await repository.delete_rows(conn, spec, gone)
    return receipt


__all__ = ["Found", "Subject", "erase", "export", "find", "follow", "older"]
