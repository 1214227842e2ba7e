"""Screening every director, shareholder, owner and parent of a business with the screening
engine the AML endpoints use: live keys the official lists, sandbox keys the sandbox's
fictional lists (DESIGN §2); hits explained as in AML, reviews applied."""

from __future__ import annotations

from collections.abc import Iterable

from hakiki.core.auth import Principal
from hakiki.core.runtime import Runtime
from hakiki.engines.kyb.bods import party_key
from hakiki.engines.kyb.model import Ownership, Party
from hakiki.engines.screening.subject import Subject
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.outcomes import ListDates
from hakiki.screening.aml_with_id import aml_result
from hakiki.screening.review_service import apply_reviews, name_subject_key
from hakiki.screening.schemas import AmlResult, UnavailableCheck

Screenings = dict[str, AmlResult]  # by party_key


def parties(ownership: Ownership) -> list[Party]:
    """Every party once, in the order of its first role."""
    found: dict[str, Party] = {}
    roles: Iterable[Party] = (
        *(d.party for d in ownership.directors),
        *(s.party for s in ownership.shareholders),
        *(o.party for o in ownership.beneficial_owners),
        *(p.party for p in ownership.parents),
    )
    for party in roles:
        found.setdefault(party_key(party), party)
    return list(found.values())


async def screen_owners(
    runtime: Runtime,
    principal: Principal,
    ownership: Ownership,
    *,
    checks: list[str],
    threshold: float,
) -> Screenings:
    engine = await runtime.part(ScreeningEngines).for_environment(principal.live)
    dates = (
        ListDates.of_engine(engine, runtime.settings)
        if principal.live
        else ListDates.current((v.code for v in engine.lists), runtime.settings)
    )
    screened: Screenings = {}
    for party in parties(ownership):
        person = party.kind == "person"
        party_checks = checks if person else [c for c in checks if c == "sanction"]
        if not party_checks:
            continue
        subject = Subject(
            name=party.name,
            schema="Person" if person else "Organization",
            birth_date=party.birth_date if person else None,
            countries=tuple(c for c in (party.nationality or party.country,) if c),
        )
        result = await runtime.screen(
            engine, subject, tenant=principal.org_id, checks=party_checks, threshold=threshold
        )
        aml = aml_result(
            result, checks=party_checks, threshold=threshold, screened_name=party.name, dates=dates
        )
        aml.subject_key = name_subject_key(runtime.vault, subject)
        screened[party_key(party)] = await apply_reviews(runtime, principal, aml)
    return screened


def unavailable(screened: Screenings) -> list[UnavailableCheck]:
    seen: dict[str, UnavailableCheck] = {}
    for aml in screened.values():
        for item in aml.unavailable:
            seen.setdefault(item.check, item)
    return list(seen.values())
