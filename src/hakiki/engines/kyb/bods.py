"""Beneficial Ownership Data Standard 0.4 statements (Open Ownership) for one company's ownership:
an entity statement for the company, a person or entity statement for each party (once, however
many roles it has), then one relationship statement per interest holder, in the order BODS asks
for (a record's statement before any relationship that names it).

Field names follow the 0.4 schema (schema/statement.json, entity-record.json,
person-record.json, relationship-record.json of openownership/data-standard): ``statementId``,
``declarationSubject``, ``recordId``, ``recordType``, ``recordDetails``, ``statementDate``,
``publicationDetails``, ``source``; interests with ``type``, ``directOrIndirect``,
``beneficialOwnershipOrControl`` and ``share.exact``.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from hakiki.engines.kyb.model import Company, Ownership, Party

BODS_VERSION = "0.4"
PUBLISHER = {"name": "Hakiki"}


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def party_key(party: Party) -> str:
    """One key per party however many roles it has: its kind and its name, case-folded."""
    plain = unicodedata.normalize("NFKD", party.name).casefold()
    return party.kind + ":" + " ".join(plain.split())


class _Builder:
    def __init__(self, company: Company, statement_date: str, source: dict[str, Any]) -> None:
        self.company = company
        self.date = statement_date
        self.source = source
        self.subject = f"{company.country}-{company.number}"
        self.statements: list[dict[str, Any]] = []
        self.interests: dict[str, list[dict[str, Any]]] = {}  # by interested party's record
        self.records: dict[str, str] = {}

    def statement(
        self, record_id: str, record_type: str, details: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "statementId": _digest("hakiki-bods", self.subject, record_id, self.date),
            "statementDate": self.date,
            "publicationDetails": {
                "publicationDate": self.date,
                "bodsVersion": BODS_VERSION,
                "publisher": PUBLISHER,
            },
            "source": self.source,
            "declarationSubject": self.subject,
            "recordId": record_id,
            "recordType": record_type,
            "recordStatus": "new",
            "recordDetails": details,
        }

    def company_statement(self) -> None:
        company = self.company
        details: dict[str, Any] = {
            "isComponent": False,
            "entityType": {"type": "registeredEntity"},
            "name": company.name,
            "jurisdiction": {"code": company.country},
            "identifiers": [
                {"id": company.number, "schemeName": f"{company.country} company register"},
                *({"id": value, "scheme": scheme} for scheme, value in company.identifiers),
            ],
        }
        if company.entity_type:
            details["entityType"]["details"] = company.entity_type
        if company.registration_date:
            details["foundingDate"] = company.registration_date
        if company.dissolution_date:
            details["dissolutionDate"] = company.dissolution_date
        if company.address is not None:
            details["addresses"] = [_address(company.address.text, company.address.country)]
        self.statements.append(self.statement(self.subject, "entity", details))

    def party(self, party: Party) -> str:
        key = party_key(party)
        if key in self.records:
            return self.records[key]
        record_id = f"{self.subject}/{party.kind}/{_digest(key)[:16]}"
        self.records[key] = record_id
        if party.kind == "person":
            details: dict[str, Any] = {
                "isComponent": False,
                "personType": "knownPerson",
                "names": [{"type": "legal", "fullName": party.name}],
            }
            if party.nationality:
                details["nationalities"] = [{"code": party.nationality}]
            if party.birth_date:
                details["birthDate"] = party.birth_date
            self.statements.append(self.statement(record_id, "person", details))
        else:
            details = {
                "isComponent": False,
                "entityType": {"type": "registeredEntity"},
                "name": party.name,
            }
            if party.country:
                details["jurisdiction"] = {"code": party.country}
            if party.identifiers:
                details["identifiers"] = [
                    {"id": value, "scheme": scheme} for scheme, value in party.identifiers
                ]
            self.statements.append(self.statement(record_id, "entity", details))
        return record_id

    def relationship(self, party: Party, interests: list[dict[str, Any]]) -> None:
        """Add ``interests`` to the one relationship between the company and ``party``."""
        self.interests.setdefault(self.party(party), []).extend(interests)

    def relationships(self) -> list[dict[str, Any]]:
        return [
            self.statement(
                f"{interested}/relationship",
                "relationship",
                {
                    "isComponent": False,
                    "subject": self.subject,
                    "interestedParty": interested,
                    "interests": interests,
                },
            )
            for interested, interests in self.interests.items()
        ]


def _address(text: str, country: str | None) -> dict[str, Any]:
    address: dict[str, Any] = {"type": "registered", "address": text}
    if country:
        address["country"] = {"code": country}
    return address


def _interest(
    kind: str,
    *,
    direct: bool | None,
    beneficial: bool,
    percentage: float | None = None,
    details: str | None = None,
) -> dict[str, Any]:
    interest: dict[str, Any] = {
        "type": kind,
        "directOrIndirect": "unknown" if direct is None else ("direct" if direct else "indirect"),
        "beneficialOwnershipOrControl": beneficial,
    }
    if percentage is not None:
        interest["share"] = {"exact": percentage}
    if details:
        interest["details"] = details
    return interest


def ownership_statements(
    company: Company, ownership: Ownership, *, statement_date: str, source: dict[str, Any]
) -> list[dict[str, Any]]:
    """The BODS 0.4 statements of ``ownership``; ``source`` is a BODS Source object
    (``{"type": ["officialRegister"], "description": ...}``)."""
    builder = _Builder(company, statement_date, source)
    builder.company_statement()
    for director in ownership.directors:
        role = director.role.replace("_", " ")
        builder.relationship(
            director.party,
            [_interest("boardMember", direct=True, beneficial=False, details=role)],
        )
    for holder in ownership.shareholders:
        builder.relationship(
            holder.party,
            [
                _interest(
                    "shareholding",
                    direct=True,
                    beneficial=False,
                    percentage=holder.percentage,
                    details=f"{holder.shares} shares" if holder.shares is not None else None,
                )
            ],
        )
    for owner in ownership.beneficial_owners:
        beneficial = owner.party.kind == "person"  # BODS: only a natural person is one
        builder.relationship(
            owner.party,
            [
                _interest(
                    kind, direct=owner.direct, beneficial=beneficial, percentage=owner.percentage
                )
                for kind in owner.interests
            ],
        )
    for parent in ownership.parents:
        builder.relationship(
            parent.party,
            [
                _interest(
                    "otherInfluenceOrControl",
                    direct=not parent.ultimate,
                    beneficial=False,
                    details=f"{'ultimate' if parent.ultimate else 'direct'} parent by accounting "
                    f"consolidation (GLEIF {parent.relationship})",
                )
            ],
        )
    return builder.statements + builder.relationships()
