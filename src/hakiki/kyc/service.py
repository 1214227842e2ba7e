"""KYC verifications: a national ID, driver's licence or passport checked with its registry.

A live call waits up to ``HAKIKI_KYC_SYNC_SECONDS`` for the registry. Past that it answers
PENDING (charged, like every 05) and the verification continues: the look-up already under way
finishes it when it answers, and a durable job, enqueued in the same transaction as the pending
row, finishes it otherwise (after a crash, or while the registry is down). Sandbox PENDING
numbers (last digit 7) complete through the same job after a short, fixed delay.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.envelope import OUTCOMES, Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.runtime import Runtime
from hakiki.fraud import observations
from hakiki.fraud.keys import identifier_key
from hakiki.fraud.observations import person_values
from hakiki.identity.channels import Channel, document_channel
from hakiki.identity.providers.base import LookupResult
from hakiki.identity.providers.registry import Providers
from hakiki.identity.verify import NumberQuery, Verified, check_number, live_provider
from hakiki.kyc import repository, sandbox
from hakiki.kyc.completion import (
    COMPLETE_TASK,
    Names,
    billing_of,
    conclude,
    finish_in_background,
    from_lookup,
    result_of,
)
from hakiki.kyc.mrz import check_mrz
from hakiki.kyc.schemas import (
    Document,
    DocumentRef,
    KycBilling,
    KycRequest,
    KycResult,
    MrzSummary,
    PassportRequest,
)


@dataclass(frozen=True)
class Checked:
    """A request that passed validation: its document, channel and normalised number."""

    document: DocumentRef
    channel: Channel
    number: str
    mrz: MrzSummary | None


def check_request(document: Document, body: KycRequest) -> Checked:
    channel = document_channel(document, body.country_code)
    if channel is None:  # the schema admits only countries where every document exists
        raise ApiError(400, "invalid_request", f"No {document} channel in {body.country_code}.")
    number = check_number(channel, body.number, body)
    mrz = None
    if isinstance(body, PassportRequest) and isinstance(body.mrz, list):
        mrz = check_mrz(body.mrz, channel, number)
    ref = DocumentRef(type=document, country=channel.country, channel=channel.code)
    return Checked(ref, channel, number, mrz)


@dataclass
class Answer:
    verified: Verified
    provider_reference: str | None = None
    in_flight: asyncio.Task[LookupResult] | None = None  # the look-up past the sync budget


async def _live(call: Call, checked: Checked, body: KycRequest) -> Answer:
    provider = live_provider(call.runtime, checked.channel)
    await hold_price(call)
    reference = f"ref_{call.request_id.removeprefix('req_')}"
    lookup = asyncio.create_task(
        provider.lookup(
            checked.channel.country,
            checked.channel.code,
            checked.number,
            last_name=body.last_name,
            first_name=body.first_name,
        )
    )
    try:
        done, _ = await asyncio.wait({lookup}, timeout=call.runtime.settings.kyc_sync_seconds)
    except BaseException:
        lookup.cancel()
        raise
    if lookup in done:
        return Answer(*from_lookup(lookup.result(), reference))
    return Answer(Verified(Outcome.PENDING, provider.name, reference, None), in_flight=lookup)


def _job_delay(runtime: Runtime, live: bool) -> float:
    """When the job looks at a pending verification: live, once the look-up under way has had
    its whole timeout to finish it; sandbox, after the documented short delay."""
    settings = runtime.settings
    if live:  # a chain may try each of its providers, each within the timeout
        return settings.provider_timeout_seconds * runtime.part(Providers).longest_chain() + 5
    return settings.kyc_sandbox_pending_seconds


async def verify(call: Call, document: Document, body: KycRequest) -> bytes:
    checked = check_request(document, body)
    if call.principal.live:
        answer = await _live(call, checked, body)
    else:
        query = NumberQuery(checked.channel, checked.number, body)
        answer = Answer(sandbox.DOCUMENTS[document].answer(query))
    try:
        return await _finish(call, document, body, checked, answer)
    except BaseException:
        if answer.in_flight is not None:
            answer.in_flight.cancel()
        raise


async def _finish(
    call: Call, document: Document, body: KycRequest, checked: Checked, answer: Answer
) -> bytes:
    runtime, verified = call.runtime, answer.verified
    names = Names(body.compare, body.first_name, body.last_name)
    outcome, data = conclude(
        verified, names, checked.document, checked.mrz, runtime.settings.name_match_threshold
    )
    channel, now = checked.channel, utcnow()
    row: dict[str, Any] = {
        "id": new_id("vrf"),
        "org_id": call.principal.org_id,
        "environment": call.principal.environment,
        "reference": verified.reference,
        "endpoint": call.endpoint,
        "document": document,
        "country": channel.country,
        "channel": channel.code,
        "state": data.state,
        "outcome": outcome.value,
        "provider": verified.provider,
        "provider_reference": answer.provider_reference,
        "subject_hash": runtime.vault.lookup_hash(channel.country, channel.code, checked.number),
        "request_encrypted": runtime.vault.encrypt(
            json.dumps({"number": checked.number, **asdict(names)})
        ),
        "data_encrypted": runtime.vault.encrypt(data.model_dump_json()),
        "request_id": call.request_id,
        "created_at": now,
        "completed_at": None if outcome is Outcome.PENDING else now,
    }

    # The names the lender was given with the number feed the fraud scans' sightings.
    told = person_values(
        runtime.vault,
        names=(body.first_name, body.last_name),
        birth_date=None,
        phones=[],
        country=channel.country,
    )
    number_key = identifier_key(runtime.vault, checked.number)

    async def write(conn: AsyncConnection) -> None:
        inserted = await repository.insert_once(conn, row)
        if inserted and call.principal.live and told:
            await observations.record(
                conn, call.principal.environment, call.principal.org_id, [number_key], told
            )
        if inserted and outcome is Outcome.PENDING:
            delay = _job_delay(runtime, call.principal.live)
            payload = {"verification_id": row["id"]}
            await enqueue(conn, COMPLETE_TASK, payload, delay_seconds=delay)

    def render(charge: Charge | None) -> bytes:
        billing = KycBilling.of(charge, call.principal.currency)
        result = KycResult(
            request_id=call.request_id,
            live=call.principal.live,
            reference=verified.reference,
            provider=verified.provider,
            billing=billing,
            data=data,
            **envelope_fields(outcome),
        )
        return result.model_dump_json().encode()

    content = await finish_call(
        call,
        billable=OUTCOMES[outcome].billable,
        response_code=OUTCOMES[outcome].response_code,
        subject=Subject(channel.country, channel.code, checked.number),
        render=render,
        description=f"KYC {document}: {channel.country} {channel.code} ({outcome.value})",
        write=write,
    )
    if answer.in_flight is not None:
        finish_in_background(runtime, row["id"], answer.in_flight)
    return content


async def status(
    runtime: Runtime, principal: Principal, request_id: str, reference: str
) -> KycResult:
    """A verification of the caller's organisation and environment, as it stands now."""
    async with read(runtime.db) as conn:
        row = await repository.find(conn, principal.org_id, principal.environment, reference)
        if row is None:
            raise ApiError(
                404,
                "not_found",
                "No verification with this reference for this organisation and environment.",
            )
        billing = await billing_of(conn, row, principal.currency)
    return result_of(runtime, row, request_id, billing)
