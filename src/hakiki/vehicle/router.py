"""HTTP handlers of the vehicle category (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.vehicle import service
from hakiki.vehicle.endpoints import STATUS, VERIFY
from hakiki.vehicle.schemas import VehicleRequest, VehicleResult

router = EndpointRouter(tags=["Vehicle"])


@router.endpoint(VERIFY, response_model=VehicleResult)
async def verify(body: VehicleRequest, call: Call) -> bytes:
    """Checks a vehicle by exactly one of `vin`, `chassis_number` (a Japanese frame number
    such as `NZE121-1234567`, or a VIN) or `registration_number` (a Kenyan plate; with
    `country_code` NG, a Nigerian plate such as `KJA-123AB`, the only Nigerian identifier). The
    identifier is decoded locally in both modes (`data.decoded`: VIN maker, region, model
    years and check digit; chassis model code, maker and family; plate category, and a
    Nigerian plate's issuing LGA and state) and the
    registry's copy of records is returned in `data.vehicle` (owner, logbook number, caveats,
    engine number, make, model, body, colour, year of manufacture, registration date). With
    `owner_name`, the registered owners are compared with it (`data.owner_comparison`; a
    different owner is MISMATCH). A slow registry answers PENDING: poll GET
    /v3/vehicle/status/{reference}, or wait for the verification.completed (or .failed)
    webhook. Live: one charge per billable answer (none for 02 or 09); sandbox: the
    identifier's last digit picks the outcome (KCA 100A is found, KCA 105A not found)."""
    return await service.verify(call, body)


@router.endpoint(STATUS, response_model=VehicleResult)
async def status(reference: str, call: Call) -> VehicleResult:
    """The vehicle check `reference` names, as it stands, in the envelope the check answered
    (`request_id` is this call's own): poll a PENDING one until `data.state` is `completed` or
    `failed`, or fetch the record (owners, logbook, caveats) that a verification.completed
    webhook reported without them. Another organisation's or environment's reference is 404.
    Free. Sandbox: an identifier ending in 7 completes a few seconds after it was sent
    (HAKIKI_VEHICLE_SANDBOX_PENDING_SECONDS)."""
    return await service.status(call.runtime, call.principal, call.request_id, reference)
