"""HTTP handlers of the screening category (thin: the work is in the services)."""

from __future__ import annotations

from hakiki.core.calls import Call
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
    """One call, one wallet transaction in live mode; deterministic mock data in sandbox
    (the last digit of the number picks the outcome, the one before it the AML hits)."""
    return await aml_with_id.screen_with_id(call, body)


@router.endpoint(CHANNELS, response_model=ChannelList)
async def channels(call: Call) -> ChannelList:
    return channels_service.list_channels(call.runtime.part(Providers).items)


@router.endpoint(AML, response_model=ScreeningResult)
async def aml(body: AmlScreeningRequest, call: Call) -> bytes:
    """Sanctions, PEP and adverse-media screening of a person, business, vessel or aircraft."""
    screening = aml_service.person_screening(body, body.subject_type, list(body.checks))
    return await aml_service.screen(call, screening)


@router.endpoint(INDIVIDUAL, response_model=ScreeningResult)
async def individual(body: IndividualScreeningRequest, call: Call) -> bytes:
    checks = ["sanction", "pep", *(["adverse_media"] if body.adverse_media else [])]
    screening = aml_service.person_screening(body, "person", checks)
    return await aml_service.screen(call, screening)


@router.endpoint(BUSINESS, response_model=ScreeningResult)
async def business(body: BusinessScreeningRequest, call: Call) -> bytes:
    checks = ["sanction", *(["adverse_media"] if body.adverse_media else [])]
    return await aml_service.screen(call, aml_service.business_screening(body, checks))


@router.endpoint(PEP, response_model=ScreeningResult)
async def pep(body: PersonScreeningRequest, call: Call) -> bytes:
    screening = aml_service.person_screening(body, "person", ["pep"])
    return await aml_service.screen(call, screening)


@router.endpoint(SANCTION, response_model=ScreeningResult)
async def sanction(body: SanctionScreeningRequest, call: Call) -> bytes:
    screening = aml_service.person_screening(body, body.subject_type, ["sanction"])
    return await aml_service.screen(call, screening)


@router.endpoint(PEP_AND_SANCTION, response_model=ScreeningResult)
async def pep_and_sanction(body: PersonScreeningRequest, call: Call) -> bytes:
    screening = aml_service.person_screening(body, "person", ["sanction", "pep"])
    return await aml_service.screen(call, screening)
