"""HTTP handlers of webhook endpoints and deliveries (/v3/account/webhooks)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request, Response

from hakiki.core.auth import AnyKey
from hakiki.core.calls import runtime_of
from hakiki.core.openapi import error_responses
from hakiki.core.pagination import PageRequest, page_params
from hakiki.webhooks import service
from hakiki.webhooks.schemas import (
    Delivery,
    DeliveryList,
    DeliveryStatus,
    Endpoint,
    EndpointList,
    EndpointRequest,
    EndpointWithSecret,
)

router = APIRouter(prefix="/v3/account/webhooks", tags=["Webhooks"])
ERRORS = (401, 500)


@router.post(
    "",
    status_code=201,
    response_model=EndpointWithSecret,
    summary="Add a webhook endpoint; its signing secret is shown only now",
    responses=error_responses(*ERRORS, 400),
)
async def create_endpoint(
    body: EndpointRequest, request: Request, principal: AnyKey
) -> EndpointWithSecret:
    """The endpoint receives the events of this key's environment (sandbox or live)."""
    return await service.create_endpoint(runtime_of(request), principal, body)


@router.get(
    "",
    response_model=EndpointList,
    summary="The environment's webhook endpoints, newest first",
    responses=error_responses(*ERRORS, 400),
)
async def list_endpoints(
    request: Request,
    principal: AnyKey,
    page: PageRequest = Depends(page_params),
) -> EndpointList:
    return await service.list_endpoints(runtime_of(request), principal, page)


# Before /{endpoint_id}, which would otherwise take "deliveries" for an id.
@router.get(
    "/deliveries",
    response_model=DeliveryList,
    summary="Webhook deliveries with their attempts, newest first",
    responses=error_responses(*ERRORS, 400),
)
async def list_deliveries(
    request: Request,
    principal: AnyKey,
    page: PageRequest = Depends(page_params),
    endpoint_id: str | None = Query(None, description="Only this endpoint's deliveries."),
    event_id: str | None = Query(None, description="Only this event's deliveries."),
    status: DeliveryStatus | None = Query(None),
) -> DeliveryList:
    filters = {"endpoint_id": endpoint_id, "event_id": event_id, "status": status}
    return await service.list_deliveries(runtime_of(request), principal, filters, page)


@router.post(
    "/deliveries/{delivery_id}/resend",
    status_code=202,
    response_model=Delivery,
    summary="Send a delivered or failed delivery again now",
    responses=error_responses(*ERRORS, 404, 409),
)
async def resend_delivery(delivery_id: str, request: Request, principal: AnyKey) -> Delivery:
    return await service.resend(runtime_of(request), principal, delivery_id)


@router.get(
    "/{endpoint_id}",
    response_model=Endpoint,
    summary="One webhook endpoint",
    responses=error_responses(*ERRORS, 404),
)
async def get_endpoint(endpoint_id: str, request: Request, principal: AnyKey) -> Endpoint:
    return await service.get_endpoint(runtime_of(request), principal, endpoint_id)


@router.delete(
    "/{endpoint_id}",
    status_code=204,
    summary="Remove a webhook endpoint",
    responses=error_responses(*ERRORS, 404),
)
async def delete_endpoint(endpoint_id: str, request: Request, principal: AnyKey) -> Response:
    await service.delete_endpoint(runtime_of(request), principal, endpoint_id)
    return Response(status_code=204)


@router.post(
    "/{endpoint_id}/rotate-secret",
    response_model=EndpointWithSecret,
    summary="Replace the signing secret; the old one also signs during the grace period",
    responses=error_responses(*ERRORS, 404),
)
async def rotate_secret(
    endpoint_id: str, request: Request, principal: AnyKey
) -> EndpointWithSecret:
    return await service.rotate_secret(runtime_of(request), principal, endpoint_id)
