"""Webhook endpoints, events and deliveries.

:func:`emit` is what other features call, inside their business transaction: the event, its
deliveries and their jobs exist exactly when the business write does.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import orjson
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import read, transaction
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.webhooks import repository
from hakiki.webhooks.schemas import (
    EVENT_TYPES,
    Attempt,
    Delivery,
    DeliveryList,
    Endpoint,
    EndpointList,
    EndpointRequest,
    EndpointWithSecret,
)
from hakiki.webhooks.signing import new_secret
from hakiki.webhooks.tasks import DELIVER
from hakiki.webhooks.urls import UrlRefused, check_url

# ---------------------------------------------------------------------------------------------
# Events


def _subscribed(event_types: list[str] | None, event_type: str) -> bool:
    return event_types is None or event_type in event_types


async def emit(
    conn: AsyncConnection,
    *,
    org_id: str,
    environment: str,
    event_type: str,
    resource_id: str | None,
    data: dict[str, Any],
) -> str:
    """Store an event and queue one delivery per endpoint subscribed to it, in the caller's
    open transaction ``conn``; return the event id (``evt_...``).

    ``sequence`` counts the events of one resource (1, 2, ...) so receivers can drop stale
    ones. Put references in ``data``, not personal data: receivers fetch details with the API.
    """
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    now = utcnow()
    event_id = new_id("evt")
    sequence = await repository.next_sequence(conn, org_id, environment, resource_id or "")
    await repository.insert_event(
        conn,
        {
            "id": event_id,
            "org_id": org_id,
            "environment": environment,
            "type": event_type,
            "resource_id": resource_id,
            "sequence": sequence,
            "occurred_at": now,
            "data": data,
        },
    )
    for endpoint in await repository.all_endpoints(conn, org_id, environment, resource_id):
        if not _subscribed(endpoint["event_types"], event_type):
            continue
        delivery_id = new_id("whd")
        await repository.insert_delivery(
            conn,
            {
                "id": delivery_id,
                "org_id": org_id,
                "environment": environment,
                "endpoint_id": endpoint["id"],
                "event_id": event_id,
                "status": "pending",
                "attempt_count": 0,
                "job_id": await enqueue(conn, DELIVER, {"delivery_id": delivery_id}),
                "created_at": now,
                "updated_at": now,
            },
        )
    return event_id


async def broadcast(
    conn: AsyncConnection, *, event_type: str, resource_id: str | None, data: dict[str, Any]
) -> list[str]:
    """Emit an event that concerns everyone (a list update) to each organisation and
    environment with an endpoint subscribed to it; return the event ids."""
    audiences = {
        (row["org_id"], row["environment"])
        for row in await repository.subscriber_environments(conn)
        if _subscribed(row["event_types"], event_type)
    }
    return [
        await emit(
            conn,
            org_id=org_id,
            environment=environment,
            event_type=event_type,
            resource_id=resource_id,
            data=data,
        )
        for org_id, environment in sorted(audiences)
    ]


# ---------------------------------------------------------------------------------------------
# Endpoints


def _endpoint(row: dict[str, Any]) -> Endpoint:
    return Endpoint(
        id=row["id"],
        url=row["url"],
        description=row["description"],
        events=row["event_types"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        previous_secret_expires_at=row["previous_secret_expires_at"],
    )


def _not_found(endpoint_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No webhook endpoint {endpoint_id} in this environment.")


async def new_endpoint(
    runtime: Runtime, principal: Principal, body: EndpointRequest
) -> tuple[dict[str, Any], str]:
    """The row of a new endpoint for ``body`` once its URL is acceptable, and its secret."""
    try:
        await check_url(
            body.url,
            live=principal.live,
            allow_private=runtime.settings.webhooks_allow_private,
        )
    except UrlRefused as exc:
        raise invalid_request(f"url {exc}.", field="url", problem=str(exc)) from exc
    secret = new_secret()
    now = utcnow()
    row = {
        "id": new_id("whe"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        "url": body.url,
        "description": body.description,
        "event_types": list(dict.fromkeys(body.events)) if body.events else None,
        "secret_encrypted": runtime.vault.encrypt(secret),
        "previous_secret_encrypted": None,
        "previous_secret_expires_at": None,
        "created_at": now,
        "updated_at": now,
    }
    return row, secret


async def create_endpoint(call: Call, body: EndpointRequest) -> bytes:
    row, secret = await new_endpoint(call.runtime, call.principal, body)

    async def write(conn: AsyncConnection) -> None:
        await repository.insert_endpoint(conn, row)

    return await finish_write(
        call,
        write,
        lambda: _json(EndpointWithSecret(**_endpoint(row).model_dump(), secret=secret)),
        description="Webhook endpoint added",
        status_code=201,
    )


async def add_endpoint(
    runtime: Runtime, principal: Principal, body: EndpointRequest
) -> tuple[Endpoint, str]:
    """Add an endpoint for the console's form (the API's is :func:`create_endpoint`): the
    endpoint and its secret, to be shown once."""
    row, secret = await new_endpoint(runtime, principal, body)
    async with transaction(runtime.db) as conn:
        await repository.insert_endpoint(conn, row)
    return _endpoint(row), secret


async def list_endpoints(runtime: Runtime, principal: Principal, page: PageRequest) -> EndpointList:
    async with read(runtime.db) as conn:
        total = await repository.count_endpoints(conn, principal.org_id, principal.environment)
        rows = await repository.list_endpoints(
            conn,
            principal.org_id,
            principal.environment,
            offset=page.offset,
            limit=page.page_size,
        )
    return EndpointList(data=[_endpoint(row) for row in rows], pagination=page.describe(total))


async def get_endpoint(runtime: Runtime, principal: Principal, endpoint_id: str) -> Endpoint:
    async with read(runtime.db) as conn:
        row = await repository.get_endpoint(
            conn, principal.org_id, principal.environment, endpoint_id
        )
    if row is None:
        raise _not_found(endpoint_id)
    return _endpoint(row)


async def delete_endpoint(runtime: Runtime, principal: Principal, endpoint_id: str) -> None:
    """The endpoint receives nothing more (pending deliveries end as failed); its deliveries
    stay listed."""
    now = utcnow()
    async with transaction(runtime.db) as conn:
        if not await repository.update_endpoint(
            conn,
            principal.org_id,
            principal.environment,
            endpoint_id,
            deleted_at=now,
            updated_at=now,
        ):
            raise _not_found(endpoint_id)


async def rotate_secret(call: Call, endpoint_id: str) -> bytes:
    """A new secret; the current one keeps signing beside it for the grace period."""
    principal = call.principal
    secret = new_secret()
    now = utcnow()
    grace = timedelta(hours=call.runtime.settings.webhook_secret_grace_hours)
    rotated: dict[str, Any] = {}

    async def write(conn: AsyncConnection) -> None:
        row = await repository.get_endpoint(
            conn, principal.org_id, principal.environment, endpoint_id
        )
        if row is None:
            raise _not_found(endpoint_id)
        changes = {
            "secret_encrypted": call.runtime.vault.encrypt(secret),
            "previous_secret_encrypted": row["secret_encrypted"] if grace else None,
            "previous_secret_expires_at": now + grace if grace else None,
            "updated_at": now,
        }
        await repository.update_endpoint(
            conn, principal.org_id, principal.environment, endpoint_id, **changes
        )
        rotated.update(row, **changes)

    return await finish_write(
        call,
        write,
        lambda: _json(EndpointWithSecret(**_endpoint(rotated).model_dump(), secret=secret)),
        description="Webhook secret rotated",
    )


async def add_callback(
    conn: AsyncConnection,
    vault: Vault,
    *,
    org_id: str,
    environment: str,
    url: str,
    secret: str,
    resource_id: str,
    event_types: list[str],
) -> str:
    """A callback endpoint for one resource (a request's ``callback_url``, already checked
    with :func:`check_url`), in the caller's transaction: it receives ``event_types`` of that
    resource only, through the same deliveries, retries, log and resend as any endpoint, and
    is not listed with the organisation's endpoints. Its id (``whe_...``)."""
    now = utcnow()
    endpoint_id = new_id("whe")
    await repository.insert_endpoint(
        conn,
        {
            "id": endpoint_id,
            "org_id": org_id,
            "environment": environment,
            "url": url,
            "description": f"callback_url of {resource_id}",
            "event_types": event_types,
            "secret_encrypted": vault.encrypt(secret),
            "previous_secret_encrypted": None,
            "previous_secret_expires_at": None,
            "created_at": now,
            "updated_at": now,
            "resource_id": resource_id,
        },
    )
    return endpoint_id


# ---------------------------------------------------------------------------------------------
# Deliveries


def _deliveries(rows: list[dict[str, Any]], attempts: list[dict[str, Any]]) -> list[Delivery]:
    by_delivery: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        by_delivery.setdefault(attempt["delivery_id"], []).append(Attempt(**attempt))
    return [Delivery(**row, attempts=by_delivery.get(row["id"], [])) for row in rows]


async def list_deliveries(
    runtime: Runtime, principal: Principal, filters: dict[str, str | None], page: PageRequest
) -> DeliveryList:
    org_id, environment = principal.org_id, principal.environment
    async with read(runtime.db) as conn:
        total = await repository.count_deliveries(conn, org_id, environment, filters)
        rows = await repository.list_deliveries(
            conn, org_id, environment, filters, offset=page.offset, limit=page.page_size
        )
        attempts = await repository.attempts_of(conn, [row["id"] for row in rows])
    return DeliveryList(data=_deliveries(rows, attempts), pagination=page.describe(total))


async def resend(call: Call, delivery_id: str) -> bytes:
    """Send a delivered or failed delivery again now, with a fresh set of retries."""
    org_id, environment = call.principal.org_id, call.principal.environment
    resent: list[Delivery] = []

    async def write(conn: AsyncConnection) -> None:
        row = await repository.get_delivery(conn, org_id, environment, delivery_id)
        if row is None:
            raise ApiError(404, "not_found", f"No webhook delivery {delivery_id}.")
        if row["status"] == "pending":
            raise ApiError(409, "conflict", f"Delivery {delivery_id} is still being sent.")
        endpoint = await repository.get_any_endpoint(conn, org_id, environment, row["endpoint_id"])
        if endpoint is None:
            raise ApiError(409, "conflict", f"Endpoint {row['endpoint_id']} was deleted.")
        job_id = await enqueue(conn, DELIVER, {"delivery_id": delivery_id})
        changes = {"status": "pending", "job_id": job_id, "updated_at": utcnow()}
        await repository.update_delivery(conn, delivery_id, **changes)
        attempts = await repository.attempts_of(conn, [delivery_id])
        resent.extend(_deliveries([{**row, **changes}], attempts))

    body = await finish_write(
        call,
        write,
        lambda: _json(resent[0]),
        description="Webhook delivery resent",
        status_code=202,
    )
    if call.runtime.jobs is not None:
        call.runtime.jobs.wake()
    return body


def _json(model: BaseModel) -> bytes:
    return orjson.dumps(model.model_dump(mode="json"))
