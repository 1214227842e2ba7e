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
    """Verifies a national identity number (NG NIN, KE national ID, UG NIN, TZ NIDA: the
    `country_code` picks it) with its registry and answers the verification envelope
    (`status`, `response_code`, ...) with the record (`data.identity`) and, with `compare`,
    the name comparison. A slow registry answers PENDING with a reference; poll
    GET /v3/kyc/status/{reference} or wait for the verification.completed /
    verification.failed webhook. Live: one charge per billable answer (none for 02 or 09);
    sandbox: the last digit picks the outcome (KE 20000000 is Wanjiru Akinyi Kamau)."""
    return await service.verify(call, "national_id", body)


@router.endpoint(DRIVERS_LICENSE, response_model=KycResult)
async def drivers_license(body: DriversLicenseRequest, call: Call) -> bytes:
    """Verifies a driver's licence number with the issuing country's registry (`country_code`:
    NG, KE, UG or TZ; Nigerian licences also need `first_name` and `last_name`) and answers
    the verification envelope with the record and, with `compare`, the name comparison; a slow
    registry answers PENDING (poll GET /v3/kyc/status/{reference}). Live: one charge per
    billable answer; sandbox: the last digit picks the outcome (NG AAA00000AA00 is Adaeze
    Ngozi Okafor)."""
    return await service.verify(call, "drivers_license", body)


@router.endpoint(PASSPORT, response_model=KycResult)
async def passport(body: PassportRequest, call: Call) -> bytes:
    """Verifies a passport number with the issuing country's registry (Nigerian passports
    also need `last_name`) and answers the verification envelope with the record. With `mrz`
    (the two TD3 lines), its ICAO 9303 check digits are verified (a failed one is a 400 naming
    it, e.g. `mrz.birth_date`), it must name the same number, and it is echoed in `data.mrz`.
    Live: one charge per billable answer; sandbox: the last digit picks the outcome (KE
    AK0000000 is Wanjiru Akinyi Kamau)."""
    return await service.verify(call, "passport", body)


@router.endpoint(STATUS, response_model=KycResult)
async def status(reference: str, call: Call) -> KycResult:
    """The verification `reference` names, as it stands, in the envelope the verification
    answered (`request_id` is this call's own): poll a PENDING one until `data.state` is
    `completed` or `failed`, or fetch the identity of one a webhook reported. Another
    organisation's or environment's reference is 404. Free. Sandbox: a number ending in 7
    completes a few seconds after it was sent (HAKIKI_KYC_SANDBOX_PENDING_SECONDS)."""
    return await service.status(call.runtime, call.principal, call.request_id, reference)
