"""Building a KYB result's data, and how a pending KYB check finishes for the shared mechanism
(core/registry_checks): the registry asked again (sandbox: the documented completion), the
data built from its answer (owners screened), and the event, without a person's name."""

from __future__ import annotations

import json
from typing import Any

from hakiki.core.auth import Principal
from hakiki.core.clock import utcnow
from hakiki.core.envelope import Outcome
from hakiki.core.registry_checks.kinds import CheckKind, Final, Row, event_basics, register
from hakiki.core.runtime import Runtime
from hakiki.kyb import mock_registry
from hakiki.kyb.owners import screen_owners
from hakiki.kyb.providers.base import RegistryOutcome, RegistryQuery, RegistryResult
from hakiki.kyb.providers.registry import Registries
from hakiki.kyb.queries import Options, restored
from hakiki.kyb.results import MESSAGES, OUTCOME_OF, Answer, business_data, ownership_data
from hakiki.kyb.schemas import KybData, OwnershipData
from hakiki.webhooks.service import emit


def statement_date(live: bool) -> str:
    """BODS statements are dated the day the register was read (fixed in the sandbox)."""
    return utcnow().date().isoformat() if live else mock_registry.SANDBOX_STATEMENT_DATE


async def build_data(
    runtime: Runtime,
    principal: Principal,
    query: RegistryQuery,
    answer: Answer,
    options: Options,
    date: str,
) -> KybData | OwnershipData:
    if not query.ownership:
        return business_data(query, answer)
    result = answer.result
    screened = None
    if options.screen_owners and result is not None and result.ownership is not None:
        threshold = options.threshold or runtime.settings.aml_threshold
        screened = await screen_owners(
            runtime, principal, result.ownership, checks=list(options.checks), threshold=threshold
        )
    return ownership_data(query, answer, screened, date)


def _owner(row: Row) -> Principal:
    """The organisation a pending check belongs to, as the screening's reviews look it up (only
    the organisation and environment are read)."""
    return Principal(
        key_id="",
        client_id="",
        environment=row["environment"],
        scopes=frozenset(),
        org_id=row["org_id"],
        org_name="",
        approved=True,
        currency="",
    )


async def _ask_again(runtime: Runtime, row: Row) -> RegistryResult:
    query, _, _ = restored(json.loads(runtime.vault.decrypt(row["request_encrypted"])))
    if row["environment"] != "live":
        return mock_registry.completed(query)
    registries = runtime.part(Registries)
    provider = registries.find(query) or registries.named(row["provider"])
    if provider is None:  # the operator removed it since
        gone = RegistryOutcome.UNAVAILABLE
        return RegistryResult(gone, row["provider"], message="not configured")
    return await provider.lookup(query)


async def _conclude(runtime: Runtime, row: Row, result: RegistryResult) -> Final:
    request = json.loads(runtime.vault.decrypt(row["request_encrypted"]))
    query, options, registry = restored(request)
    outcome = OUTCOME_OF[result.outcome]
    answer = Answer(outcome, result, result.provider or row["provider"], registry)
    data = await build_data(
        runtime, _owner(row), query, answer, options, statement_date(row["environment"] == "live")
    )
    event = event_data(row, outcome, data)
    return Final(outcome, data, MESSAGES[outcome], result.reference, event, result.provider)


def event_data(row: Row, outcome: Outcome, data: KybData) -> dict[str, Any]:
    """The outcome, the company as the register holds it (a legal entity's public record) and
    the owners' screening in counts; no person's name, since events are stored in clear
    (docs/decisions.md, "KYB"): the owners come with GET /v3/kyb/status/{reference}."""
    company = data.company
    event: dict[str, Any] = {
        **event_basics(row, outcome, found=data.status == "FOUND"),
        "endpoint": row["endpoint"],
        "company": company.model_dump(mode="json", include=_COMPANY_FIELDS) if company else None,
    }
    if isinstance(data, OwnershipData):
        screening = data.screening
        event["screening"] = (
            {
                "status": screening.status,
                "parties_screened": screening.parties_screened,
                "hits": screening.hits,
                "parties_with_hits": len(screening.parties_with_hits),
            }
            if screening is not None
            else None
        )
    return event


_COMPANY_FIELDS = {
    "name", "registration_number", "country", "entity_type", "status", "registration_date",
    "dissolution_date",
}  # fmt: skip


KYB_CHECK = register(
    CheckKind(category="kyb", noun="KYB check", ask_again=_ask_again, conclude=_conclude, emit=emit)
)
