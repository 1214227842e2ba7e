"""Name screening: /v3/screening/aml, /individual, /business, /pep, /sanction,
/pep-and-sanction. Live keys screen the official lists, sandbox keys the sandbox's fictional
lists, with the same engine; one wallet debit per live call."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hakiki.core.billing import Charge, part_price
from hakiki.core.calls import Call, finish_call
from hakiki.core.envelope import rendered
from hakiki.core.errors import ApiError
from hakiki.engines.screening.subject import Subject
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.outcomes import ListDates
from hakiki.media.service import MediaLibrary
from hakiki.screening.alerts_service import onboarding_alerts
from hakiki.screening.aml_schemas import (
    SCHEMA_BY_TYPE,
    SCREENING_WORDS,
    BusinessScreeningRequest,
    PersonFields,
    ScreenedSubject,
    ScreeningData,
    ScreeningResult,
)
from hakiki.screening.aml_with_id import aml_result
from hakiki.screening.media_hits import media_wanted, with_media
from hakiki.screening.monitoring_service import Enrolment, enrol_if_asked, screened_by
from hakiki.screening.review_service import apply_reviews, name_subject_key
from hakiki.screening.sandbox import sandbox_dates, simulated_missing_for_name
from hakiki.screening.schemas import AmlResult
from hakiki.screening.watchlists.service import screen_with_watchlists


@dataclass(frozen=True)
class Screening:
    """What one endpoint screens: the subject, its type and the checks."""

    subject: Subject
    subject_type: str
    checks: list[str]
    threshold: float | None
    limit: int
    monitor: bool = False  # also enrol in ongoing monitoring
    reference: str | None = None


def person_screening(body: PersonFields, subject_type: str, checks: list[str]) -> Screening:
    has_parts = (body.first_name or "").strip() or (body.last_name or "").strip()
    if not (body.name or "").strip() and not has_parts:
        raise ApiError(
            400,
            "invalid_request",
            "Give the subject's name, or first_name and last_name.",
            details=[{"field": "name", "problem": "is required (or first_name and last_name)"}],
        )
    subject = Subject(
        name=body.name,
        first_name=body.first_name,
        middle_name=body.middle_name,
        last_name=body.last_name,
        schema=SCHEMA_BY_TYPE[subject_type],
        birth_date=body.birth_date if subject_type == "person" else None,
        countries=tuple(body.countries),
        identifiers=tuple(body.identifiers),
        gender=body.gender if subject_type == "person" else None,
    )
    return Screening(
        subject, subject_type, checks, body.threshold, body.limit, body.monitor, body.reference
    )


def business_screening(body: BusinessScreeningRequest, checks: list[str]) -> Screening:
    if not body.name.strip():
        raise ApiError(
            400,
            "invalid_request",
            "Give the business's registered name.",
            details=[{"field": "name", "problem": "is empty"}],
        )
    subject = Subject(
        name=body.name,
        schema="Organization",
        countries=tuple(body.countries),
        identifiers=tuple(body.identifiers),
    )
    return Screening(
        subject, "business", checks, body.threshold, body.limit, body.monitor, body.reference
    )


async def screen(call: Call, screening: Screening) -> bytes:
    runtime = call.runtime
    live = call.principal.live
    engine = await runtime.part(ScreeningEngines).for_environment(live)
    threshold = screening.threshold or runtime.settings.aml_threshold
    subject = screening.subject
    missing = () if live else simulated_missing_for_name(subject.full_name)
    result = await screen_with_watchlists(
        runtime,
        engine,
        subject,
        org_id=call.principal.org_id,
        environment=call.principal.environment,
        checks=[c for c in screening.checks if c not in missing],
        threshold=threshold,
        limit=screening.limit,
    )
    if missing:  # the sandbox answering as a server without these lists (test values)
        gaps = [*result.checks_without_lists, *(c for c in missing if c in screening.checks)]
        result = replace(result, checks_without_lists=gaps)
    dates = (
        ListDates.of_engine(engine, runtime.settings)
        if live
        else sandbox_dates((v.code for v in result.lists), runtime.settings, subject.full_name)
    )
    aml = aml_result(
        result,
        checks=screening.checks,
        threshold=threshold,
        screened_name=subject.full_name,
        dates=dates,
    )
    aml.subject_key = name_subject_key(runtime.vault, subject)
    media = runtime.part(MediaLibrary)
    if live and media_wanted(media, aml):
        aml_so_far = aml
        aml = await runtime.scoring.run(
            lambda: with_media(media, aml_so_far, subject, threshold, screening.limit, dates),
            tenant=call.principal.org_id,
        )
    performed = aml.performed_count()
    if performed == 0:
        # Nothing could be screened: an empty result would read as "clear", so refuse instead.
        reasons = " ".join(u.reason for u in aml.unavailable)
        raise ApiError(
            503,
            "service_unavailable",
            f"None of the requested checks can run here: {reasons} Nothing was charged.",
        )
    aml = await apply_reviews(runtime, call.principal, aml)
    monitored = await enrol_if_asked(
        call,
        Enrolment(
            subject,
            aml.subject_key,
            screening.reference,
            screening.checks,
            screening.threshold,
            "screening",
            screened_by(aml),
        ),
        asked=screening.monitor,
    )
    status = aml.status
    data = ScreeningData(
        subject=ScreenedSubject(
            name=subject.full_name,
            subject_type=screening.subject_type,
            birth_date=subject.birth_date,
            countries=list(subject.country_codes),
            identifiers_given=len(subject.identifiers),
        ),
        aml=aml,
        monitored_subject_id=monitored,
    )
    message = _message(aml)
    requested = len(aml.outcomes)

    outcome, verdict = SCREENING_WORDS[(status, aml.complete)]

    def render(charge: Charge | None) -> bytes:
        return rendered(
            ScreeningResult,
            call,
            charge,
            reference="scr_" + call.request_id.removeprefix("req_"),
            outcome=outcome,
            verdict=verdict,
            found=bool(aml.hits),
            message=message,
            data=data,
        )

    ran = [o.check for o in aml.outcomes if o.outcome != "not_performed"]
    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description=f"Screening ({', '.join(ran)})",
        price=part_price(runtime.price(call.endpoint), performed, requested),
        write=onboarding_alerts(
            call, subject_key=aml.subject_key, name=subject.full_name, hits=aml.hits
        ),
    )


def _message(aml: AmlResult) -> str:
    if aml.hits:
        message = f"{len(aml.hits)} potential match(es) to review."
    elif aml.complete:
        message = "No list entry reached the threshold."
    else:
        message = "Incomplete: no hit on the checks performed, but not every check ran."
    if aml.unavailable:
        message += " Not performed: " + ", ".join(u.check for u in aml.unavailable) + "."
    stale = [lst.code for lst in aml.lists if lst.stale]
    if stale:
        message += " Stale list(s): " + ", ".join(stale) + "."
    return message
