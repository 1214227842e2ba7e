"""Verifying an identity number: the channel and number checks every identity endpoint makes,
the sandbox's deterministic answer, the live provider's answer, and the name comparison.

KYC, the combined AML-with-ID screening and the fraud scans use these; none of them verifies a
number any other way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from hakiki.core.envelope import Outcome
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime
from hakiki.engines.screening.compare import compare_names
from hakiki.identity import sandbox
from hakiki.identity.channels import Channel, countries_fitting, find_channel
from hakiki.identity.providers.base import (
    IdentityProvider,
    IdentityRecord,
    LookupOutcome,
    LookupResult,
)
from hakiki.identity.providers.registry import Providers
from hakiki.identity.schemas import Identity, NameComparison, NameScore

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


@dataclass(frozen=True)
class NumberQuery:
    """What a sandbox hook of an identity endpoint answers: a checked number and the names."""

    channel: Channel
    number: str
    names: PersonFields


def channel_or_400(code: str, country: str | None, number: str | None = None) -> Channel:
    """The channel ``code`` (in ``country``, when given), or a 400 that says where to look;
    with the ``number``, a 400 asking for the country_code when the number is another
    country's (see ``country_hint_or_400``)."""
    channel = find_channel(code, country)
    if channel is None:
        where = f" in {country.upper()}" if country else ""
        raise ApiError(
            400,
            "invalid_request",
            f"Unknown channel {code!r}{where}; GET /v3/screening/channels lists them.",
            details=[{"field": "channel", "problem": "unknown channel"}],
        )
    if number is not None:
        country_hint_or_400(channel, country, number)
    return channel


def country_hint_or_400(
    channel: Channel, country: str | None, number: str, field: str = "country_code"
) -> None:
    """Without a country_code a code used in several countries means the Nigerian channel; a
    number that does not fit it but fits another country's (a Ugandan NIN sent as ``nin``) is
    a 400 naming ``field`` that says which country_code to add, never a Nigerian look-up."""
    if country:
        return
    others = countries_fitting(channel.code, number)
    if not others:
        return
    add = " or ".join(f'"country_code": "{c}"' for c in others)
    problem = (
        f"number fits the {'/'.join(others)} {channel.code} format, not the {channel.country} "
        f"one that {channel.code} means without a country_code: add {add}"
    )
    raise ApiError(
        400,
        "invalid_request",
        f"{field}: {problem}.",
        details=[{"field": field, "problem": problem}],
    )


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


def sandbox_record(
    channel: Channel, number: str, names: PersonFields, record: IdentityRecord | None = None
) -> IdentityRecord:
    """The sandbox's identity behind a number that verifies (``record``, when the caller has
    made it already); with compare, the names sent."""
    record = record or sandbox.mock_identity(channel, number)
    if names.compare and names.first_name and names.last_name:
        record = sandbox.confirm_names(record, names.first_name, names.last_name)
    return record


def sandbox_verify(channel: Channel, number: str, names: PersonFields) -> Verified:
    """The sandbox's deterministic answer: the number's last digit picks the outcome
    (docs/sandbox.md)."""
    outcome = sandbox.outcome_for(number)
    reference = sandbox.reference_for(channel, number)
    if outcome not in (Outcome.VERIFIED, Outcome.MISMATCH):
        return Verified(outcome, sandbox.PROVIDER, reference, None)
    record = sandbox.mock_identity(channel, number)
    if outcome is Outcome.VERIFIED:
        record = sandbox_record(channel, number, names, record)
    # MISMATCH is the name comparison's verdict: without compare there is nothing to mismatch.
    return Verified(Outcome.VERIFIED, sandbox.PROVIDER, reference, record)


def live_provider(runtime: Runtime, channel: Channel) -> IdentityProvider:
    """The provider serving ``channel`` here, or 503 before anything is reserved."""
    provider = runtime.part(Providers).find(channel.country, channel.code)
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


def full_name(record: IdentityRecord) -> str:
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
