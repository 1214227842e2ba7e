"""The combined AML-with-ID screening: verify an identity number, then screen who it belongs to.

One call, one wallet transaction (live), deterministic mock data (sandbox).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.channels import Channel, find_channel
from hakiki.core.envelope import OUTCOMES, Billing, Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.sandbox import engine as sandbox
from hakiki.core.wallet.service import Charge
from hakiki.engines.screening.compare import compare_names
from hakiki.engines.screening.engine import Subject as ScreeningSubject
from hakiki.engines.screening.results import ScreeningResult as EngineResult
from hakiki.media.service import with_media
from hakiki.providers.base import IdentityProvider, IdentityRecord, LookupOutcome, LookupResult
from hakiki.providers.registry import find_provider
from hakiki.screening.review_service import apply_reviews, id_subject_key
from hakiki.screening.schemas import (
    AmlHit,
    AmlResult,
    AmlWithIdData,
    AmlWithIdRequest,
    AmlWithIdResult,
    ChannelRef,
    Identity,
    ListUsed,
    NameComparison,
    NameScore,
    UnavailableCheck,
)

ENDPOINT = "screening.aml_with_id"

_LOOKUP_OUTCOMES = {
    LookupOutcome.NOT_FOUND: Outcome.NOT_FOUND,
    LookupOutcome.UNAVAILABLE: Outcome.SOURCE_UNAVAILABLE,
    LookupOutcome.FAILED: Outcome.FAILED,
}


@dataclass(frozen=True)
class Verified:
    """The identity half's result, from the sandbox or a live provider."""

    outcome: Outcome
    provider: str
    reference: str
    record: IdentityRecord | None


class PersonFields(Protocol):
    """The request fields shared by every endpoint that verifies an identity number."""

    @property
    def compare(self) -> bool: ...

    @property
    def first_name(self) -> str | None: ...

    @property
    def last_name(self) -> str | None: ...


def resolve_channel(body: AmlWithIdRequest) -> tuple[Channel, str]:
    """The channel and the normalised number, or a 400 that says what was expected."""
    channel = find_channel(body.channel, body.country_code)
    if channel is None:
        where = f" in {body.country_code.upper()}" if body.country_code else ""
        raise ApiError(
            400,
            "invalid_request",
            f"Unknown channel {body.channel!r}{where}; GET /v3/screening/channels lists them.",
            details=[{"field": "channel", "problem": "unknown channel"}],
        )
    return channel, check_number(channel, body.number, body)


def check_number(channel: Channel, raw_number: str, body: PersonFields) -> str:
    """The normalised number, or a 400 naming the field: the number's format, the fields the
    channel's registry needs, and compare's names."""
    number = channel.normalise(raw_number)
    problem = channel.check(number)
    if problem:
        raise ApiError(
            400,
            "invalid_request",
            f"number does not fit the {channel.country} {channel.code} format: {problem}.",
            details=[{"field": "number", "problem": problem}],
        )
    needed = [f for f in channel.requires if not (getattr(body, f) or "").strip()]
    if needed:
        raise ApiError(
            400,
            "invalid_request",
            f"{channel.country} {channel.code} verification also needs {', '.join(needed)}.",
            details=[{"field": f, "problem": f"is required for {channel.code}"} for f in needed],
        )
    if body.compare:
        missing = [f for f in ("first_name", "last_name") if not (getattr(body, f) or "").strip()]
        if missing:
            raise ApiError(
                400,
                "invalid_request",
                f"compare needs first_name and last_name; missing: {', '.join(missing)}.",
                details=[
                    {"field": f, "problem": "is required when compare is true"} for f in missing
                ],
            )
        if channel.subject == "business":
            raise ApiError(
                400,
                "invalid_request",
                f"compare applies to person channels; {channel.code} identifies a business.",
                details=[{"field": "compare", "problem": "not available for business channels"}],
            )
    return number


def sandbox_verify(channel: Channel, number: str, body: PersonFields) -> Verified:
    outcome = sandbox.outcome_for(number)
    reference = sandbox.reference_for(channel, number)
    if outcome not in (Outcome.VERIFIED, Outcome.MISMATCH):
        return Verified(outcome, sandbox.PROVIDER, reference, None)
    record = sandbox.mock_identity(channel, number)
    if outcome is Outcome.VERIFIED and body.compare and body.first_name and body.last_name:
        record = sandbox.confirm_names(record, body.first_name, body.last_name)
    # MISMATCH is the name comparison's verdict: without compare there is nothing to mismatch.
    return Verified(Outcome.VERIFIED, sandbox.PROVIDER, reference, record)


def live_provider(call: Call, channel: Channel) -> IdentityProvider:
    """The provider serving ``channel`` here, or 503 before anything is reserved."""
    provider = find_provider(call.runtime.providers, channel.country, channel.code)
    if provider is None:
        raise ApiError(
            503,
            "channel_unavailable",
            f"No provider is configured for {channel.country} {channel.code} in live mode; "
            "nothing was charged. GET /v3/screening/channels shows what is available.",
        )
    return provider


def verified_from(result: LookupResult, reference: str) -> Verified:
    """A provider's answer as the verification outcome; ``reference`` when it gives none."""
    reference = result.provider_reference or reference
    if result.outcome is LookupOutcome.FOUND and result.record is not None:
        return Verified(Outcome.VERIFIED, result.provider, reference, result.record)
    outcome = _LOOKUP_OUTCOMES.get(result.outcome, Outcome.FAILED)
    return Verified(outcome, result.provider, reference, None)


async def _live_verify(
    call: Call, channel: Channel, number: str, body: AmlWithIdRequest
) -> Verified:
    provider = live_provider(call, channel)
    await hold_price(call)
    result = await provider.lookup(channel.country, channel.code, number, last_name=body.last_name)
    return verified_from(result, f"ref_{call.request_id.removeprefix('req_')}")


def _full_name(record: IdentityRecord) -> str:
    if record.business_name:
        return record.business_name
    parts = (record.first_name, record.middle_name, record.last_name)
    return " ".join(p for p in parts if p)


def identity_of(record: IdentityRecord) -> Identity:
    return Identity(
        first_name=record.first_name,
        middle_name=record.middle_name,
        last_name=record.last_name,
        business_name=record.business_name,
        date_of_birth=record.date_of_birth,
        gender=record.gender,
        phone=record.phone,
        nationality=record.nationality,
    )


def compare_record(body: PersonFields, record: IdentityRecord, threshold: float) -> NameComparison:
    result = compare_names(
        body.first_name or "",
        body.last_name or "",
        record.first_name,
        record.middle_name,
        record.last_name,
        threshold,
    )
    return NameComparison(
        match=result.match,
        score=round(result.score, 4),
        threshold=threshold,
        first_name=NameScore(
            supplied=result.first_name.supplied or "",
            on_record=result.first_name.on_record,
            score=round(result.first_name.score, 4),
        ),
        last_name=NameScore(
            supplied=result.last_name.supplied or "",
            on_record=result.last_name.on_record,
            score=round(result.last_name.score, 4),
        ),
        reason=result.reason,
    )


_UNAVAILABLE_REASONS = {
    "adverse_media": "No adverse-media source is configured on this server.",
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
            ListUsed(code=lv.code, title=lv.title, version=lv.version, checks=sorted(lv.checks))
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


async def _screen(
    call: Call, channel: Channel, number: str, body: AmlWithIdRequest, record: IdentityRecord
) -> AmlResult:
    threshold = body.threshold or call.runtime.settings.aml_threshold
    name = _full_name(record)
    checks: list[str] = [*body.checks, *(["adverse_media"] if body.adverse_media else [])]
    if not call.principal.live:
        hits = [AmlHit(**h) for h in sandbox.mock_hits(channel, number, name, set(checks))]
        lists = [
            ListUsed(code=f"sandbox_{c}", title=f"Sandbox {c} list", version="sandbox", checks=[c])
            for c in sorted(checks)
        ]
        return AmlResult(
            checks=checks,
            threshold=threshold,
            screened_name=name,
            hits=hits,
            lists=lists,
            unavailable=[],
        )
    subject = ScreeningSubject(
        name=name,
        first_name=record.first_name,
        middle_name=record.middle_name,
        last_name=record.last_name,
        schema="Organization" if channel.subject == "business" else "Person",
        birth_date=record.date_of_birth,
        countries=(record.nationality.lower(),) if record.nationality else (),
        gender=record.gender,
    )
    runtime = call.runtime
    result = await runtime.screen(runtime.screening, subject, checks=checks, threshold=threshold)
    aml = aml_result(result, checks=checks, threshold=threshold, screened_name=name)
    if not runtime.media.wanted(aml):
        return aml
    return await runtime.offload(lambda: with_media(runtime.media, aml, subject, threshold, 10))


async def screen_with_id(call: Call, body: AmlWithIdRequest) -> bytes:
    channel, number = resolve_channel(body)
    if call.principal.live:
        verified = await _live_verify(call, channel, number, body)
    else:
        verified = sandbox_verify(channel, number, body)

    outcome = verified.outcome
    identity = aml = comparison = None
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

    row = OUTCOMES[outcome]
    data = AmlWithIdData(
        status="FOUND" if verified.record is not None else "NOT_FOUND",
        channel=ChannelRef(code=channel.code, country=channel.country),
        identity=identity,
        aml=aml,
        comparison=comparison,
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
    )
