"""How a pending vehicle check finishes, for the shared mechanism (core/registry_checks): the
registry asked again (sandbox: the documented completion), the outcome concluded from its
record, and the event, without the owner's name or ID nor the logbook number."""

from __future__ import annotations

import json
from typing import Any

from hakiki.core.envelope import Outcome
from hakiki.core.registry_checks.kinds import CheckKind, Final, Row, event_basics, register
from hakiki.core.runtime import Runtime
from hakiki.engines.vehicle import Decoded, decode
from hakiki.vehicle import sandbox
from hakiki.vehicle.lookup import Looked, looked_from, search_by
from hakiki.vehicle.registry import OwnerNames, VehicleRegistries
from hakiki.vehicle.results import conclude, message_of
from hakiki.vehicle.schemas import VehicleData
from hakiki.webhooks.service import emit


def stored_request(runtime: Runtime, row: Row) -> tuple[Decoded, str | None]:
    """The identifier (decoded again: the engine is deterministic) and the name compared with
    the registered owners (owner_name, else the first and last names)."""
    decoded, owner_name, _ = _stored(runtime, row)
    return decoded, owner_name


def _stored(runtime: Runtime, row: Row) -> tuple[Decoded, str | None, OwnerNames | None]:
    request = json.loads(runtime.vault.decrypt(row["request_encrypted"]))
    country = request.get("country", "KE")  # checks stored before NG plates were KE
    # checks stored before QoreID have no first and last names
    first, last = request.get("owner_first_name"), request.get("owner_last_name")
    names = OwnerNames(first, last) if first and last else None
    owner_name = request["owner_name"]
    if owner_name is None and names is not None:
        owner_name = f"{names.first} {names.last}"
    return decode(request["field"], request["value"], country), owner_name, names


async def _ask_again(runtime: Runtime, row: Row) -> Looked:
    decoded, owner_name, names = _stored(runtime, row)
    if row["environment"] != "live":
        return sandbox.VERIFY.completed(sandbox.VehicleQuery(decoded, owner_name))
    registry = runtime.part(VehicleRegistries).find(decoded.country)
    if registry is None:  # the operator removed it since
        return Looked(Outcome.SOURCE_UNAVAILABLE, row["provider"], row["reference"], None)
    result = await registry.lookup(
        search_by(decoded), decoded.query_value, country=decoded.country, owner=names
    )
    return looked_from(result, row["reference"])


async def _conclude(runtime: Runtime, row: Row, looked: Looked) -> Final:
    decoded, owner_name = stored_request(runtime, row)
    threshold = runtime.settings.name_match_threshold
    outcome, data = conclude(decoded, looked, owner_name, threshold)
    return Final(
        outcome,
        data,
        message_of(outcome, looked),
        looked.provider_reference,
        event_data(row, outcome, data),
        provider=looked.provider,
    )


def event_data(row: Row, outcome: Outcome, data: VehicleData) -> dict[str, Any]:
    """References, the outcome and the vehicle's description; never the owner's name or ID,
    nor the logbook number: receivers fetch those with GET /v3/vehicle/status/{reference}."""
    vehicle = data.vehicle
    return {
        **event_basics(row, outcome, found=data.status == "FOUND"),
        "identifier_kind": data.identifier.kind,
        "owner_match": data.owner_comparison.match if data.owner_comparison else None,
        "vehicle": None
        if vehicle is None
        else {
            "make": vehicle.make,
            "model": vehicle.model,
            "body_type": vehicle.body_type,
            "colour": vehicle.colour,
            "year_of_manufacture": vehicle.year_of_manufacture,
            "registration_date": vehicle.registration_date,
            "caveats": len(vehicle.caveats),
        },
        "warnings": data.warnings,
    }


VEHICLE_CHECK = register(
    CheckKind(
        category="vehicle",
        noun="vehicle check",
        ask_again=_ask_again,
        conclude=_conclude,
        emit=emit,
    )
)
