"""From a registry's answer to the result's ``data``: the company, the ownership with each
party's screening, the screening summary and the BODS statements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hakiki.core.envelope import Outcome, data_status
from hakiki.core.registry_checks.schemas import state_of
from hakiki.engines.kyb.bods import ownership_statements, party_key
from hakiki.engines.kyb.model import Company, Ownership, Party
from hakiki.kyb.owners import Screenings, unavailable
from hakiki.kyb.providers.base import RegistryOutcome, RegistryQuery, RegistryResult
from hakiki.kyb.schemas import (
    AddressOut,
    BeneficialOwnerOut,
    CompanyOut,
    DirectorOut,
    IdentifierOut,
    KybData,
    OwnershipData,
    OwnershipOut,
    ParentOut,
    QueryEcho,
    ScreeningSummary,
    ShareholderOut,
    SourceInfo,
)

OUTCOME_OF = {
    RegistryOutcome.FOUND: Outcome.VERIFIED,
    RegistryOutcome.NOT_FOUND: Outcome.NOT_FOUND,
    RegistryOutcome.UNAVAILABLE: Outcome.SOURCE_UNAVAILABLE,
    RegistryOutcome.FAILED: Outcome.FAILED,
}

MESSAGES = {
    Outcome.VERIFIED: "Business found in the register.",
    Outcome.NOT_FOUND: "The register holds no business for this query.",
    Outcome.SOURCE_UNAVAILABLE: "The registry is unavailable right now; nothing was charged. "
    "Retry later.",
    Outcome.PENDING: "The registry is answering slowly; the look-up continues: poll GET "
    "/v3/kyb/status/{reference}, or wait for the verification.completed webhook.",
    Outcome.FAILED: "The look-up could not be completed; nothing was charged.",
}


@dataclass(frozen=True)
class Answer:
    """What a look-up came to: its outcome and the registry's answer (None while pending)."""

    outcome: Outcome
    result: RegistryResult | None
    provider: str
    registry: str


def echo(query: RegistryQuery) -> QueryEcho:
    number = query.number
    return QueryEcho(
        country=query.country,
        registration_number=number.number if number else None,
        registration_format=number.scheme if number else None,
        implied_entity_type=number.entity_type if number else None,
        lei=query.lei,
        name=query.name,
    )


def company_out(company: Company) -> CompanyOut:
    address = company.address
    return CompanyOut(
        name=company.name,
        registration_number=company.number,
        country=company.country,
        entity_type=company.entity_type,
        status=company.status,
        registry_status=company.registry_status,
        registration_date=company.registration_date,
        dissolution_date=company.dissolution_date,
        address=AddressOut(text=address.text, country=address.country, post_code=address.post_code)
        if address
        else None,
        identifiers=[IdentifierOut(scheme=s, id=i) for s, i in company.identifiers],
        source_url=company.source_url,
    )


def _party(party: Party, screened: Screenings | None) -> dict[str, Any]:
    aml = screened.get(party_key(party)) if screened is not None else None
    return {"name": party.name, "kind": party.kind, "nationality": party.nationality, "aml": aml}


def ownership_out(ownership: Ownership, screened: Screenings | None) -> OwnershipOut:
    return OwnershipOut(
        directors=[
            DirectorOut(**_party(d.party, screened), role=d.role, appointed_on=d.appointed_on)
            for d in ownership.directors
        ],
        shareholders=[
            ShareholderOut(
                **_party(s.party, screened),
                shares=s.shares,
                share_class=s.share_class,
                percentage=s.percentage,
            )
            for s in ownership.shareholders
        ],
        beneficial_owners=[
            BeneficialOwnerOut(
                **_party(o.party, screened),
                percentage=o.percentage,
                interests=list(o.interests),
                direct=o.direct,
            )
            for o in ownership.beneficial_owners
        ],
        parents=[
            ParentOut(
                **_party(p.party, screened),
                ultimate=p.ultimate,
                relationship=p.relationship,
                identifiers=[IdentifierOut(scheme=s, id=i) for s, i in p.party.identifiers],
            )
            for p in ownership.parents
        ],
        share_capital=ownership.share_capital,
        notes=list(ownership.notes),
    )


def summary(screened: Screenings) -> ScreeningSummary:
    with_hits = [aml.screened_name for aml in screened.values() if aml.hits]
    return ScreeningSummary(
        status="POTENTIAL_MATCH" if with_hits else "CLEAR",
        parties_screened=len(screened),
        hits=sum(len(aml.hits) for aml in screened.values()),
        parties_with_hits=with_hits,
        unavailable=unavailable(screened),
    )


def source_info(answer: Answer) -> SourceInfo:
    result = answer.result
    detail = None
    if answer.outcome in (Outcome.SOURCE_UNAVAILABLE, Outcome.FAILED) and result is not None:
        detail = result.message or None
    return SourceInfo(provider=answer.provider, registry=answer.registry, detail=detail)


def business_data(query: RegistryQuery, answer: Answer) -> KybData:
    company = answer.result.company if answer.result is not None else None
    return KybData(
        status=data_status(answer.outcome, company is not None),
        state=state_of(answer.outcome),
        query=echo(query),
        source=source_info(answer),
        company=company_out(company) if company is not None else None,
    )


def bods_source(answer: Answer) -> dict[str, object]:
    result = answer.result
    kind = (
        "officialRegister" if result is not None and result.provider == "prembly" else "thirdParty"
    )
    source: dict[str, object] = {"type": [kind], "description": answer.registry}
    if result is not None and result.company is not None and result.company.source_url:
        source["url"] = result.company.source_url
    return source


def ownership_data(
    query: RegistryQuery,
    answer: Answer,
    screened: Screenings | None,
    statement_date: str,
) -> OwnershipData:
    base = business_data(query, answer)
    result = answer.result
    ownership = result.ownership if result is not None else None
    company = result.company if result is not None else None
    if company is None or ownership is None:
        return OwnershipData(**base.model_dump(), ownership=None, screening=None, bods=None)
    bods = ownership_statements(
        company, ownership, statement_date=statement_date, source=bods_source(answer)
    )
    return OwnershipData(
        **base.model_dump(),
        ownership=ownership_out(ownership, screened),
        screening=summary(screened) if screened is not None else None,
        bods=bods,
    )
