"""The phone fraud scan: what libphonenumber knows of the number (validity, E.164, line type,
original carrier, region), what the shared fraud database and other organisations' checks say,
scored and explained. Sandbox: the real parsing; the number's last digit picks the database
signals (docs/sandbox.md)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from hakiki.core.calls import Call, Subject, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.envelope import Billing
from hakiki.core.tables import request_logs
from hakiki.core.wallet.service import Charge
from hakiki.engines.fraud.risk import PhoneEvidence, assess, phone_signals
from hakiki.engines.phone import PhoneAnalysis, analyse
from hakiki.fraud import repository
from hakiki.fraud.keys import phone_key
from hakiki.fraud.scan_schemas import (
    PhoneDetails,
    PhoneLinks,
    PhoneScanRequest,
    PhoneScanResult,
    ReportSummary,
    RiskAssessment,
    RiskSignal,
)
from hakiki.fraud.tables import identity_observations as seen

ENDPOINT = "fraud.phone"
CHANNEL = "phone"  # the request log's subject channel for phone checks
MAX_COUNTED_CHECKS = 1000  # recent checks are counted up to this

SANDBOX_EVIDENCE = {
    "5": PhoneEvidence(reports=1, reporting_organisations=1, categories=(("sim_swap", 1),)),
    "6": PhoneEvidence(identities=4),
    "7": PhoneEvidence(
        reports=2, reporting_organisations=2, categories=(("mobile_money_fraud", 2),),
        identities=3, checks_7d=12,
        checking_organisations_7d=5,
    ),
}  # fmt: skip


def _subject(analysis: PhoneAnalysis) -> Subject | None:
    if analysis.e164 is None:
        return None
    return Subject(analysis.region or "ZZ", CHANNEL, analysis.e164)


async def live_evidence(call: Call, analysis: PhoneAnalysis, country: str | None) -> PhoneEvidence:
    runtime, environment = call.runtime, call.principal.environment
    key = phone_key(runtime.vault, analysis.e164 or analysis.input, country)
    subject = _subject(analysis)
    since = utcnow() - timedelta(days=7)
    async with read(runtime.db) as conn:
        reported = await repository.signals(conn, environment, [("phone", key)])
        identities = (
            await conn.execute(
                select(func.count(seen.c.identifier_key.distinct())).where(
                    seen.c.environment == environment,
                    seen.c.kind == "phone",
                    seen.c.value_key == key,
                )
            )
        ).scalar_one()
        checks, organisations = 0, 0
        if subject is not None:
            lookup = runtime.vault.lookup_hash(subject.country, subject.channel, subject.number)
            recent = (
                select(request_logs.c.org_id)
                .where(
                    request_logs.c.subject_hash == lookup,
                    request_logs.c.environment == environment,
                    request_logs.c.created_at >= since,
                )
                .limit(MAX_COUNTED_CHECKS)  # a hot number must not make every check slower
                .subquery()
            )
            checks, organisations = (
                await conn.execute(select(func.count(), func.count(recent.c.org_id.distinct())))
            ).one()
    return PhoneEvidence(
        reports=reported["reports"],
        reporting_organisations=reported["organisations"],
        categories=tuple(sorted(reported["categories"].items(), key=lambda c: (-c[1], c[0]))),
        identities=int(identities),
        checks_7d=int(checks),
        checking_organisations_7d=int(organisations),
    )


async def scan(call: Call, body: PhoneScanRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    country = body.country_code.upper() if body.country_code else None
    analysis = analyse(body.phone, country)
    if principal.live:
        evidence = await live_evidence(call, analysis, country)
    else:
        digits = [c for c in body.phone if c.isdigit()]
        evidence = SANDBOX_EVIDENCE.get(digits[-1] if digits else "", PhoneEvidence())
    reason = None if analysis.valid else analysis.reason
    risk = assess(
        phone_signals(reason, analysis.line_type, evidence), runtime.settings.fraud_weights
    )

    def render(charge: Charge | None) -> bytes:
        return (
            PhoneScanResult(
                request_id=call.request_id,
                live=principal.live,
                reference="fph_" + call.request_id.removeprefix("req_"),
                phone=PhoneDetails(
                    valid=analysis.valid,
                    reason=reason,
                    e164=analysis.e164,
                    national=analysis.national,
                    international=analysis.international,
                    region=analysis.region,
                    line_type=analysis.line_type,
                    original_carrier=analysis.original_carrier,
                    location=analysis.location,
                ),
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
                links=PhoneLinks(
                    identities=evidence.identities,
                    checks_last_7_days=evidence.checks_7d,
                    checking_organisations_last_7_days=evidence.checking_organisations_7d,
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
        subject=_subject(analysis) if principal.live else None,
        render=render,
        description="Fraud phone scan",
    )
