"""POST /v3/vehicle/verify: the identifier decoded locally (both modes, always in the answer),
then the registry's record, compared with owner_name when one is sent.

A live call waits up to ``HAKIKI_VEHICLE_SYNC_SECONDS`` for the registry; past that it answers
PENDING (charged, like every 05) and the check continues: the look-up under way finishes it,
or a durable job enqueued with the pending row does (after a crash, or while the registry is
down); either sends the webhook. Sandbox identifiers ending in 7 complete through the job.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call, hold_price
from hakiki.core.clock import utcnow
from hakiki.core.envelope import OUTCOMES, Billing, Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.engines.vehicle import Decoded, IdentifierError, decode
from hakiki.vehicle import repository, sandbox
from hakiki.vehicle.compare import name_words
from hakiki.vehicle.completion import COMPLETE_TASK, finish_in_background
from hakiki.vehicle.lookup import Looked, looked_from
from hakiki.vehicle.registry import RegistryResult, SearchBy, VehicleRegistries, VehicleRegistry
from hakiki.vehicle.results import MESSAGES, conclude
from hakiki.vehicle.schemas import IdentifierField, VehicleRequest, VehicleResult

FIELDS: tuple[IdentifierField, ...] = ("vin", "chassis_number", "registration_number")


def _invalid(message: str, problems: list[tuple[str, str]]) -> ApiError:
    details = [{"field": field, "problem": problem} for field, problem in problems]
    return ApiError(400, "invalid_request", message, details=details)


def check_request(body: VehicleRequest) -> tuple[Decoded, str | None]:
    """The decoded identifier and the owner name, or a 400 naming the fields."""
    given = [f for f in FIELDS if getattr(body, f) is not None]
    if len(given) != 1:
        named = given or list(FIELDS)
        problem = "send only one identifier" if given else "one identifier is required"
        raise _invalid(
            f"Send exactly one of vin, chassis_number or registration_number; got "
            f"{', '.join(given) if given else 'none'}.",
            [(f, problem) for f in named],
        )
    field = given[0]
    try:
        decoded = decode(field, getattr(body, field))
    except IdentifierError as error:
        raise _invalid(f"{field}: {error.problem}.", [(field, error.problem)]) from None
    owner = " ".join(body.owner_name.split()) if body.owner_name is not None else None
    if owner is not None and name_words(owner) < 2:
        problem = "give at least two names (first and last, or the company's name)"
        raise _invalid(f"owner_name: {problem}.", [("owner_name", problem)])
    return decoded, owner


def search_by(decoded: Decoded) -> SearchBy:
    return "registration_number" if decoded.plate is not None else "chassis_number"


def live_registry(call: Call) -> VehicleRegistry:
    registry = call.runtime.part(VehicleRegistries).registry
    if registry is None:
        raise ApiError(
            503,
            "channel_unavailable",
            "No vehicle registry is configured for live mode on this server; nothing was "
            "charged. Sandbox keys work without one.",
        )
    return registry


@dataclass
class Answer:
    looked: Looked
    in_flight: asyncio.Task[RegistryResult] | None = None  # the look-up past the sync budget


async def _live(call: Call, decoded: Decoded) -> Answer:
    registry = live_registry(call)
    await hold_price(call)
    reference = f"ref_{call.request_id.removeprefix('req_')}"
    lookup = asyncio.create_task(registry.lookup(search_by(decoded), decoded.value))
    try:
        done, _ = await asyncio.wait({lookup}, timeout=call.runtime.settings.vehicle_sync_seconds)
    except BaseException:
        lookup.cancel()
        raise
    if lookup in done:
        return Answer(looked_from(lookup.result(), reference))
    return Answer(Looked(Outcome.PENDING, registry.name, reference, None), in_flight=lookup)


async def verify(call: Call, body: VehicleRequest) -> bytes:
    decoded, owner_name = check_request(body)
    if call.principal.live:
        answer = await _live(call, decoded)
    else:
        answer = Answer(sandbox.VERIFY.answer(sandbox.VehicleQuery(decoded, owner_name)))
    try:
        return await _finish(call, decoded, owner_name, answer)
    except BaseException:
        if answer.in_flight is not None:
            answer.in_flight.cancel()
        raise


def _job_delay(call: Call) -> float:
    settings = call.runtime.settings
    if call.principal.live:  # once the look-up under way has had its whole timeout
        return settings.provider_timeout_seconds + 5
    return settings.vehicle_sandbox_pending_seconds


async def _finish(call: Call, decoded: Decoded, owner_name: str | None, answer: Answer) -> bytes:
    runtime, looked = call.runtime, answer.looked
    threshold = runtime.settings.name_match_threshold
    outcome, data = conclude(decoded, looked, owner_name, threshold)
    row: dict[str, Any] | None = None
    if outcome is Outcome.PENDING:
        row = {
            "id": new_id("vhc"),
            "org_id": call.principal.org_id,
            "environment": call.principal.environment,
            "reference": looked.reference,
            "kind": decoded.kind,
            "state": data.state,
            "outcome": outcome.value,
            "provider": looked.provider,
            "provider_reference": None,
            "subject_hash": runtime.vault.lookup_hash(
                "KE", f"vehicle_{decoded.kind}", decoded.value
            ),
            "request_encrypted": runtime.vault.encrypt(
                json.dumps(
                    {"field": decoded.field, "value": decoded.value, "owner_name": owner_name}
                )
            ),
            "data_encrypted": runtime.vault.encrypt(data.model_dump_json()),
            "request_id": call.request_id,
            "created_at": utcnow(),
            "completed_at": None,
        }

    async def write(conn: AsyncConnection) -> None:
        if row is not None and await repository.insert_once(conn, row):
            payload = {"check_id": row["id"]}
            await enqueue(conn, COMPLETE_TASK, payload, delay_seconds=_job_delay(call))

    def render(charge: Charge | None) -> bytes:
        result = VehicleResult(
            request_id=call.request_id,
            live=call.principal.live,
            reference=looked.reference,
            provider=looked.provider,
            billing=Billing.of(charge, call.principal.currency),
            data=data,
            **{**envelope_fields(outcome), "message": MESSAGES[outcome]},
        )
        return result.model_dump_json().encode()

    content = await finish_call(
        call,
        billable=OUTCOMES[outcome].billable,
        response_code=OUTCOMES[outcome].response_code,
        subject=None,
        render=render,
        description=f"Vehicle check: {decoded.kind} ({outcome.value})",
        write=write if row is not None else None,
    )
    if answer.in_flight is not None and row is not None:
        finish_in_background(runtime, row["id"], answer.in_flight)
    return content
