"""The identity-number fraud scan: format validity, reports in the shared fraud database, and
how many people have been seen behind the number (synthetic identities), scored and explained.

Sandbox: no database is read; the number's last digit picks documented signals (docs/sandbox.md).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.calls import Call, finish_call
from hakiki.core.channels import Channel, find_channel
from hakiki.core.database import read
from hakiki.core.envelope import Billing
from hakiki.core.errors import ApiError
from hakiki.core.wallet.service import Charge
from hakiki.engines.fraud.risk import IdentityEvidence, assess, id_signals
from hakiki.fraud import observations, repository
from hakiki.fraud.keys import identifier_key
from hakiki.fraud.observations import Seen, person_values
from hakiki.fraud.scan_schemas import (
    IdentityLinks,
    IdScanRequest,
    IdScanResult,
    ReportSummary,
    RiskAssessment,
    RiskSignal,
)

ENDPOINT = "fraud.id_scan"

# Sandbox: the last digit of the number picks what the fraud database "knows".
SANDBOX_EVIDENCE = {
    "5": IdentityEvidence(
        reports=1, reporting_organisations=1, categories=(("synthetic_identity", 1),)
    ),
    "6": IdentityEvidence(names=3, birth_dates=2, phones=4, linking_organisations=3),
    "7": IdentityEvidence(
        reports=2,
        reporting_organisations=2,
        categories=(("loan_stacking", 2),),
        names=2,
        faces=2,
        linking_organisations=2,
    ),
}


def _channel(body: IdScanRequest) -> Channel:
    channel = find_channel(body.channel, body.country_code)
    if channel is None:
        raise ApiError(
            400,
            "invalid_request",
            f"Unknown channel {body.channel!r}; GET /v3/screening/channels lists them.",
            details=[{"field": "channel", "problem": "unknown channel"}],
        )
    return channel


async def live_evidence(call: Call, number_key: str) -> tuple[IdentityEvidence, Seen]:
    environment = call.principal.environment
    async with read(call.runtime.db) as conn:
        reported = await repository.signals(conn, environment, [("identifier", number_key)])
        linked = await observations.seen_with(conn, environment, number_key, call.principal.org_id)
    evidence = IdentityEvidence(
        reports=reported["reports"],
        reporting_organisations=reported["organisations"],
        categories=tuple(sorted(reported["categories"].items(), key=lambda c: (-c[1], c[0]))),
        names=linked.distinct.get("name", 0),
        birth_dates=linked.distinct.get("birth_date", 0),
        phones=linked.distinct.get("phone", 0),
        faces=linked.distinct.get("face", 0),
        linking_organisations=linked.organisations,
    )
    return evidence, linked


async def scan(call: Call, body: IdScanRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    channel = _channel(body)
    number = channel.normalise(body.number)
    problem = channel.check(number)
    number_key = identifier_key(runtime.vault, number)
    new_values: list[tuple[str, str]] = []
    if principal.live:
        evidence, linked = await live_evidence(call, number_key)
    else:
        evidence = SANDBOX_EVIDENCE.get(number[-1:], IdentityEvidence())
    risk = assess(id_signals(problem, evidence), runtime.settings.fraud_weights)
    if principal.live and problem is None:
        told = person_values(
            runtime.vault,
            names=(body.first_name, body.last_name),
            birth_date=body.date_of_birth,
            phones=[body.phone] if body.phone else [],
            country=channel.country,
        )
        new_values = [value for value in told if value not in linked.noted_by_caller]

    async def write(conn: AsyncConnection) -> None:
        await observations.record(
            conn, principal.environment, principal.org_id, [number_key], new_values
        )

    def render(charge: Charge | None) -> bytes:
        return (
            IdScanResult(
                request_id=call.request_id,
                live=principal.live,
                reference="fsc_" + call.request_id.removeprefix("req_"),
                country=channel.country,
                channel=channel.code,
                number_valid=problem is None,
                format_problem=problem,
                risk=RiskAssessment(
                    score=risk.score,
                    level=risk.level,  # type: ignore[arg-type]
                    signals=[RiskSignal(**vars(signal)) for signal in risk.signals],
                ),
                fraud_reports=ReportSummary(
                    count=evidence.reports,
                    organisations=evidence.reporting_organisations,
                    categories=dict(evidence.categories),
                ),
                identity_links=IdentityLinks(
                    names=evidence.names,
                    birth_dates=evidence.birth_dates,
                    phones=evidence.phones,
                    faces=evidence.faces,
                    organisations=evidence.linking_organisations,
                ),
                billing=Billing.of(charge, principal.currency),
            )
            .model_dump_json()
            .encode()
        )

    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description=f"Fraud ID scan ({channel.country} {channel.code})",
        write=write if new_values else None,  # a re-scan that tells nothing new writes nothing
    )
