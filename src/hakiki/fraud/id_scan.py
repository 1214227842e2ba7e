"""The identity-number fraud scan: format validity, reports in the shared fraud database, and
how many people have been seen behind the number (synthetic identities), scored and explained.

Sandbox: no database is read; the number's last digit picks documented signals (docs/sandbox.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.crypto import Vault
from hakiki.core.database import read
from hakiki.core.errors import ApiError
from hakiki.engines.fraud.risk import IdentityEvidence, Risk, assess, id_signals
from hakiki.fraud import observations, repository, sandbox
from hakiki.fraud.keys import identifier_key
from hakiki.fraud.observations import Seen, person_values
from hakiki.fraud.scan_schemas import (
    IdentityLinks,
    IdScanRequest,
    IdScanResult,
    reports_out,
    risk_out,
    scan_answer,
)
from hakiki.identity.channels import Channel, find_channel
from hakiki.identity.verify import country_hint_or_400

NO_REPORTS: dict[str, Any] = {"reports": 0, "organisations": 0, "categories": {}}


def _channel(body: IdScanRequest) -> Channel:
    channel = find_channel(body.channel, body.country_code)
    if channel is None:
        raise ApiError(
            400,
            "invalid_request",
            f"Unknown channel {body.channel!r}; GET /v3/screening/channels lists them.",
            details=[{"field": "channel", "problem": "unknown channel"}],
        )
    country_hint_or_400(channel, body.country_code, body.number)
    return channel


@dataclass(frozen=True)
class NumberScan:
    """A number as scanned: normalised for its channel, its format problem, its look-up key."""

    channel: Channel
    number: str
    problem: str | None
    key: str


def prepare(vault: Vault, channel: Channel, number: str) -> NumberScan:
    normalised = channel.normalise(number)
    return NumberScan(
        channel, normalised, channel.check(normalised), identifier_key(vault, normalised)
    )


async def live_evidence(
    conn: AsyncConnection, environment: str, org_id: str, number_keys: list[str]
) -> dict[str, tuple[IdentityEvidence, Seen]]:
    """Each number's evidence from every organisation's reports, and from the sightings of
    organisations other than ``org_id`` counted so that none carries them alone: two queries."""
    reported = await repository.signals_by_key(conn, environment, "identifier", number_keys)
    linked = await observations.seen_with_many(conn, environment, number_keys, org_id)
    found: dict[str, tuple[IdentityEvidence, Seen]] = {}
    for key in number_keys:
        reports = reported.get(key, NO_REPORTS)
        seen = linked[key]
        found[key] = (
            IdentityEvidence(
                reports=reports["reports"],
                reporting_organisations=reports["organisations"],
                categories=tuple(
                    sorted(reports["categories"].items(), key=lambda c: (-c[1], c[0]))
                ),
                names=seen.counts.get("name", 0),
                birth_dates=seen.counts.get("birth_date", 0),
                phones=seen.counts.get("phone", 0),
                faces=seen.counts.get("face", 0),
                linking_organisations=seen.organisations,
            ),
            seen,
        )
    return found


def new_values(
    vault: Vault, scan: NumberScan, seen: Seen, told: IdScanRequest
) -> list[tuple[str, str]]:
    """What to record of what the caller tells about the person (names, date of birth, phone):
    what it has not told about this number before, up to a few values of each kind (nothing
    for a number in the wrong format: it cannot be anybody's)."""
    if scan.problem is None:
        values = person_values(
            vault,
            names=(told.first_name, told.last_name),
            birth_date=told.date_of_birth,
            phones=[told.phone] if told.phone else [],
            country=scan.channel.country,
        )
        return seen.to_note(values)
    return []


def findings(scan: NumberScan, evidence: IdentityEvidence, risk: Risk) -> dict[str, Any]:
    """The scan's answer, without the call's own fields (request id, reference, billing)."""
    return {
        "country": scan.channel.country,
        "channel": scan.channel.code,
        "number_valid": scan.problem is None,
        "format_problem": scan.problem,
        "risk": risk_out(risk),
        "fraud_reports": reports_out(
            evidence.reports, evidence.reporting_organisations, evidence.categories
        ),
        "identity_links": IdentityLinks(
            names=evidence.names,
            birth_dates=evidence.birth_dates,
            phones=evidence.phones,
            faces=evidence.faces,
            organisations=evidence.linking_organisations,
        ),
    }


async def scan(call: Call, body: IdScanRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    scanned = prepare(runtime.vault, _channel(body), body.number)
    new: list[tuple[str, str]] = []
    if principal.live:
        async with read(runtime.db) as conn:
            evidence, seen = (
                await live_evidence(conn, principal.environment, principal.org_id, [scanned.key])
            )[scanned.key]
        new = new_values(runtime.vault, scanned, seen, body)
    else:
        evidence = sandbox.ID_SCAN.answer(scanned.number)
    risk = assess(id_signals(scanned.problem, evidence), runtime.settings.fraud_weights)

    async def write(conn: AsyncConnection) -> None:
        await observations.record(conn, principal.environment, principal.org_id, [scanned.key], new)

    def render(charge: Charge | None) -> bytes:
        return scan_answer(
            IdScanResult,
            call,
            charge,
            reference="fsc_" + call.request_id.removeprefix("req_"),
            **findings(scanned, evidence, risk),
        )

    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description=f"Fraud ID scan ({scanned.channel.country} {scanned.channel.code})",
        write=write if new else None,  # a re-scan that tells nothing new writes nothing
    )
