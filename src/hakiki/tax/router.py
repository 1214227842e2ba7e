"""HTTP handlers of the Tax category (thin: the work is in service.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.tax import service
from hakiki.tax.endpoints import PIN, STATUS, TCC, WITHHOLDING
from hakiki.tax.schemas import (
    PinRequest,
    PinResult,
    TaxResult,
    TccRequest,
    TccResult,
    WithholdingRequest,
    WithholdingResult,
)

router = EndpointRouter(tags=["Tax"])


@router.endpoint(PIN, response_model=PinResult)
async def pin(body: PinRequest, call: Call) -> bytes:
    """Checks a taxpayer number with its revenue authority: a KRA PIN (`A` individual, `P`
    non-individual, 9 digits, a letter; or found by the holder's KE `national_id`), a URA TIN
    (10 digits) or a TRA TIN (9 digits, `NNN-NNN-NNN` accepted). The format is checked locally
    first (a malformed PIN is a 400 naming `pin` and saying what is wrong); the answer is the
    verification envelope with a structured verdict in `data.verdict` (valid, inactive,
    not_found, mismatch) and the record in `data.taxpayer`. A slow registry answers PENDING
    (poll GET /v3/tax/status/{reference}). Live: KRA's GavaConnect; one charge per billable
    answer. Sandbox: the last digit picks the outcome (KE A000000000W is Wanjiru Akinyi Kamau,
    active)."""
    return await service.check_pin(call, body)


@router.endpoint(TCC, response_model=TccResult)
async def tcc(body: TccRequest, call: Call) -> bytes:
    """Checks a Tax Compliance Certificate against the PIN (TIN) it was issued to: `data.verdict`
    is valid, expired (with `data.certificate.expiry_date`), invalid (revoked or suspended),
    not_found or mismatch (issued to another PIN). A slow registry answers PENDING (poll GET
    /v3/tax/status/{reference}). Live: KRA's TCC checker; one charge per billable answer.
    Sandbox: the certificate number's last digit picks the outcome (4 expired, 6 another PIN;
    KRAEON00000000 is valid)."""
    return await service.check_tcc(call, body)


@router.endpoint(WITHHOLDING, response_model=WithholdingResult)
async def withholding(body: WithholdingRequest, call: Call) -> bytes:
    """Checks a withholding tax certificate: whether it exists, and whether it names the
    withholder and payee PINs sent (`data.withholder_pin_matches`, `data.payee_pin_matches`;
    `data.verdict` valid, mismatch or not_found), with the tax type, amounts (minor units) and
    payment date the authority gives. Live: only where the operator configured a withholding
    certificate checker (KRA publishes none), else 503. Sandbox: the certificate number's last
    digit picks the outcome (6 another payee; KRAWHT00000000 is valid)."""
    return await service.check_withholding(call, body)


@router.endpoint(STATUS, response_model=TaxResult)
async def status(reference: str, call: Call) -> TaxResult:
    """The tax check `reference` names, as it stands, in the envelope the check answered
    (`request_id` is this call's own): poll a PENDING one until `data.state` is `completed`
    or `failed`, or fetch the result a verification.completed webhook reported. Another
    organisation's or environment's reference is 404. Free. Sandbox: a number ending in 7
    completes a few seconds after it was sent (HAKIKI_TAX_SANDBOX_PENDING_SECONDS)."""
    return await service.status(call.runtime, call.principal, call.request_id, reference)
