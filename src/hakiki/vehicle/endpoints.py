"""The vehicle category's entry in the endpoint catalogue (docs/api.md#vehicle)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.vehicle import sandbox

VERIFY = declare(
    Endpoint(
        key="vehicle.verify",
        method="POST",
        path="/v3/vehicle/verify",
        scope="vehicle:read",
        summary="Check a vehicle by VIN, chassis number or registration number (KE, NG plates)",
        price=1500,
        errors=(400, 402, 409, 503),
        sandbox=sandbox.VERIFY,
        max_body_bytes=16 * 1024,
    )
)
STATUS = declare(
    Endpoint(
        key="vehicle.status",
        method="GET",
        path="/v3/vehicle/status/{reference}",
        scope="vehicle:read",
        summary="A vehicle check as it stands (poll a PENDING one until it is final)",
        errors=(404,),
    )
)
