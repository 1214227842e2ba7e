"""What each category of registry check tells the shared mechanism: how to ask its registry
again (the completion job) and how to conclude from an answer. Registered by the category's
own module, read by the job and the look-up that outlived the sync budget."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.envelope import OUTCOMES, Outcome
from hakiki.core.registry_checks.schemas import state_of
from hakiki.core.runtime import Runtime

A = TypeVar("A")  # a category's registry answer
Row = dict[str, Any]  # a registry_checks row


@dataclass(frozen=True)
class Final:
    """How a check ended: the envelope's outcome and message, the result's data, and the
    event's data (references and outcomes, never personal data: events are stored in clear)."""

    outcome: Outcome
    data: BaseModel
    message: str
    provider_reference: str | None
    event: dict[str, Any]
    provider: str | None = None  # who answered, when a fallback provider did (None: unchanged)


def event_basics(row: Row, outcome: Outcome, *, found: bool) -> dict[str, Any]:
    """What every registry check's event says first: which check, and how it ended."""
    return {
        "reference": row["reference"],
        "request_id": row["request_id"],
        "status": outcome.value,
        "response_code": OUTCOMES[outcome].response_code,
        "state": state_of(outcome),
        "found": found,
    }


class Emit(Protocol):
    """Stores an event and queues its deliveries in the caller's transaction (the webhooks
    domain's ``emit``; core cannot import it)."""

    async def __call__(
        self,
        conn: AsyncConnection,
        *,
        org_id: str,
        environment: str,
        event_type: str,
        resource_id: str | None,
        data: dict[str, Any],
    ) -> str: ...


@dataclass(frozen=True)
class CheckKind(Generic[A]):
    category: str  # the rows' category: kyb, vehicle, tax
    noun: str  # how refunds, logs and 404s name one: "KYB check"
    ask_again: Callable[[Runtime, Row], Awaitable[A]]  # sandbox: the documented completion
    conclude: Callable[[Runtime, Row, A], Awaitable[Final]]
    emit: Emit


KINDS: dict[str, CheckKind[Any]] = {}


def register(kind: CheckKind[A]) -> CheckKind[A]:
    if KINDS.setdefault(kind.category, kind) is not kind:
        raise ValueError(f"registry check category {kind.category!r} is registered twice")
    return kind
