"""The alert queue's writers that other work calls (the contract of docs/decisions.md, issue
34): onboarding screenings and monitoring raise alerts on the hits an analyst has not decided,
and a list update closes those on entries removed from the list.

An alert is one potential match of one subject with one list entry, in one organisation's
environment. Only its current state columns change; each change appends a history row
(``screening_alert_events``). A hit with a decision in force (the newest review of the subject
and entry, which an alert's resolution also writes, on the same entry fingerprint) raises
nothing: a false positive stays suppressed, and a true match stays decided, until the list
entry changes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.calls import Call
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.ids import new_id
from hakiki.core.runtime import Runtime
from hakiki.screening import alerts_repository as alerts
from hakiki.screening import repository as reviews
from hakiki.screening.schemas import AmlHit
from hakiki.webhooks import service as webhooks

ALERT_OPENED = "screening.alert_opened"
SYSTEM = "system"  # the actor of what no caller did (raised by a screening, closed by a list)


@dataclass(frozen=True, slots=True)
class AlertSubject:
    subject_key: str  # name_subject_key(vault, subject): the key reviews use
    monitored_subject_id: str | None  # "msub_..." when the alert comes from monitoring
    reference: str | None  # the organisation's own reference (stored encrypted)
    name: str  # the screened name (stored encrypted)


def reference_hash(vault: Vault, reference: str) -> str:
    """The keyed hash the queue is filtered by (the reference itself is personal data)."""
    return vault.lookup_hash("alert", "reference", reference)


def event_row(
    vault: Vault,
    alert_id: str,
    event: str,
    now: datetime,
    *,
    actor: str = SYSTEM,
    api_key_id: str | None = None,
    detail: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One history row: who (encrypted) did what, with its detail (encrypted JSON)."""
    return {
        "id": new_id("alev"),
        "alert_id": alert_id,
        "event": event,
        "actor_encrypted": vault.encrypt(actor),
        "api_key_id": api_key_id,
        "detail_encrypted": vault.encrypt(orjson.dumps(detail).decode()) if detail else None,
        "created_at": now,
    }


def _sealed_hit(vault: Vault, hit: AmlHit) -> str:
    return vault.encrypt(hit.model_dump_json(exclude={"review"}))


def _decided(rows: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """The fingerprint of each entry's decision in force (the newest review wins)."""
    return {(row["list_code"], row["entity_id"]): row["entity_fingerprint"] for row in rows}


async def raise_alerts(
    conn: AsyncConnection,
    runtime: Runtime,
    *,
    org_id: str,
    environment: str,
    subject: AlertSubject,
    hits: Sequence[AmlHit],
    origin: Literal["onboarding", "monitoring"],
    request_id: str | None = None,
) -> list[str]:
    """Per hit: no open alert on (org, env, subject_key, list_code, entity_id) -> open one and
    send screening.alert_opened (same transaction); an open one with the same
    entity_fingerprint -> nothing; with another fingerprint -> amended (history row). A
    decision in force with the same fingerprint (a review, or an alert's resolution, which
    writes one) -> nothing: a false positive stays suppressed, a true match decided, until the
    entry changes. Returns the ids opened or amended."""
    if not hits:
        return []
    vault = runtime.vault
    decided = _decided(
        await reviews.reviews_for_subject(conn, org_id, environment, subject.subject_key)
    )
    known = await alerts.alerts_for_subject(conn, org_id, environment, subject.subject_key)
    open_alerts = {(a["list_code"], a["entity_id"]): a for a in known if a["status"] == "open"}
    earlier = {(a["list_code"], a["entity_id"]): a["id"] for a in known}  # the newest
    now = utcnow()
    changed: list[str] = []
    history: list[dict[str, Any]] = []
    for hit in hits:
        key = (hit.list_code, hit.entity_id)
        if decided.get(key) == hit.entity_fingerprint:
            continue
        current = open_alerts.get(key)
        if current is not None:
            if current["entity_fingerprint"] == hit.entity_fingerprint:
                continue
            await alerts.update_alert(
                conn,
                current["id"],
                {
                    "entity_fingerprint": hit.entity_fingerprint,
                    "score": hit.score,
                    "hit_encrypted": _sealed_hit(vault, hit),
                    "updated_at": now,
                },
            )
            detail = {
                "previous_fingerprint": current["entity_fingerprint"],
                "entity_fingerprint": hit.entity_fingerprint,
                "origin": origin,
                "request_id": request_id,
            }
            history.append(event_row(vault, current["id"], "amended", now, detail=detail))
            current["entity_fingerprint"] = hit.entity_fingerprint  # a repeated hit: nothing
            changed.append(current["id"])
            continue
        alert_id = new_id("alrt")
        inserted = await alerts.insert_open_alert(
            conn,
            {
                "id": alert_id,
                "org_id": org_id,
                "environment": environment,
                "subject_key": subject.subject_key,
                "monitored_subject_id": subject.monitored_subject_id,
                "reference_hash": reference_hash(vault, subject.reference)
                if subject.reference
                else None,
                "reference_encrypted": vault.encrypt(subject.reference)
                if subject.reference
                else None,
                "name_encrypted": vault.encrypt(subject.name),
                "list_code": hit.list_code,
                "entity_id": hit.entity_id,
                "entity_fingerprint": hit.entity_fingerprint,
                "score": hit.score,
                "hit_encrypted": _sealed_hit(vault, hit),
                "origin": origin,
                "status": "open",
                "created_at": now,
                "updated_at": now,
            },
        )
        if not inserted:  # another transaction opened it a moment ago: that one stands
            continue
        open_alerts[key] = {"id": alert_id, "entity_fingerprint": hit.entity_fingerprint}
        detail = {
            "entity_fingerprint": hit.entity_fingerprint,
            "origin": origin,
            "request_id": request_id,
            "previous_alert_id": earlier.get(key),
        }
        history.append(event_row(vault, alert_id, "opened", now, detail=detail))
        await webhooks.emit(
            conn,
            org_id=org_id,
            environment=environment,
            event_type=ALERT_OPENED,
            resource_id=alert_id,
            data={
                "alert_id": alert_id,
                "list_code": hit.list_code,
                "origin": origin,
                "created_at": now.isoformat(),
            },
        )
        changed.append(alert_id)
    await alerts.insert_events(conn, history)
    return changed


async def close_alerts_for_entities(
    conn: AsyncConnection,
    runtime: Runtime,
    *,
    list_code: str,
    entity_ids: Sequence[str],
    reason: str,
    environment: str,
    org_id: str | None = None,
) -> list[str]:
    """Every open alert of the environment on these removed list entries -> status 'closed',
    history row with actor 'system' and the reason. A live list's removal closes the alerts
    of every live organisation; the sandbox list update, which one organisation runs for
    itself, gives ``org_id`` and closes only that organisation's. Returns the ids closed."""
    if not entity_ids:
        return []
    rows = await alerts.open_alerts_on_entities(
        conn, list_code, entity_ids, environment=environment, org_id=org_id
    )
    return await close_alerts(conn, runtime, [row["id"] for row in rows], reason)


async def close_alerts(
    conn: AsyncConnection, runtime: Runtime, alert_ids: Sequence[str], reason: str
) -> list[str]:
    """Close these open alerts (the list changed under them): status 'closed', a history row
    by 'system' with the reason. Returns the ids."""
    closing = list(alert_ids)
    if not closing:
        return []
    now = utcnow()
    await alerts.close_alerts(conn, closing, now)
    vault = runtime.vault
    await alerts.insert_events(
        conn,
        [event_row(vault, i, "closed", now, detail={"reason": reason}) for i in closing],
    )
    return closing


Write = Callable[[AsyncConnection], Awaitable[None]]


def onboarding_alerts(
    call: Call, *, subject_key: str, name: str, hits: Sequence[AmlHit]
) -> Write | None:
    """The write that opens the alerts of an onboarding screening's hits (those left after
    apply_reviews), for finish_call's ``write``: in the transaction of the call's settlement.
    None when there is no hit (the call then writes nothing of its own)."""
    if not hits:
        return None
    subject = AlertSubject(subject_key, None, None, name)
    principal = call.principal

    async def write(conn: AsyncConnection) -> None:
        await raise_alerts(
            conn,
            call.runtime,
            org_id=principal.org_id,
            environment=principal.environment,
            subject=subject,
            hits=hits,
            origin="onboarding",
            request_id=call.request_id,
        )

    return write


async def resolve_for_review(
    conn: AsyncConnection,
    vault: Vault,
    review: dict[str, Any],
    *,
    actor: str,
    reason: str,
) -> str | None:
    """A review recorded with POST /v3/account/screening-reviews resolves the open alert on
    the same subject, list entry and fingerprint (the queue and the reviews never disagree);
    ``review`` is the stored review row. Returns the alert's id, if one was open."""
    for alert in await alerts.alerts_for_subject(
        conn, review["org_id"], review["environment"], review["subject_key"]
    ):
        if (
            alert["status"] != "open"
            or (alert["list_code"], alert["entity_id"])
            != (review["list_code"], review["entity_id"])
            or alert["entity_fingerprint"] != review["entity_fingerprint"]
        ):
            continue
        now = review["created_at"]
        values = {"status": "resolved", "decision": review["decision"], "updated_at": now}
        if not await alerts.update_alert(conn, alert["id"], values, status="open"):
            return None
        detail = {"decision": review["decision"], "reason": reason, "review_id": review["id"]}
        row = event_row(
            vault,
            alert["id"],
            "resolved",
            now,
            actor=actor,
            api_key_id=review["api_key_id"],
            detail=detail,
        )
        await alerts.insert_events(conn, [row])
        return str(alert["id"])
    return None
