"""Composite identity risk from a flexible payload: every identifier, phone, e-mail, the
address and the IP are checked with the same rules as the single scans, and the signals are
combined into one explained score (a rule counts once, with every reason)."""

from __future__ import annotations

import ipaddress

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.database import read
from hakiki.core.errors import ApiError
from hakiki.engines.address import parse_address
from hakiki.engines.fraud.risk import (
    AddressEvidence,
    address_signals,
    assess,
    combine,
    id_signals,
    phone_signals,
)
from hakiki.fraud import id_scan, phone_scan, repository, sandbox
from hakiki.fraud.keys import address_key, email_key
from hakiki.fraud.scan_schemas import (
    IdentityRiskRequest,
    IdentityRiskResult,
    RiskIdentifier,
    risk_out,
    scan_answer,
)
from hakiki.identity.channels import find_channel
from hakiki.identity.verify import country_hint_or_400


async def _identifier(call: Call, item: RiskIdentifier, field: str) -> list[tuple[str, str]]:
    channel = find_channel(item.channel, item.country_code)
    if channel is None:
        raise ApiError(
            400, "invalid_request", f"Unknown channel {item.channel!r}.",
            details=[{"field": field, "problem": "unknown channel"}],
        )  # fmt: skip
    country_hint_or_400(channel, item.country_code, item.number, f"{field}.country_code")
    scanned = id_scan.prepare(call.runtime.vault, channel, item.number)
    principal = call.principal
    if principal.live:
        async with read(call.runtime.db) as conn:
            found = await id_scan.live_evidence(
                conn, principal.environment, principal.org_id, [scanned.key]
            )
        evidence = found[scanned.key][0]
    else:
        evidence = sandbox.ID_SCAN.answer(scanned.number)
    return id_signals(scanned.problem, evidence)


async def _phone(call: Call, text: str, country: str | None) -> list[tuple[str, str]]:
    lookup = phone_scan.prepare(call.runtime.vault, text, country)
    if call.principal.live:
        async with read(call.runtime.db) as conn:
            principal = call.principal
            found = await phone_scan.live_evidence(
                conn, principal.environment, principal.org_id, [lookup]
            )
        evidence = found[0]
    else:
        evidence = sandbox.PHONE.answer(text)
    analysis = lookup.analysis
    return phone_signals(None if analysis.valid else analysis.reason, analysis.line_type, evidence)


async def _reported(call: Call, kind: str, key: str, code: str, what: str) -> list[tuple[str, str]]:
    if not call.principal.live:
        return []
    async with read(call.runtime.db) as conn:
        found = await repository.signals(conn, call.principal.environment, [(kind, key)])
    if not found["reports"]:
        return []
    return [(code, f"{found['reports']} fraud report(s) give this {what}")]


def _ip(text: str) -> list[tuple[str, str]]:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        raise ApiError(
            400, "invalid_request", f"ip: {text!r} is not an IP address.",
            details=[{"field": "ip", "problem": "not an IP address"}],
        ) from None  # fmt: skip
    if address.is_global:
        return []
    return [("ip_not_public", f"{address} is not a public address (private, loopback, ...)")]


async def assess_identity(call: Call, body: IdentityRiskRequest) -> bytes:
    runtime = call.runtime
    vault, country = runtime.vault, body.country_code
    if not (body.identifiers or body.phones or body.emails or body.address or body.ip):
        raise ApiError(
            400, "invalid_request", "Send at least one identifier, phone, e-mail, address or IP.",
            details=[{"field": "identifiers", "problem": "nothing to check"}],
        )  # fmt: skip
    if body.address and not country:
        raise ApiError(
            400, "invalid_request", "An address needs its country_code (KE, UG, TZ or NG).",
            details=[{"field": "country_code", "problem": "required with address"}],
        )  # fmt: skip
    parts = [
        await _identifier(call, item, f"identifiers.{n}") for n, item in enumerate(body.identifiers)
    ]
    parts += [await _phone(call, phone, country) for phone in body.phones]
    for email in body.emails:
        key = email_key(vault, email)
        parts.append(await _reported(call, "email", key, "email_reported", "e-mail address"))
    if body.address and country:
        analysis = parse_address(body.address, country)
        reported = await _reported(
            call, "address", address_key(vault, country, body.address), "address_reported",
            "address",
        )  # fmt: skip
        evidence = AddressEvidence(analysis.match, analysis.conflicts, analysis.other_countries)
        parts += [address_signals(evidence), reported]
    if body.ip:
        parts.append(_ip(body.ip))
    risk = assess(combine(parts), runtime.settings.fraud_weights)
    checked = {
        "identifiers": len(body.identifiers), "phones": len(body.phones),
        "emails": len(body.emails), "addresses": int(bool(body.address)), "ips": int(bool(body.ip)),
    }  # fmt: skip

    def render(charge: Charge | None) -> bytes:
        return scan_answer(
            IdentityRiskResult,
            call,
            charge,
            reference="fir_" + call.request_id.removeprefix("req_"),
            risk=risk_out(risk),
            checked=checked,
        )

    return await finish_call(
        call, billable=True, response_code=None, subject=None, render=render,
        description="Fraud identity risk",
    )  # fmt: skip
