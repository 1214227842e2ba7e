"""The combined AML-with-ID screening: verify an identity number, then screen who it belongs to.

One call, one wallet transaction (live), deterministic mock data (sandbox).
"""

from __future__ import annotations

from functools import lru_cache

from hakiki.core.billing import Charge, part_price
from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.clock import utcnow
from hakiki.core.envelope import OUTCOMES, Billing, Outcome, data_status, envelope_fields
from hakiki.engines.screening.engine import Subject as ScreeningSubject
from hakiki.engines.screening.results import ScreeningResult as EngineResult
from hakiki.identity import sandbox
from hakiki.identity.channels import Channel
from hakiki.identity.providers.base import IdentityRecord
from hakiki.identity.schemas import ChannelRef
from hakiki.identity.verify import (
    NumberQuery,
    Verified,
    channel_or_400,
    check_number,
    compare_record,
    full_name,
    identity_of,
    live_provider,
    verified_from,
)
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.outcomes import ListDates, missing_reason
from hakiki.media.service import MediaLibrary
from hakiki.screening.alerts_service import onboarding_alerts
from hakiki.screening.media_hits import media_wanted, with_media
from hakiki.screening.monitoring_service import Enrolment, enrol_if_asked, screened_by
from hakiki.screening.review_service import apply_reviews, id_subject_key
from hakiki.screening.sandbox import AML_WITH_ID as AML_WITH_ID_SANDBOX
from hakiki.screening.sandbox import simulated_missing_for_number
from hakiki.screening.schemas import (
    AmlHit,
    AmlResult,
    AmlWithIdData,
    AmlWithIdRequest,
    AmlWithIdResult,
    ListUsed,
    UnavailableCheck,
)
from hakiki.screening.watchlists.service import screen_with_watchlists


async def _live_verify(
    call: Call, channel: Channel, number: str, body: AmlWithIdRequest
) -> Verified:
    provider = live_provider(call.runtime, channel)
    await hold_price(call)
    result = await provider.lookup(channel.country, channel.code, number, last_name=body.last_name)
    return verified_from(result, f"ref_{call.request_id.removeprefix('req_')}")


def aml_result(
    result: EngineResult,
    *,
    checks: list[str],
    threshold: float,
    screened_name: str,
    dates: ListDates,
) -> AmlResult:
    """The API's view of an engine result: each list with its date, age and staleness, and
    every asked-for check that could not run (no list; a stale list when the operator made
    staleness fatal)."""
    lists = [dates.dated(lv) for lv in result.lists]
    gaps = {c: missing_reason(c) for c in result.checks_without_lists}
    gaps.update(dates.stale_gaps((c for c in checks if c not in gaps), lists))
    return AmlResult(
        checks=checks,
        threshold=threshold,
        screened_name=screened_name,
        hits=[AmlHit(**hit.to_dict()) for hit in result.hits],
        lists=[ListUsed.of(lst) for lst in lists],
        unavailable=[
            UnavailableCheck(check=c, reason=gaps[c]) for c in dict.fromkeys(checks) if c in gaps
        ],
    )


@lru_cache(maxsize=32)
def _sandbox_list(check: str, published: str | None = None) -> ListUsed:
    """The sandbox's list for ``check``: one frozen instance per day, shared by every answer."""
    return ListUsed(
        code=f"sandbox_{check}",
        title=f"Sandbox {check} list",
        version="sandbox",
        checks=[check],
        published=published,
        age_days=0 if published else None,
    )


def record_subject(channel: Channel, record: IdentityRecord) -> ScreeningSubject:
    """The verified identity as the engine screens it."""
    return ScreeningSubject(
        name=full_name(record),
        first_name=record.first_name,
        middle_name=record.middle_name,
        last_name=record.last_name,
        schema="Organization" if channel.subject == "business" else "Person",
        birth_date=record.date_of_birth,
        countries=(record.nationality.lower(),) if record.nationality else (),
        gender=record.gender,
    )


async def _screen(
    call: Call, channel: Channel, number: str, body: AmlWithIdRequest, record: IdentityRecord
) -> AmlResult:
    threshold = body.threshold or call.runtime.settings.aml_threshold
    name = full_name(record)
    checks: list[str] = [*body.checks, *(["adverse_media"] if body.adverse_media else [])]
    if not call.principal.live:
        missing = set(simulated_missing_for_number(number))
        hits = [AmlHit(**h) for h in sandbox.mock_hits(channel, number, name, set(checks))]
        today = utcnow().date().isoformat()
        return AmlResult(
            checks=checks,
            threshold=threshold,
            screened_name=name,
            hits=[h for h in hits if h.check not in missing],
            lists=[_sandbox_list(c, today) for c in sorted(checks) if c not in missing],
            unavailable=[
                UnavailableCheck(check=c, reason=missing_reason(c)) for c in checks if c in missing
            ],
        )
    subject = record_subject(channel, record)
    runtime = call.runtime
    engine = await runtime.part(ScreeningEngines).load_live()
    tenant = call.principal.org_id
    result = await screen_with_watchlists(
        runtime,
        engine,
        subject,
        org_id=tenant,
        environment=call.principal.environment,
        checks=checks,
        threshold=threshold,
    )
    dates = ListDates.of_engine(engine, runtime.settings)
    aml = aml_result(result, checks=checks, threshold=threshold, screened_name=name, dates=dates)
    media = runtime.part(MediaLibrary)
    if not media_wanted(media, aml):
        return aml
    return await runtime.scoring.run(
        lambda: with_media(media, aml, subject, threshold, 10, dates), tenant=tenant
    )


async def screen_with_id(call: Call, body: AmlWithIdRequest) -> bytes:
    channel = channel_or_400(body.channel, body.country_code, body.number)
    number = check_number(channel, body.number, body)
    if call.principal.live:
        verified = await _live_verify(call, channel, number, body)
    else:
        verified = AML_WITH_ID_SANDBOX.answer(NumberQuery(channel, number, body))

    outcome = verified.outcome
    identity = aml = comparison = monitored = None
    if verified.record is not None:
        record = verified.record
        identity = identity_of(record)
        if body.compare:
            comparison = compare_record(body, record, call.runtime.settings.name_match_threshold)
            if not comparison.match:
                outcome = Outcome.MISMATCH
        aml = await _screen(call, channel, number, body, record)
        aml.subject_key = id_subject_key(call.runtime.vault, channel.country, channel.code, number)
        aml = await apply_reviews(call.runtime, call.principal, aml)
        monitored = await enrol_if_asked(
            call,
            Enrolment(
                record_subject(channel, record),
                aml.subject_key,
                body.reference,
                body.checks,
                body.threshold,
                "aml_with_id",
                screened_by(aml),
            ),
            asked=body.monitor,
        )

    row = OUTCOMES[outcome]
    fields = envelope_fields(outcome)
    price = call.runtime.price(call.endpoint)
    if aml is not None and not aml.complete:
        # Verification is one part of the price, each requested check another: only what ran.
        price = part_price(price, 1 + aml.performed_count(), 1 + len(aml.outcomes))
        gaps = "; ".join(f"{u.check}: {u.reason}" for u in aml.unavailable)
        fields["message"] = f"{fields['message']} Screening INCOMPLETE, not performed: {gaps}"
    data = AmlWithIdData(
        status=data_status(outcome, verified.record is not None),
        channel=ChannelRef(code=channel.code, country=channel.country),
        identity=identity,
        aml=aml,
        comparison=comparison,
        monitored_subject_id=monitored,
    )

    def render(charge: Charge | None) -> bytes:
        billing = Billing.of(charge, call.principal.currency)
        result = AmlWithIdResult(
            request_id=call.request_id,
            live=call.principal.live,
            reference=verified.reference,
            provider=verified.provider,
            billing=billing,
            data=data,
            **fields,
        )
        return result.model_dump_json().encode()

    return await finish_call(
        call,
        billable=row.billable,
        response_code=row.response_code,
        subject=Subject(channel.country, channel.code, number),
        render=render,
        description=f"AML with ID: {channel.country} {channel.code} ({outcome.value})",
        price=price,
        write=onboarding_alerts(
            call, subject_key=aml.subject_key, name=aml.screened_name, hits=aml.hits
        )
        if aml
        else None,
    )
