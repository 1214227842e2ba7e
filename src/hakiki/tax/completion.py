"""How a pending tax check finishes, for the shared mechanism (core/registry_checks): the
registry asked again (sandbox: the documented completion), the outcome concluded from its
answer, and the event, without a PIN or a name."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from typing import Any

from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.core.registry_checks.kinds import CheckKind, Final, Row, event_basics, register
from hakiki.core.runtime import Runtime
from hakiki.tax import sandbox
from hakiki.tax.conclude import Concluded, Data, conclude
from hakiki.tax.providers.base import LookupOutcome, TaxLookup, TaxQuery
from hakiki.tax.providers.registry import TaxProviders
from hakiki.webhooks.service import emit

EAST_AFRICA = timezone(timedelta(hours=3))  # KE, UG and TZ: certificates expire by local date


def today() -> date:
    return datetime.now(EAST_AFRICA).date()


def message_of(concluded: Concluded) -> str:
    return concluded.message or OUTCOMES[concluded.outcome].message


def stored_query(runtime: Runtime, row: Row) -> TaxQuery:
    return TaxQuery.from_dict(json.loads(runtime.vault.decrypt(row["request_encrypted"])))


async def _ask_again(runtime: Runtime, row: Row) -> TaxLookup:
    query = stored_query(runtime, row)
    if row["environment"] != "live":
        return sandbox.completed(query)
    provider = runtime.part(TaxProviders).find(query)
    if provider is None:  # the operator removed it since
        return TaxLookup(LookupOutcome.UNAVAILABLE, row["provider"], message="provider removed")
    return await provider.lookup(query)


async def _conclude(runtime: Runtime, row: Row, lookup: TaxLookup) -> Final:
    concluded = conclude(stored_query(runtime, row), lookup, today())
    outcome, data = concluded.outcome, concluded.data
    return Final(
        outcome,
        data,
        message_of(concluded),
        lookup.provider_reference,
        event_data(row, outcome, data),
        provider=lookup.provider,
    )


def event_data(row: Row, outcome: Outcome, data: Data) -> dict[str, Any]:
    """The event names the check and its outcome, never a PIN or a name: receivers fetch the
    result with GET /v3/tax/status/{reference}."""
    return {
        **event_basics(row, outcome, found=data.status == "FOUND"),
        "check": {"type": f"tax.{data.check}", "country": data.country},
        "verdict": data.verdict,
    }


TAX_CHECK = register(
    CheckKind(category="tax", noun="tax check", ask_again=_ask_again, conclude=_conclude, emit=emit)
)
