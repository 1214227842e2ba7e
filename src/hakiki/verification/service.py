"""Verification sessions: create (the steps' price reserved), list, read; and the session's
life: started (consent), a liveness challenge issued, submitted, then completed or failed with
each step's result, charge and the webhook; or expired unused."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing, clock
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import as_utc
from hakiki.core.crypto import Vault
from hakiki.core.database import read
from hakiki.core.envelope import enveloped
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.identity.channels import find_channel
from hakiki.identity.verify import live_provider
from hakiki.verification import repository, sandbox
from hakiki.verification.schemas import (
    VERDICTS,
    SessionList,
    SessionOut,
    SessionRequest,
    SessionResult,
    StepResult,
    session_outcome,
)
from hakiki.verification.steps import StepOutcome
from hakiki.webhooks.service import emit

ORDER = ("id_number", "document", "selfie_liveness", "screening")
EXPIRE_TASK = "verification.sessions.expire"
# A submission's steps run inside its request; if the process dies there, this job (queued in
# the same transaction as the move to submitted) ends the session honestly instead of leaving
# it submitted for ever: no step is charged, and the frames and images were never kept.
INTERRUPTED_TASK = "verification.sessions.interrupted"
INTERRUPTED_AFTER_SECONDS = 600
INTERRUPTED_REASON = (
    "not run: the check was interrupted before it finished (the server stopped); nothing was "
    "charged and no image was kept, so send the customer a new link"
)
HOLD_SLACK_SECONDS = 86400  # the reservation outlives the link by a day


def token_hash(vault: Vault, token: str) -> str:
    return vault.lookup_hash("verification-session", token)


def base_url(call: Call) -> str:
    configured = call.runtime.settings.public_base_url
    return (configured or str(call.request.base_url)).rstrip("/")


def unit_reference(session_id: str, step: str) -> str:
    return "vsu_" + hashlib.sha256(f"{session_id}:{step}".encode()).hexdigest()[:32]


def steps_of(row: dict[str, Any]) -> list[str]:
    return list(json.loads(row["steps"]))


def _decrypt_json(vault: Vault, text: str | None) -> Any:
    return json.loads(vault.decrypt(text)) if text else None


def session_out(vault: Vault, row: dict[str, Any], url: str | None = None) -> SessionOut:
    results = _decrypt_json(vault, row["results_encrypted"]) or []
    return SessionOut(
        id=row["id"],
        live=row["environment"] == "live",
        state=row["status"],
        decision=row["decision"],
        url=url,
        steps=steps_of(row),  # type: ignore[arg-type]
        country_code=row["country"],
        id_channel=row["id_channel"],
        customer_reference=row["customer_reference"],
        redirect_url=row["redirect_url"],
        results=[StepResult(**r) for r in results],
        reasons=json.loads(row["reasons"] or "[]"),
        expires_at=row["expires_at"],
        consent_at=row["consent_at"],
        started_at=row["started_at"],
        submitted_at=row["submitted_at"],
        completed_at=row["completed_at"],
        price=row["price"],
        charged_amount=row["charged_amount"],
        currency=row["currency"],
        created_at=row["created_at"],
    )


def _validate(call: Call, body: SessionRequest) -> list[str]:
    steps: list[str] = [s for s in ORDER if s in body.steps]
    if len(steps) != len(body.steps):
        raise invalid_request("steps: each step at most once.", field="steps", problem="repeated")
    if "selfie_liveness" in steps and "document" not in steps:
        raise invalid_request(
            "steps: selfie_liveness needs document (the face is matched to its portrait).",
            field="steps",
            problem="selfie_liveness without document",
        )
    if "screening" in steps and not (
        "id_number" in steps or "document" in steps or body.customer is not None
    ):
        raise invalid_request(
            "steps: screening needs a name: id_number, document or customer.",
            field="steps",
            problem="no name to screen",
        )
    if "id_number" in steps:
        if body.id_channel is None:
            raise invalid_request(
                "id_channel: required with the id_number step.",
                field="id_channel",
                problem="missing",
            )
        channel = find_channel(body.id_channel, body.country_code)
        if channel is None:
            raise invalid_request(
                f"id_channel: {body.id_channel[:40]!r} is not a channel of {body.country_code}.",
                field="id_channel",
                problem="unknown channel",
            )
        if call.principal.live:
            live_provider(call.runtime, channel)  # 503 channel_unavailable, nothing reserved
    return steps


async def create(call: Call, body: SessionRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    steps = _validate(call, body)
    price = sum(runtime.price(f"verification.step.{s}") for s in steps) if principal.live else 0
    now = clock.utcnow()
    suffix = None if principal.live else sandbox.path_of(body.customer_reference)
    lifetime = (
        timedelta(seconds=sandbox.EXPIRE_SECONDS)
        if suffix == "+expire"
        else timedelta(minutes=body.expires_in_minutes)
    )
    token = secrets.token_urlsafe(32)
    row: dict[str, Any] = {
        "id": new_id("vss"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        "request_id": call.request_id,
        "status": "created",
        "decision": None,
        "steps": json.dumps(steps),
        "country": body.country_code,
        "id_channel": body.id_channel if "id_number" in steps else None,
        "customer_reference": body.customer_reference,
        "customer_encrypted": (
            runtime.vault.encrypt(body.customer.model_dump_json()) if body.customer else None
        ),
        "redirect_url": body.redirect_url,
        "token_hash": token_hash(runtime.vault, token),
        "challenge_encrypted": None,
        "challenges_issued": 0,
        "results_encrypted": None,
        "reasons": None,
        "consent_at": None,
        "language": None,
        "expires_at": now + lifetime,
        "started_at": None,
        "submitted_at": None,
        "completed_at": None,
        "price": price,
        "charged_amount": 0,
        "currency": principal.currency,
        "hold_id": None,
        "created_at": now,
        "updated_at": now,
    }

    async def write(conn: AsyncConnection) -> None:
        if price > 0:
            seconds = int(lifetime.total_seconds()) + HOLD_SLACK_SECONDS
            hold = await billing.reserve(conn, principal, price, row["id"], seconds)
            row["hold_id"] = hold.id
        await repository.insert_session(conn, row)
        await enqueue(
            conn, EXPIRE_TASK, {"session_id": row["id"]}, delay_seconds=lifetime.total_seconds()
        )

    def render() -> bytes:
        url = f"{base_url(call)}/verify/{token}"
        return answer(call, session_out(runtime.vault, row, url)).model_dump_json().encode()

    return await finish_write(
        call, write, render, description="Verification session", status_code=201
    )


def _not_found(session_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No verification session {session_id[:60]!r}.")


_MESSAGES = {
    "created": "Send the url to the customer; the session continues in the background: poll "
    "it by its reference, or wait for its webhook.",
    "started": "The customer has consented and is doing the steps.",
    "submitted": "The customer has submitted; the steps are running.",
    "completed": "The steps have run: the decision and each step's result are in data.",
    "failed": "The session could not be completed; the steps that did not run were not charged.",
    "expired": "The link expired before the customer submitted; nothing was charged.",
}


def answer(call: Call, session: SessionOut) -> SessionResult:
    """A session in the envelope (docs/api.md#verification-sessions)."""
    return enveloped(
        SessionResult,
        call,
        None,
        reference=session.id,
        data=session,
        outcome=session_outcome(session.state),
        verdict=VERDICTS.get(session.decision or "") if session.state == "completed" else None,
        message=_MESSAGES[session.state],
    )


async def detail(call: Call, session_id: str) -> SessionResult:
    environment, org_id = call.principal.owner
    async with read(call.runtime.db) as conn:
        row = await repository.get_owned(conn, org_id, environment, session_id)
    if row is None:
        raise _not_found(session_id)
    return answer(call, session_out(call.runtime.vault, row))


async def listing(
    runtime: Runtime, owner: tuple[str, str], page: PageRequest, filters: dict[str, Any]
) -> SessionList:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count(conn, org_id, environment, filters)
        rows = await repository.listing(
            conn, org_id, environment, filters, page.offset, page.page_size
        )
    return SessionList(
        data=[session_out(runtime.vault, r) for r in rows], pagination=page.describe(total)
    )


# The session's life --------------------------------------------------------------------------


def dead(row: dict[str, Any]) -> bool:
    """Expired, or still open past its expiry (before the expiry job has run)."""
    if row["status"] == "expired":
        return True
    return row["status"] in ("created", "started") and as_utc(row["expires_at"]) <= clock.utcnow()


async def announce(conn: AsyncConnection, row: dict[str, Any], event_type: str) -> None:
    """The webhook: references and the outcome, nothing personal (fetch the session)."""
    await emit(
        conn,
        org_id=row["org_id"],
        environment=row["environment"],
        event_type=event_type,
        resource_id=row["id"],
        data={
            "id": row["id"],
            "status": row["status"],
            "decision": row["decision"],
            "customer_reference": row["customer_reference"],
            "reasons": json.loads(row["reasons"] or "[]"),
        },
    )


async def expire(runtime: Runtime, conn: AsyncConnection, session_id: str) -> bool:
    row = await repository.lock(conn, session_id)
    if row is None or row["status"] not in ("created", "started"):
        return False
    now = clock.utcnow()
    changes = {"status": "expired", "updated_at": now, "hold_id": None, "challenge_encrypted": None}
    if not await repository.move(conn, session_id, row["status"], changes):
        return False
    await billing.close(conn, row["hold_id"], row["org_id"])
    await announce(conn, row | changes, "verification_session.expired")
    return True


async def _charge(conn: AsyncConnection, runtime: Runtime, row: dict[str, Any], step: str) -> int:
    if row["environment"] != "live":
        return 0
    price = runtime.price(f"verification.step.{step}")
    if price <= 0:
        return 0
    outcomes = await billing.charge_units(
        conn,
        org_id=row["org_id"],
        currency=row["currency"],
        hold_id=row["hold_id"],
        price_key=f"verification.step.{step}",
        price=price,
        units=[billing.Unit(unit_reference(row["id"], step), f"Verification {row['id']}: {step}")],
        finished=1,
    )
    return price if isinstance(outcomes[0], billing.Charge) else 0


def decide(outcomes: dict[str, StepOutcome]) -> tuple[str, str, list[str]]:
    """(status, decision, reasons): one failed step declines, one to review asks a person."""
    statuses = {o.status for o in outcomes.values()}
    reasons = [f"{step}: {o.reason}" for step, o in outcomes.items() if o.status != "passed"]
    if "failed" in statuses:
        return "failed", "declined", reasons
    if statuses == {"not_run"}:  # nothing was checked: no verdict on the customer
        return "failed", "review", reasons
    if "review" in statuses or "not_run" in statuses:  # a requested step never passes unrun
        return "completed", "review", reasons
    return "completed", "approved", reasons


async def finish(
    runtime: Runtime, conn: AsyncConnection, session_id: str, outcomes: dict[str, StepOutcome]
) -> dict[str, Any] | None:
    """submitted -> completed | failed: each step's result and charge (once: a step's unit
    reference is unique), the reservation's rest released, the webhook."""
    row = await repository.lock(conn, session_id)
    if row is None or row["status"] != "submitted":
        return None
    charged = 0
    results = []
    for step, outcome in outcomes.items():
        paid = await _charge(conn, runtime, row, step) if outcome.billable else 0
        charged += paid
        results.append(outcome.out(step) | {"charged": paid > 0})
    status, decision, reasons = decide(outcomes)
    now = clock.utcnow()
    changes = {
        "status": status,
        "decision": decision,
        "reasons": json.dumps(reasons),
        "results_encrypted": runtime.vault.encrypt(json.dumps(results)),
        "charged_amount": int(row["charged_amount"]) + charged,
        "completed_at": now,
        "updated_at": now,
        "hold_id": None,
    }
    if not await repository.move(conn, session_id, "submitted", changes):
        return None
    await billing.close(conn, row["hold_id"], row["org_id"])
    finished = row | changes
    await announce(
        conn,
        finished,
        "verification_session.completed"
        if status == "completed"
        else "verification_session.failed",
    )
    return finished


async def fail_interrupted(
    runtime: Runtime, conn: AsyncConnection, session_id: str
) -> dict[str, Any] | None:
    """submitted -> failed when the submission's run never finished (INTERRUPTED_TASK)."""
    row = await repository.get(conn, session_id)
    if row is None or row["status"] != "submitted":
        return None
    outcomes = {
        step: StepOutcome("not_run", INTERRUPTED_REASON, billable=False) for step in steps_of(row)
    }
    return await finish(runtime, conn, session_id, outcomes)
