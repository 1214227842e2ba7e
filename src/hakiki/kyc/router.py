"""HTTP handlers of the KYC category (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.kyc import service
from hakiki.kyc.endpoints import DRIVERS_LICENSE, NATIONAL_ID, PASSPORT, STATUS
from hakiki.kyc.schemas import DriversLicenseRequest, KycResult, NationalIdRequest, PassportRequest

router = EndpointRouter(tags=["KYC"])


@router.endpoint(NATIONAL_ID, response_model=KycResult)
async def national_id(body: NationalIdRequest, call: Call) -> bytes:
    """A slow registry answers PENDING with a reference; poll GET /v3/kyc/status/{reference}
    or wait for the verification.completed / verification.failed webhook."""
    return await service.verify(call, "national_id", body)


@router.endpoint(DRIVERS_LICENSE, response_model=KycResult)
async def drivers_license(body: DriversLicenseRequest, call: Call) -> bytes:
    return await service.verify(call, "drivers_license", body)


@router.endpoint(PASSPORT, response_model=KycResult)
async def passport(body: PassportRequest, call: Call) -> bytes:
    return await service.verify(call, "passport", body)


@router.endpoint(STATUS, response_model=KycResult)
async def status(reference: str, call: Call) -> KycResult:
    return await service.status(call.runtime, call.principal, call.request_id, reference)
