"""POST /v3/vehicle/verify: the identifier decoded locally (both modes, always in the answer),
then the registry's record, compared with owner_name when one is sent.

A live call waits up to ``HAKIKI_VEHICLE_SYNC_SECONDS`` for the registry; past that it answers
PENDING (charged, like every 05) and the check continues: the look-up under way finishes it,
or a durable job enqueued with the pending row does (after a crash, or while the registry is
down); either sends the webhook (core/registry_checks). Every check is stored (encrypted) so
GET /v3/vehicle/status/{reference} serves it. Sandbox identifiers ending in 7 complete through
the job.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hakiki.core.auth import Principal
from hakiki.core.billing import Charge
from hakiki.core.calls import Call, hold_price
from hakiki.core.envelope import Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.registry_checks.recording import (
    cancelled_on_error,
    check_row,
    live_reference,
    settle,
    within_budget,
)
from hakiki.core.registry_checks.schemas import CheckBilling
from hakiki.core.registry_checks.status import stored_result
from hakiki.core.runtime import Runtime
from hakiki.engines.vehicle import Decoded, IdentifierError, decode
from hakiki.vehicle import sandbox
from hakiki.vehicle.compare import name_words
from hakiki.vehicle.completion import VEHICLE_CHECK
from hakiki.vehicle.lookup import Looked, looked_from, search_by
from hakiki.vehicle.registry import OwnerNames, VehicleRegistries, VehicleRegistry
from hakiki.vehicle.results import conclude, message_of
from hakiki.vehicle.schemas import IdentifierField, VehicleRequest, VehicleResult

FIELDS: tuple[IdentifierField, ...] = ("vin", "chassis_number", "registration_number")


def _invalid(message: str, problems: list[tuple[str, str]]) -> ApiError:
    details = [{"field": field, "problem": problem} for field, problem in problems]
    return ApiError(400, "invalid_request", message, details=details)


@dataclass(frozen=True)
class Checked:
    """A request as checked: the identifier decoded, the name compared with the registered
    owners (owner_name, else the first and last names), and those names when both came."""

    decoded: Decoded
    owner_name: str | None
    names: OwnerNames | None


def _words(value: str | None) -> str | None:
    return " ".join(value.split()) or None if value is not None else None


def owner_names(first: str | None, last: str | None) -> OwnerNames | None:
    first, last = _words(first), _words(last)
    return OwnerNames(first, last) if first and last else None


def compared_name(owner_name: str | None, names: OwnerNames | None) -> str | None:
    if owner_name is not None:
        return owner_name
    return f"{names.first} {names.last}" if names is not None else None


def check_request(body: VehicleRequest) -> Checked:
    """The decoded identifier and the owner's names, or a 400 naming the fields."""
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
    if body.country_code == "NG" and field != "registration_number":
        problem = (
            "Nigerian vehicle checks search by plate (the aggregator's documented Nigerian "
            "look-up); send registration_number"
        )
        raise _invalid(f"{field}: {problem}.", [(field, problem)])
    try:
        decoded = decode(field, getattr(body, field), body.country_code)
    except IdentifierError as error:
        raise _invalid(f"{field}: {error.problem}.", [(field, error.problem)]) from None
    owner = " ".join(body.owner_name.split()) if body.owner_name is not None else None
    if owner is not None and name_words(owner) < 2:
        problem = "give at least two names (first and last, or the company's name)"
        raise _invalid(f"owner_name: {problem}.", [("owner_name", problem)])
    for name_field in ("owner_first_name", "owner_last_name"):
        if getattr(body, name_field) is not None and _words(getattr(body, name_field)) is None:
            problem = "give the name, not only spaces"
            raise _invalid(f"{name_field}: {problem}.", [(name_field, problem)])
    names = owner_names(body.owner_first_name, body.owner_last_name)
    return Checked(decoded, compared_name(owner, names), names)


def live_registry(call: Call, country: str) -> VehicleRegistry:
    registry = call.runtime.part(VehicleRegistries).find(country)
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
    in_flight: asyncio.Task[Looked] | None = None  # the look-up past the sync budget


async def look_up(
    registry: VehicleRegistry, decoded: Decoded, names: OwnerNames | None, reference: str
) -> Looked:
    result = await registry.lookup(
        search_by(decoded), decoded.query_value, country=decoded.country, owner=names
    )
    return looked_from(result, reference)


async def _live(call: Call, checked: Checked) -> Answer:
    decoded = checked.decoded
    registry = live_registry(call, decoded.country)
    await hold_price(call)
    reference = live_reference(call)
    seconds = call.runtime.settings.vehicle_sync_seconds
    asked = look_up(registry, decoded, checked.names, reference)
    looked, in_flight = await within_budget(asked, seconds)
    if looked is None:
        return Answer(Looked(Outcome.PENDING, registry.name, reference, None), in_flight)
    return Answer(looked)


async def verify(call: Call, body: VehicleRequest) -> bytes:
    checked = check_request(body)
    if call.principal.live:
        answer = await _live(call, checked)
    else:
        query = sandbox.VehicleQuery(checked.decoded, checked.owner_name)
        answer = Answer(sandbox.VERIFY.answer(query))
    with cancelled_on_error(answer.in_flight):
        return await _finish(call, checked, answer)


async def _finish(call: Call, checked: Checked, answer: Answer) -> bytes:
    runtime, looked = call.runtime, answer.looked
    decoded, owner_name, names = checked.decoded, checked.owner_name, checked.names
    threshold = runtime.settings.name_match_threshold
    outcome, data = conclude(decoded, looked, owner_name, threshold)
    row = check_row(
        call,
        VEHICLE_CHECK,
        reference=looked.reference,
        outcome=outcome,
        message=message_of(outcome, looked),
        provider=looked.provider,
        provider_reference=looked.provider_reference,
        subject_hash=runtime.vault.lookup_hash(
            decoded.country, f"vehicle_{decoded.kind}", decoded.value
        ),
        request={
            "field": decoded.field,
            "value": decoded.value,
            "owner_name": owner_name,
            "owner_first_name": names.first if names is not None else None,
            "owner_last_name": names.last if names is not None else None,
            "country": decoded.country,
        },
        data=data,
    )

    def render(charge: Charge | None) -> bytes:
        result = VehicleResult(
            request_id=call.request_id,
            live=call.principal.live,
            reference=looked.reference,
            provider=looked.provider,
            billing=CheckBilling.of(charge, call.principal.currency),
            data=data,
            **{**envelope_fields(outcome), "message": message_of(outcome, looked)},
        )
        return result.model_dump_json().encode()

    return await settle(
        call,
        VEHICLE_CHECK,
        row,
        in_flight=answer.in_flight,
        sandbox_pending_seconds=runtime.settings.vehicle_sandbox_pending_seconds,
        subject=None,
        render=render,
        description=f"Vehicle check: {decoded.kind} ({outcome.value})",
    )


async def status(
    runtime: Runtime, principal: Principal, request_id: str, reference: str
) -> VehicleResult:
    """A vehicle check of the caller's organisation and environment, as it stands now."""
    return await stored_result(
        runtime, principal, request_id, VEHICLE_CHECK, reference, VehicleResult
    )
