"""Models of the webhook endpoints, events and deliveries."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from hakiki.core.pagination import Pagination
from hakiki.webhooks import examples

# The closed list of docs/api.md#webhooks.
EventType = Literal[
    "verification.completed",
    "verification.failed",
    "bulk_scan.completed",
    "bulk_scan.failed",
    "background_check.updated",
    "background_check.completed",
    "verification_session.completed",
    "verification_session.failed",
    "verification_session.expired",
    "statement_analysis.completed",
    "screening.list_updated",
    "screening.alert_opened",
    "wallet.low_balance",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)

DeliveryStatus = Literal["pending", "delivered", "failed"]


class EndpointRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "url": "https://lender.example/hooks/hakiki",
                    "events": ["verification.completed", "verification.failed"],
                    "description": "Onboarding service",
                }
            ]
        },
    )

    url: StrictStr = Field(description="https (http only with sandbox keys), public address.")
    events: list[EventType] | None = Field(
        default=None, min_length=1, description="Event types to receive; omitted: all of them."
    )
    description: StrictStr | None = Field(default=None, max_length=500)


class Endpoint(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.ENDPOINT]})

    id: str
    url: str
    description: str | None
    events: list[str] | None = Field(description="null: every event type.")
    created_at: datetime
    updated_at: datetime
    previous_secret_expires_at: datetime | None = Field(
        description="After a rotation: until when the old secret also signs."
    )


class EndpointWithSecret(Endpoint):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.ENDPOINT_WITH_SECRET]})

    secret: str = Field(description="whsec_...: the signing secret. Shown only here.")


class EndpointList(BaseModel):
    data: list[Endpoint]
    pagination: Pagination


class Attempt(BaseModel):
    attempted_at: datetime
    status_code: int | None = Field(description="null when no HTTP answer came.")
    latency_ms: int
    error: str | None


class Delivery(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [examples.DELIVERY]})

    id: str
    endpoint_id: str
    event_id: str
    event_type: str
    status: DeliveryStatus
    attempt_count: int
    created_at: datetime
    last_attempt_at: datetime | None
    delivered_at: datetime | None
    attempts: list[Attempt] = Field(description="Every attempt, oldest first.")


class DeliveryList(BaseModel):
    data: list[Delivery]
    pagination: Pagination
