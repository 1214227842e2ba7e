"""Automated checks: each runs another domain's own engine or service on what the candidate
gave (sandbox keys get those domains' sandbox answers, live keys their live engines and
providers). A check answers its result (clear, consider, unverifiable) and its evidence; it
never raises for an upstream problem: that is ``unverifiable`` with the reason, not charged."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hakiki.core.crypto import Vault
from hakiki.core.database import read
from hakiki.core.envelope import Outcome
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime
from hakiki.credit import service as credit_service
from hakiki.credit.providers.base import PullOutcome
from hakiki.credit.schemas import CreditReport
from hakiki.engines.fraud.risk import assess, id_signals
from hakiki.engines.kyb.model import Ownership
from hakiki.engines.kyb.numbers import RegistrationNumberError, parse_registration_number
from hakiki.engines.screening.compare import compare_names
from hakiki.engines.screening.subject import Subject
from hakiki.engines.tax.formats import FormatProblem, parse_taxpayer_number
from hakiki.fraud import id_scan
from hakiki.fraud import sandbox as fraud_sandbox
from hakiki.identity.channels import document_channel
from hakiki.identity.verify import live_provider, sandbox_verify, verified_from
from hakiki.kyb import sandbox as kyb_sandbox
from hakiki.kyb.providers.base import RegistryOutcome, RegistryQuery
from hakiki.kyb.providers.registry import Registries
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.outcomes import ListDates
from hakiki.screening.aml_with_id import aml_result
from hakiki.tax import sandbox as tax_sandbox
from hakiki.tax import service as tax_service
from hakiki.tax.providers.base import LookupOutcome, TaxpayerRecord, TaxQuery


@dataclass(frozen=True)
class Candidate:
    """The candidate as the checks see it."""

    live: bool
    org_id: str
    environment: str
    country: str
    first_name: str
    last_name: str
    id_number: str | None
    date_of_birth: str | None
    tax_pin: str | None
    company_numbers: str | None = None


@dataclass(frozen=True)
class CheckOutcome:
    result: str  # clear | consider | unverifiable
    evidence: dict[str, Any]
    billable: bool = True  # an upstream outage is not charged

    @classmethod
    def unverifiable(cls, reason: str) -> CheckOutcome:
        return cls("unverifiable", {"reason": reason}, billable=False)


Runner = Callable[[Runtime, Candidate], Awaitable[CheckOutcome]]


@dataclass(frozen=True)
class _Names:
    """The names compared by the identity check (identity's PersonFields)."""

    first_name: str | None
    last_name: str | None
    compare: bool = True


async def identity(runtime: Runtime, who: Candidate) -> CheckOutcome:
    channel = document_channel("national_id", who.country)
    if channel is None or not who.id_number:
        return CheckOutcome.unverifiable("no national ID number to check")
    number = channel.normalise(who.id_number)
    if problem := channel.check(number):
        return CheckOutcome("consider", {"channel": channel.code, "format_problem": problem})
    if who.live:
        try:
            provider = live_provider(runtime, channel)
        except ApiError as error:
            return CheckOutcome.unverifiable(error.message)
        lookup = await provider.lookup(
            channel.country,
            channel.code,
            number,
            first_name=who.first_name,
            last_name=who.last_name,
        )
        verified = verified_from(lookup, "")
    else:
        verified = sandbox_verify(channel, number, _Names(who.first_name, who.last_name))
    evidence: dict[str, Any] = {"channel": channel.code, "provider": verified.provider}
    if verified.outcome is Outcome.NOT_FOUND:
        return CheckOutcome("consider", evidence | {"found": False})
    if verified.outcome is not Outcome.VERIFIED or verified.record is None:
        return CheckOutcome.unverifiable(f"the identity register answered {verified.outcome.name}")
    record = verified.record
    names = compare_names(
        who.first_name, who.last_name, record.first_name, record.middle_name, record.last_name
    )
    born_matches = (
        None
        if not (who.date_of_birth and record.date_of_birth)
        else who.date_of_birth == record.date_of_birth
    )
    evidence |= {
        "found": True,
        "name_match": names.match,
        "name_score": names.score,
        "date_of_birth_match": born_matches,
    }
    clear = names.match and born_matches is not False
    return CheckOutcome("clear" if clear else "consider", evidence)


async def _screen(runtime: Runtime, who: Candidate, checks: list[str]) -> CheckOutcome:
    engine = await runtime.part(ScreeningEngines).for_environment(who.live)
    subject = Subject(
        first_name=who.first_name,
        last_name=who.last_name,
        birth_date=who.date_of_birth,
        countries=(who.country,),
    )
    threshold = runtime.settings.aml_threshold
    result = await runtime.screen(
        engine, subject, tenant=who.org_id, checks=checks, threshold=threshold, limit=10
    )
    dates = (
        ListDates.of_engine(engine, runtime.settings)
        if who.live
        else ListDates.current((v.code for v in engine.lists), runtime.settings)
    )
    aml = aml_result(
        result, checks=checks, threshold=threshold, screened_name=subject.full_name, dates=dates
    )
    if aml.status == "INCOMPLETE":  # nothing hit, but a requested check did not run
        reasons = " ".join(u.reason for u in aml.unavailable)
        return CheckOutcome.unverifiable(f"not every list could be screened: {reasons}")
    hits = [
        {
            "check": hit.check,
            "list_code": hit.list_code,
            "entity_name": hit.entity_name,
            "matched_name": hit.matched_name,
            "score": hit.score,
        }
        for hit in aml.hits
    ]
    evidence = {
        "lists": [f"{used.code}@{used.version}" for used in aml.lists],
        "hits": hits,
        "threshold": threshold,
    }
    return CheckOutcome("consider" if hits else "clear", evidence)


async def sanctions_pep(runtime: Runtime, who: Candidate) -> CheckOutcome:
    return await _screen(runtime, who, ["sanction", "pep"])


async def adverse_media(runtime: Runtime, who: Candidate) -> CheckOutcome:
    return await _screen(runtime, who, ["adverse_media"])


async def fraud_database(runtime: Runtime, who: Candidate) -> CheckOutcome:
    channel = document_channel("national_id", who.country)
    if channel is None or not who.id_number:
        return CheckOutcome.unverifiable("no national ID number to look up")
    vault: Vault = runtime.vault
    scan = id_scan.prepare(vault, channel, who.id_number)
    if who.live:
        async with read(runtime.db) as conn:
            found = await id_scan.live_evidence(conn, who.environment, who.org_id, [scan.key])
        evidence, _seen = found[scan.key]
    else:
        evidence = fraud_sandbox.ID_SCAN.answer(scan.number)
    risk = assess(id_signals(scan.problem, evidence), runtime.settings.fraud_weights)
    details = {
        "risk_score": risk.score,
        "risk_level": risk.level,
        "signals": [signal.code for signal in risk.signals],
        "fraud_reports": evidence.reports,
    }
    return CheckOutcome("consider" if risk.level in ("HIGH", "CRITICAL") else "clear", details)


async def tax_compliance(runtime: Runtime, who: Candidate) -> CheckOutcome:
    if not who.tax_pin:
        return CheckOutcome.unverifiable("no tax PIN given")
    try:
        number = parse_taxpayer_number(who.country, who.tax_pin)
    except FormatProblem as problem:
        return CheckOutcome("consider", {"format_problem": str(problem)})
    query = TaxQuery(check="pin", country=who.country, pin=number.number)
    if who.live:
        try:
            provider = tax_service.live_provider(runtime, query)
        except ApiError as error:
            return CheckOutcome.unverifiable(error.message)
        lookup = await provider.lookup(query)
    else:
        answered = tax_sandbox.PIN.answer(query)
        lookup = answered if answered is not None else tax_sandbox.completed(query)
    if lookup.outcome is LookupOutcome.NOT_FOUND:
        return CheckOutcome("consider", {"pin": number.display, "found": False})
    if lookup.outcome is not LookupOutcome.FOUND or not isinstance(lookup.record, TaxpayerRecord):
        return CheckOutcome.unverifiable(f"the revenue authority answered {lookup.outcome.value}")
    record = lookup.record
    active = (record.pin_status or "").strip().lower() == "active"
    names = compare_names(who.first_name, who.last_name, None, None, record.name)
    evidence = {
        "pin": number.display,
        "found": True,
        "pin_status": record.pin_status,
        "taxpayer_name_match": names.match,
        "provider": lookup.provider,
    }
    return CheckOutcome("clear" if active else "consider", evidence)


def _is_director(who: Candidate, ownership: Ownership | None) -> bool:
    for director in ownership.directors if ownership else ():
        words = director.party.name.split()
        if len(words) < 2:
            continue
        names = compare_names(
            who.first_name, who.last_name, words[0], " ".join(words[1:-1]), words[-1]
        )
        if names.match:
            return True
    return False


async def _company(runtime: Runtime, who: Candidate, raw: str) -> dict[str, Any]:
    """One company the candidate says they direct: found, and the candidate among its
    directors (``unverifiable`` when the register could not say)."""
    try:
        number = parse_registration_number(who.country, raw)
    except RegistrationNumberError as problem:
        return {"number": raw, "result": "consider", "format_problem": str(problem)}
    query = RegistryQuery(who.country, number=number, ownership=True)
    if who.live:
        provider = runtime.part(Registries).find(query)
        if provider is None:
            return {"number": raw, "result": "unverifiable", "reason": "no register configured"}
        result = await provider.lookup(query)
    else:
        _outcome, result = kyb_sandbox.OWNERSHIP.answer(query)
    if result.outcome is RegistryOutcome.NOT_FOUND:
        return {"number": raw, "result": "consider", "found": False}
    if result.outcome is not RegistryOutcome.FOUND or result.company is None:
        reason = f"the register answered {result.outcome.value}"
        return {"number": raw, "result": "unverifiable", "reason": reason}
    director = _is_director(who, result.ownership)
    return {
        "number": raw,
        "result": "clear" if director else "consider",
        "found": True,
        "company_name": result.company.name,
        "company_status": result.company.status,
        "candidate_is_director": director,
    }


async def directorships(runtime: Runtime, who: Candidate) -> CheckOutcome:
    numbers = [n.strip() for n in (who.company_numbers or "").split(",") if n.strip()]
    if not numbers:
        return CheckOutcome.unverifiable("no company registration number given")
    companies = [await _company(runtime, who, number) for number in numbers[:5]]
    results = [c.pop("result") for c in companies]
    evidence = {"companies": companies}
    if "consider" in results:
        return CheckOutcome("consider", evidence)
    if "unverifiable" in results:
        return CheckOutcome("unverifiable", evidence, billable=False)
    return CheckOutcome("clear", evidence)


def _credit_flags(report: CreditReport) -> list[str]:
    """What makes a bureau report worth the organisation's review."""
    summary, flags = report.summary, []
    if summary.non_performing_accounts:
        flags.append("non_performing_accounts")
    if summary.max_days_past_due > 90:
        flags.append("arrears_over_90_days")
    if report.fraud_flag:
        flags.append("fraud_flag")
    if report.legal_cases:
        flags.append("legal_cases")
    return flags


async def credit_bureau(runtime: Runtime, who: Candidate) -> CheckOutcome:
    """The country's bureau report on the candidate's national ID (the candidate consented
    on the invitation form), summarised in counts: no amount, score or lender."""
    if reason := credit_service.national_id_unavailable(
        runtime, live=who.live, country=who.country
    ):
        return CheckOutcome.unverifiable(reason)
    if not who.id_number:
        return CheckOutcome.unverifiable("no national ID number given")
    try:
        pulled = await credit_service.national_id_report(
            runtime, live=who.live, country=who.country, id_number=who.id_number
        )
    except ApiError as error:
        return CheckOutcome.unverifiable(f"the bureau cannot take this number: {error.message}")
    evidence: dict[str, Any] = {"bureau": pulled.bureau}
    if pulled.outcome is PullOutcome.NOT_FOUND:
        # The bureau answered (and bills the enquiry): no file is no evidence either way.
        return CheckOutcome("unverifiable", evidence | {"found": False})
    if pulled.outcome is not PullOutcome.FOUND or pulled.report is None:
        return CheckOutcome.unverifiable(f"the credit bureau answered {pulled.outcome.value}")
    report = pulled.report
    flags = _credit_flags(report)
    evidence |= {
        "found": True,
        "file": report.file,
        "accounts": report.summary.accounts,
        "open_accounts": report.summary.open_accounts,
        "non_performing_accounts": report.summary.non_performing_accounts,
        "max_days_past_due": report.summary.max_days_past_due,
        "legal_cases": report.legal_cases,
        "fraud_flag": report.fraud_flag,
        "flags": flags,
        "retrieved_at": report.retrieved_at.isoformat(),
    }
    return CheckOutcome("consider" if flags else "clear", evidence)


RUNNERS: dict[str, Runner] = {
    "identity": identity,
    "sanctions_pep": sanctions_pep,
    "adverse_media": adverse_media,
    "fraud_database": fraud_database,
    "tax_compliance": tax_compliance,
    "directorships": directorships,
    "credit_bureau": credit_bureau,
}


async def run(runtime: Runtime, code: str, who: Candidate) -> CheckOutcome:
    runner = RUNNERS.get(code)
    if runner is None:
        return CheckOutcome.unverifiable(f"{code} has no automated runner on this server")
    return await runner(runtime, who)
