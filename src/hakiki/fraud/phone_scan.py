"""The phone fraud scan: what libphonenumber knows of the number (validity, E.164, line type,
original carrier, region), what the shared fraud database and other organisations' checks say,
scored and explained. Sandbox: the real parsing; the number's last digit picks the database
signals (docs/sandbox.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import read
from hakiki.engines.fraud.risk import PhoneEvidence, Risk, assess, phone_signals
from hakiki.engines.phone import PhoneAnalysis, analyse
from hakiki.fraud import observations, repository, sandbox
from hakiki.fraud.id_scan import NO_REPORTS
from hakiki.fraud.keys import phone_key_of
from hakiki.fraud.scan_schemas import (
    PhoneDetails,
    PhoneLinks,
    PhoneScanRequest,
    PhoneScanResult,
    reports_out,
    risk_out,
    scan_answer,
)

CHANNEL = "phone"  # the request log's subject channel for phone checks


def _subject(analysis: PhoneAnalysis) -> Subject | None:
    if analysis.e164 is None:
        return None
    return Subject(analysis.region or "ZZ", CHANNEL, analysis.e164)


@dataclass(frozen=True)
class PhoneLookup:
    """A phone as analysed, with its fraud-database key and its request-log look-up hash."""

    analysis: PhoneAnalysis
    key: str
    log_hash: str | None


def prepare(vault: Vault, phone: str, country: str | None) -> PhoneLookup:
    analysis = analyse(phone, country)
    subject = _subject(analysis)
    return PhoneLookup(
        analysis,
        phone_key_of(vault, analysis),
        vault.lookup_hash(subject.country, subject.channel, subject.number) if subject else None,
    )


async def _recent_checks(
    conn: AsyncConnection, log_hashes: list[str]
) -> dict[str, tuple[int, int]]:
    """Live (checks, organisations) in the last 7 days per phone; counted up to
    repository.MAX_COUNTED_CHECKS for a single phone."""
    since = utcnow() - timedelta(days=7)
    return await repository.recent_checks(conn, since, log_hashes)


async def live_evidence(
    conn: AsyncConnection, environment: str, org_id: str, lookups: list[PhoneLookup]
) -> list[PhoneEvidence]:
    """Each phone's evidence: reports, identity numbers organisations other than ``org_id``
    saw it with (counted so that none carries the count alone), recent checks (3 queries)."""
    keys = sorted({lookup.key for lookup in lookups})
    reported = await repository.signals_by_key(conn, environment, "phone", keys)
    identities = await observations.numbers_seen_with(conn, environment, "phone", keys, org_id)
    hashes = [lookup.log_hash for lookup in lookups if lookup.log_hash]
    checks = await _recent_checks(conn, hashes)
    found = []
    for lookup in lookups:
        reports = reported.get(lookup.key, NO_REPORTS)
        checked, organisations = checks.get(lookup.log_hash or "", (0, 0))
        found.append(
            PhoneEvidence(
                reports=reports["reports"],
                reporting_organisations=reports["organisations"],
                categories=tuple(
                    sorted(reports["categories"].items(), key=lambda c: (-c[1], c[0]))
                ),
                identities=identities.get(lookup.key, 0),
                checks_7d=checked,
                checking_organisations_7d=organisations,
            )
        )
    return found


def findings(lookup: PhoneLookup, evidence: PhoneEvidence, risk: Risk) -> dict[str, Any]:
    """The scan's answer, without the call's own fields (request id, reference, billing)."""
    analysis = lookup.analysis
    return {
        "phone": PhoneDetails(
            valid=analysis.valid,
            reason=None if analysis.valid else analysis.reason,
            e164=analysis.e164,
            national=analysis.national,
            international=analysis.international,
            region=analysis.region,
            line_type=analysis.line_type,
            original_carrier=analysis.original_carrier,
            location=analysis.location,
        ),
        "risk": risk_out(risk),
        "fraud_reports": reports_out(
            evidence.reports, evidence.reporting_organisations, evidence.categories
        ),
        "links": PhoneLinks(
            identities=evidence.identities,
            checks_last_7_days=evidence.checks_7d,
            checking_organisations_last_7_days=evidence.checking_organisations_7d,
        ),
    }


def assess_phone(lookup: PhoneLookup, evidence: PhoneEvidence, weights: dict[str, int]) -> Risk:
    analysis = lookup.analysis
    reason = None if analysis.valid else analysis.reason
    return assess(phone_signals(reason, analysis.line_type, evidence), weights)


async def scan(call: Call, body: PhoneScanRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    country = body.country_code.upper() if body.country_code else None
    lookup = prepare(runtime.vault, body.phone, country)
    analysis = lookup.analysis
    if principal.live:
        async with read(runtime.db) as conn:
            evidence = (
                await live_evidence(conn, principal.environment, principal.org_id, [lookup])
            )[0]
    else:
        evidence = sandbox.PHONE.answer(body.phone)
    risk = assess_phone(lookup, evidence, runtime.settings.fraud_weights)

    def render(charge: Charge | None) -> bytes:
        return scan_answer(
            PhoneScanResult,
            call,
            charge,
            reference="fph_" + call.request_id.removeprefix("req_"),
            **findings(lookup, evidence, risk),
        )

    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=_subject(analysis) if principal.live else None,
        render=render,
        description="Fraud phone scan",
    )
