"""The combined AML-with-ID screening: verify an identity number, then screen who it belongs to.

One call, one wallet transaction (live), deterministic mock data (sandbox).
"""

from __future__ import annotations

from functools import cache

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.envelope import OUTCOMES, Billing, Outcome, envelope_fields
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
from hakiki.media.service import MediaLibrary
from hakiki.screening.alerts_service import onboarding_alerts
from hakiki.screening.media_hits import media_wanted, with_media
from hakiki.screening.monitoring_service import Enrolment, enrol_if_asked
from hakiki.screening.review_service import apply_reviews, id_subject_key
from hakiki.screening.sandbox import AML_WITH_ID as AML_WITH_ID_SANDBOX
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


_UNAVAILABLE_REASONS = {
    "adverse_media": "No adverse-media source is configured on this server.",
    "watchlist": "Your organisation has no ready watchlist in this environment "
    "(POST /v3/screening/watchlists).",
}


def aml_result(
    result: EngineResult,
    *,
    checks: list[str],
    threshold: float,
    screened_name: str,
) -> AmlResult:
    """The API's view of an engine result, naming every asked-for check that could not run."""
    return AmlResult(
        checks=checks,
        threshold=threshold,
        screened_name=screened_name,
        hits=[AmlHit(**hit.to_dict()) for hit in result.hits],
        lists=[
            ListUsed(
                code=lv.code,
                title=lv.title,
                version=lv.version,
                checks=sorted(lv.checks),
                licence=lv.licence,
            )
            for lv in result.lists
        ],
        unavailable=[
            UnavailableCheck(
                check=c,
                reason=_UNAVAILABLE_REASONS.get(c, f"No {c} list is loaded on this server."),
            )
            for c in result.checks_without_lists
        ],
    )


@cache
def _sandbox_list(check: str) -> ListUsed:
    """The sandbox's list for ``check``: one frozen instance, shared by every answer."""
    return ListUsed(
        code=f"sandbox_{check}", title=f"Sandbox {check} list", version="sandbox", checks=[check]
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
        hits = [AmlHit(**h) for h in sandbox.mock_hits(channel, number, name, set(checks))]
        lists = [_sandbox_list(c) for c in sorted(checks)]
        return AmlResult(
            checks=checks,
            threshold=threshold,
            screened_name=name,
            hits=hits,
            lists=lists,
            unavailable=[],
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
    aml = aml_result(result, checks=checks, threshold=threshold, screened_name=name)
    media = runtime.part(MediaLibrary)
    if not media_wanted(media, aml):
        return aml
    return await runtime.scoring.run(
        lambda: with_media(media, aml, subject, threshold, 10), tenant=tenant
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
            ),
            asked=body.monitor,
        )

    row = OUTCOMES[outcome]
    data = AmlWithIdData(
        status="FOUND" if verified.record is not None else "NOT_FOUND",
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
            **envelope_fields(outcome),
        )
        return result.model_dump_json().encode()

    return await finish_call(
        call,
        billable=row.billable,
        response_code=row.response_code,
        subject=Subject(channel.country, channel.code, number),
        render=render,
        description=f"AML with ID: {channel.country} {channel.code} ({outcome.value})",
        write=onboarding_alerts(
            call, subject_key=aml.subject_key, name=aml.screened_name, hits=aml.hits
        )
        if aml
        else None,
    )
