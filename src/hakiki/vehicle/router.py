"""HTTP handler of the vehicle category (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.vehicle import service
from hakiki.vehicle.endpoints import VERIFY
from hakiki.vehicle.schemas import VehicleRequest, VehicleResult

router = EndpointRouter(tags=["Vehicle"])


@router.endpoint(VERIFY, response_model=VehicleResult)
async def verify(body: VehicleRequest, call: Call) -> bytes:
    """Checks a vehicle by exactly one of `vin`, `chassis_number` (a Japanese frame number
    such as `NZE121-1234567`, or a VIN) or `registration_number` (a Kenyan plate). The
    identifier is decoded locally in both modes (`data.decoded`: VIN maker, region, model
    years and check digit; chassis model code, maker and family; plate category) and the
    registry's copy of records is returned in `data.vehicle` (owner, logbook number, caveats,
    engine number, make, model, body, colour, year of manufacture, registration date). With
    `owner_name`, the registered owners are compared with it (`data.owner_comparison`; a
    different owner is MISMATCH). A slow registry answers PENDING and a verification.completed
    or verification.failed webhook reports the end. Live: one charge per billable answer (none
    for 02 or 09); sandbox: the identifier's last digit picks the outcome (KCA 100A is found,
    KCA 105A not found)."""
    return await service.verify(call, body)
