"""HTTP handlers of webhook endpoints and deliveries (/v3/account/webhooks)."""

from __future__ import annotations

from fastapi import Depends, Query, Response

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.webhooks import service
from hakiki.webhooks.endpoints import CREATE, DELETE, DELIVERIES, GET, LIST, RESEND, ROTATE
from hakiki.webhooks.schemas import (
    Delivery,
    DeliveryList,
    DeliveryStatus,
    Endpoint,
    EndpointList,
    EndpointRequest,
    EndpointWithSecret,
)

router = EndpointRouter(tags=["Webhooks"])


@router.endpoint(CREATE, response_model=EndpointWithSecret)
async def create_endpoint(body: EndpointRequest, call: Call) -> bytes:
    """The endpoint receives the events of this key's environment (sandbox or live)."""
    return await service.create_endpoint(call, body)


@router.endpoint(LIST, response_model=EndpointList)
async def list_endpoints(call: Call, page: PageRequest = Depends(page_params)) -> EndpointList:
    return await service.list_endpoints(call.runtime, call.principal, page)


# Before /{endpoint_id}, which would otherwise take "deliveries" for an id.
@router.endpoint(DELIVERIES, response_model=DeliveryList)
async def list_deliveries(
    call: Call,
    page: PageRequest = Depends(page_params),
    endpoint_id: str | None = Query(None, description="Only this endpoint's deliveries."),
    event_id: str | None = Query(None, description="Only this event's deliveries."),
    status: DeliveryStatus | None = Query(None),
) -> DeliveryList:
    filters = {"endpoint_id": endpoint_id, "event_id": event_id, "status": status}
    return await service.list_deliveries(call.runtime, call.principal, filters, page)


@router.endpoint(RESEND, response_model=Delivery)
async def resend_delivery(delivery_id: str, call: Call) -> bytes:
    return await service.resend(call, delivery_id)


@router.endpoint(GET, response_model=Endpoint)
async def get_endpoint(endpoint_id: str, call: Call) -> Endpoint:
    return await service.get_endpoint(call.runtime, call.principal, endpoint_id)


@router.endpoint(DELETE)
async def delete_endpoint(endpoint_id: str, call: Call) -> Response:
    await service.delete_endpoint(call.runtime, call.principal, endpoint_id)
    return Response(status_code=204)


@router.endpoint(ROTATE, response_model=EndpointWithSecret)
async def rotate_secret(endpoint_id: str, call: Call) -> bytes:
    return await service.rotate_secret(call, endpoint_id)
