"""HTTP handlers of the KYB category (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.kyb import service
from hakiki.kyb.endpoints import BUSINESS, OWNERSHIP, STATUS
from hakiki.kyb.schemas import (
    BusinessRequest,
    BusinessResult,
    KybResult,
    OwnershipRequest,
    OwnershipResult,
)

router = EndpointRouter(tags=["KYB"])


@router.endpoint(BUSINESS, response_model=BusinessResult)
async def business(body: BusinessRequest, call: Call) -> bytes:
    """Looks a business up in its register: Kenya's BRS (through Prembly), or for Uganda,
    Tanzania and every other country the global fallback (OpenCorporates when configured, else
    GLEIF); an `lei` always goes to GLEIF. The registration number is checked against the
    country's formats first (a 400 names `registration_number` and says what is wrong) and the
    entity type its prefix implies is echoed. Answers the verification envelope with the name,
    number, type, status (registered, dissolved, struck_off, ...), registration date and
    address. A slow registry answers PENDING: poll GET /v3/kyb/status/{reference} (or wait for
    the verification.completed webhook). Live: one charge per billable answer (none for 02 or
    09); sandbox: the last digit picks the outcome (KE PVT-KYB00000 is Mlima Fresh Produce
    Limited, 6 a dissolved company)."""
    return await service.check(call, body, ownership=False)


@router.endpoint(OWNERSHIP, response_model=OwnershipResult)
async def ownership(body: OwnershipRequest, call: Call) -> bytes:
    """The business's directors, shareholders (shares and percentages) and beneficial owners
    (Kenya's CR12 particulars; GLEIF's direct and ultimate parents elsewhere), each screened
    against sanctions and PEP lists with the AML engine (`screen_owners`, true by default; hits
    explained as in AML), and the whole as Beneficial Ownership Data Standard 0.4 statements in
    `data.bods`. A slow registry answers PENDING (poll GET /v3/kyb/status/{reference}). Live:
    one charge per billable answer; sandbox: the last digit picks the outcome and the digit
    before it puts the sandbox PEP (1) or sanctioned person (2) among the directors (KE
    PVT-KYB00020: a director with a sanctions hit)."""
    return await service.check(call, body, ownership=True)


@router.endpoint(STATUS, response_model=KybResult)
async def status(reference: str, call: Call) -> KybResult:
    """The KYB check `reference` names (a business or an ownership check), as it stands, in
    the envelope the check answered (`request_id` is this call's own): poll a PENDING one until
    `data.state` is `completed` or `failed`, or fetch the company, owners and screening that a
    verification.completed webhook reported (events carry no person's name). Another
    organisation's or environment's reference is 404. Free. Sandbox: a number ending in 7
    completes a few seconds after it was sent (HAKIKI_KYC_SANDBOX_PENDING_SECONDS)."""
    return await service.status(call.runtime, call.principal, call.request_id, reference)
