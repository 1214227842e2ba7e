"""HTTP handlers of the screening category (thin: the work is in the services)."""

from __future__ import annotations

from fastapi import Depends

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.providers.live import LiveProviders
from hakiki.core.routing import EndpointRouter
from hakiki.identity.providers.registry import Providers
from hakiki.screening import aml_service, aml_with_id, channels_service
from hakiki.screening.aml_schemas import (
    AmlScreeningRequest,
    BusinessScreeningRequest,
    IndividualScreeningRequest,
    PersonScreeningRequest,
    SanctionScreeningRequest,
    ScreeningResult,
)
from hakiki.screening.endpoints import (
    AML,
    AML_WITH_ID,
    BUSINESS,
    CHANNELS,
    INDIVIDUAL,
    PEP,
    PEP_AND_SANCTION,
    SANCTION,
)
from hakiki.screening.schemas import AmlWithIdRequest, AmlWithIdResult, ChannelList

router = EndpointRouter(tags=["AML screening"])


@router.endpoint(AML_WITH_ID, response_model=AmlWithIdResult)
async def screen_aml_with_id(body: AmlWithIdRequest, call: Call) -> bytes:
    """Verifies an identity number (`channel` and `number`, from GET /v3/screening/channels)
    with its registry, then screens the identity found against sanctions and PEP lists (and
    adverse media with `adverse_media: true`); with `compare`, also matches `first_name` and
    `last_name` against the record. Answers the verification envelope (`status`,
    `response_code`, ...) with the identity and its screening (`data.aml`, null when nothing was
    found). Live: one call, one wallet transaction (none for 02 or 09); sandbox: deterministic
    mock data (the last digit of the number picks the outcome, the one before it the AML
    hits)."""
    return await aml_with_id.screen_with_id(call, body)


@router.endpoint(CHANNELS, response_model=ChannelList)
async def channels(call: Call, page: PageRequest = Depends(page_params)) -> ChannelList:
    """Every identity channel (the combined screening, KYC and the fraud scans take these
    codes): its `code`, `country`, `subject`, `name`, `format` rule and an `example` number,
    the fields it `requires` besides the number, and whether live keys can use it here (`live`:
    a provider is configured, `live_provider`; `live_providers` lists every provider in the
    order tried, with its circuit breaker's state). Free. Sandbox: every channel works, and each
    lists its golden `test_values`; `sandbox_rules` says how any valid number drives the
    outcome. Paginated like every list (`page`, `page_size`: 20 by default, 100 at most).
    `registry_checks` lists the tax, KYB and vehicle checks with their live providers in
    order and their breakers' states."""
    runtime = call.runtime
    return channels_service.list_channels(
        runtime.part(Providers), page, runtime.part(LiveProviders)
    )


@router.endpoint(AML, response_model=ScreeningResult)
async def aml(body: AmlScreeningRequest, call: Call) -> bytes:
    """Sanctions, PEP and adverse-media screening of a person, business, vessel or aircraft
    (`subject_type`), the `checks` chosen (default sanction and pep): `name` (or the name parts
    for a person), and `birth_date`, `gender`, `countries` and `identifiers` to sharpen the
    match. Answers `CLEAR`, `POTENTIAL_MATCH` or `INCOMPLETE` (a requested check not performed:
    `data.aml.outcomes`) with each hit scored and explained, the lists and versions screened,
    and the checks that could not run (`data.aml.unavailable`); 503 when none of them can. Live:
    charged for the checks that ran; sandbox: the sandbox's fictional lists with the real
    matcher ("Sandbox Every List" hits all three)."""
    screening = aml_service.person_screening(body, body.subject_type, list(body.checks))
    return await aml_service.screen(call, screening)


@router.endpoint(INDIVIDUAL, response_model=ScreeningResult)
async def individual(body: IndividualScreeningRequest, call: Call) -> bytes:
    """A natural person (`name`, or `first_name`, `middle_name` and `last_name`; `birth_date`,
    `gender`, `countries` and `identifiers` sharpen the match) against sanctions and PEP lists;
    `adverse_media: true` adds adverse media. Answers `CLEAR`, `POTENTIAL_MATCH` or `INCOMPLETE`
    (a requested check not performed: `data.aml.outcomes`) with each hit scored and explained,
    and the lists screened. Live: charged for the checks that ran; sandbox: fictional lists,
    real matcher ("Sandbox Politically Exposed" is a PEP hit)."""
    checks = ["sanction", "pep", *(["adverse_media"] if body.adverse_media else [])]
    screening = aml_service.person_screening(body, "person", checks)
    return await aml_service.screen(call, screening)


@router.endpoint(BUSINESS, response_model=ScreeningResult)
async def business(body: BusinessScreeningRequest, call: Call) -> bytes:
    """A business by its registered `name` (plus `countries` and registration `identifiers` if
    known) against sanctions lists; `adverse_media: true` adds adverse media. Answers `CLEAR`,
    `POTENTIAL_MATCH` or `INCOMPLETE` (a requested check not performed: `data.aml.outcomes`)
    with each hit scored and explained, and the lists screened. Live: charged
    for the checks that ran; sandbox: fictional lists, real matcher ("Sandbox Sanction Trading
    Limited" hits)."""
    checks = ["sanction", *(["adverse_media"] if body.adverse_media else [])]
    return await aml_service.screen(call, aml_service.business_screening(body, checks))


@router.endpoint(PEP, response_model=ScreeningResult)
async def pep(body: PersonScreeningRequest, call: Call) -> bytes:
    """A natural person (`name`, or the name parts) against PEP lists only. Answers `CLEAR`,
    `POTENTIAL_MATCH` or `INCOMPLETE` (a requested check not performed: `data.aml.outcomes`)
    with each hit scored and explained; 503 `service_unavailable`, not charged, when no PEP list
    is loaded on the server (the bundled snapshots hold none). Live: charged for the checks that
    ran; sandbox: fictional lists, real matcher ("Sandbox Politically Exposed" hits)."""
    screening = aml_service.person_screening(body, "person", ["pep"])
    return await aml_service.screen(call, screening)


@router.endpoint(SANCTION, response_model=ScreeningResult)
async def sanction(body: SanctionScreeningRequest, call: Call) -> bytes:
    """Any subject (`subject_type`: person by default, business, vessel or aircraft) by `name`
    against sanctions lists (OFAC SDN, UN Security Council, ... as loaded on the server); a
    person's `birth_date`, `gender`, `countries` and `identifiers` sharpen the match. Answers
    `CLEAR`, `POTENTIAL_MATCH` or `INCOMPLETE` (a requested check not performed:
    `data.aml.outcomes`) with each hit scored and explained, and the lists and versions
    screened. Live: charged for the checks that ran; sandbox: fictional lists, real matcher
    ("Sandbox Sanction Person" and "Sandbox Sanction Trading Limited" hit)."""
    screening = aml_service.person_screening(body, body.subject_type, ["sanction"])
    return await aml_service.screen(call, screening)


@router.endpoint(PEP_AND_SANCTION, response_model=ScreeningResult)
async def pep_and_sanction(body: PersonScreeningRequest, call: Call) -> bytes:
    """A natural person (`name`, or the name parts) against sanctions and PEP lists in one call.
    Answers `CLEAR`, `POTENTIAL_MATCH` or `INCOMPLETE` (a requested check not performed:
    `data.aml.outcomes`) with each hit scored and explained, the lists screened, and a check
    that could not run (no PEP list loaded) in `data.aml.unavailable`. Live: charged for the
    checks that ran; sandbox: fictional lists, real matcher ("Sandbox Every List" hits both)."""
    screening = aml_service.person_screening(body, "person", ["sanction", "pep"])
    return await aml_service.screen(call, screening)
