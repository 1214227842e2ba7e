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
    """Registers an HTTPS endpoint (`url`, public; plain http only with sandbox keys) for the
    `events` listed (omitted: every type, including types added later) and answers 201 with
    the endpoint and its signing `secret` (`whsec_...`), shown only here: verify each event's
    `webhook-signature` with it (Standard Webhooks). Any key of the organisation; free. The
    endpoint receives the events of this key's environment: sandbox or live."""
    return await service.create_endpoint(call, body)


@router.endpoint(LIST, response_model=EndpointList)
async def list_endpoints(call: Call, page: PageRequest = Depends(page_params)) -> EndpointList:
    """The webhook endpoints registered in this key's environment, newest first, paginated,
    without their secrets. Any key of the organisation; free. Sandbox keys list the sandbox's
    endpoints, live keys the live ones."""
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
    """The deliveries of events to your endpoints, newest first, paginated, each with every
    attempt (oldest first: time, HTTP status, latency, error); filters `endpoint_id`,
    `event_id` and `status` (pending, delivered, failed). A failed attempt is retried after
    5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery is failed. Any key of the
    organisation; free. Sandbox keys see the sandbox's deliveries, live keys the live ones."""
    filters = {"endpoint_id": endpoint_id, "event_id": event_id, "status": status}
    return await service.list_deliveries(call.runtime, call.principal, filters, page)


@router.endpoint(RESEND, response_model=Delivery)
async def resend_delivery(delivery_id: str, call: Call) -> bytes:
    """Sends a delivered or failed delivery again at once, with a fresh retry schedule, and
    answers 202 with the delivery, now `pending`; 409 `conflict` while it is still pending or
    when its endpoint was deleted, 404 if unknown. Any key of the organisation; free. Sandbox
    keys resend the sandbox's deliveries, live keys the live ones."""
    return await service.resend(call, delivery_id)


@router.endpoint(GET, response_model=Endpoint)
async def get_endpoint(endpoint_id: str, call: Call) -> Endpoint:
    """One webhook endpoint, without its secret; 404 if unknown, deleted or registered in the
    other environment. Any key of the organisation; free. Sandbox keys see only the sandbox's
    endpoints."""
    return await service.get_endpoint(call.runtime, call.principal, endpoint_id)


@router.endpoint(DELETE)
async def delete_endpoint(endpoint_id: str, call: Call) -> Response:
    """Removes a webhook endpoint: 204 with no body. It receives nothing more (its pending
    deliveries end failed) and its deliveries stay listed; 404 if unknown, already deleted or
    of the other environment. Any key of the organisation; free. Sandbox keys remove only the
    sandbox's endpoints."""
    await service.delete_endpoint(call.runtime, call.principal, endpoint_id)
    return Response(status_code=204)


@router.endpoint(ROTATE, response_model=EndpointWithSecret)
async def rotate_secret(endpoint_id: str, call: Call) -> bytes:
    """Replaces the endpoint's signing secret and answers the endpoint with the new `secret`
    (shown only here); the old one keeps signing beside it until `previous_secret_expires_at`
    (24 h by default), so receivers can switch without missing an event. 404 if unknown. Any
    key of the organisation; free. Sandbox keys rotate only the sandbox's endpoints."""
    return await service.rotate_secret(call, endpoint_id)
